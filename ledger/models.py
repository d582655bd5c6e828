"""The event table and the ledger's own projections (balances, statement entries, checkpoints).

`Event` is append-only: write through `ledger.store.append`, never through the ORM. The model
and its queryset refuse updates and deletes on every backend; on PostgreSQL triggers (migration
0002) also reject UPDATE, DELETE and TRUNCATE issued as raw SQL.
"""
from __future__ import annotations

from typing import Any, NoReturn

from django.db import models


class AppendOnlyError(Exception):
    """Someone tried to change or remove an event."""

    code = "append_only"


def _refuse(what: str) -> NoReturn:
    raise AppendOnlyError(f"events are append-only: {what} is not allowed; use ledger.store.append")


class EventQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> NoReturn:
        _refuse("QuerySet.update()")

    def delete(self) -> NoReturn:
        _refuse("QuerySet.delete()")

    def bulk_update(self, objs: Any, fields: Any, batch_size: Any = None) -> NoReturn:
        _refuse("QuerySet.bulk_update()")

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("QuerySet.bulk_create()")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("QuerySet.update_or_create()")


class Event(models.Model):
    """One fact. `position` orders the whole log; `version` orders one stream."""

    position = models.BigAutoField(primary_key=True)
    stream = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    data = models.JSONField()
    meta = models.JSONField()
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="ledger_event_stream_version"),
            models.CheckConstraint(condition=models.Q(version__gte=1), name="ledger_event_version_positive"),
        ]
        indexes = [models.Index(fields=["type", "position"], name="ledger_event_type_position")]

    def __str__(self) -> str:
        return f"{self.stream}@{self.version} {self.type} (#{self.position})"

    def save(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("Event.save()" if self._state.adding else "changing a stored event")

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse("Event.delete()")


class AccountBalance(models.Model):
    """Projection: the balance of one account in one unit, after every applied event."""

    account = models.CharField(max_length=200)
    unit = models.CharField(max_length=100)
    balance = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["account", "unit"], name="ledger_balance_account_unit"),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.balance} {self.unit}"


class AccountEntry(models.Model):
    """Projection: one line of an account's statement, per transfer touching the account."""

    account = models.CharField(max_length=200)
    unit = models.CharField(max_length=100)
    position = models.BigIntegerField()
    stream = models.CharField(max_length=200)
    event_type = models.CharField(max_length=100)
    recorded_at = models.DateTimeField()
    amount = models.BigIntegerField(help_text="Signed: positive when the account receives chips.")
    balance_after = models.BigIntegerField()
    counterparty = models.CharField(max_length=200)
    reason = models.TextField()

    class Meta:
        indexes = [
            models.Index(fields=["account", "unit", "position"], name="ledger_entry_account_pos"),
            models.Index(fields=["position"], name="ledger_entry_position"),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+} {self.unit} (#{self.position})"


class ProjectionCheckpoint(models.Model):
    """The last event position a projector has applied."""

    name = models.CharField(max_length=100, primary_key=True)
    position = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} @ {self.position}"
