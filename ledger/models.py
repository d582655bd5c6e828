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
        verbose_name_plural = "account entries"
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


class Dispute(models.Model):
    """Projection of a dispute stream (`dispute-<id>`): where it stands, for lists and timers."""

    dispute_id = models.UUIDField(primary_key=True)
    subject_key = models.CharField(max_length=200, help_text="e.g. deal:<table>:<n>, cashier:<position>")
    subject = models.JSONField()
    opened_by = models.BigIntegerField()
    parties = models.JSONField(help_text="Player ids of the disputed deal or transaction.")
    party_keys = models.TextField(help_text='The parties as ",3,4,": "is 3 a party" on every backend.')
    status = models.CharField(max_length=20)
    deadline = models.DateTimeField()
    opened_at = models.DateTimeField()
    version = models.PositiveIntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["subject_key", "opened_by"], name="ledger_dispute_subject"),
            models.Index(fields=["status", "deadline"], name="ledger_dispute_due"),
        ]

    def __str__(self) -> str:
        return f"dispute {self.dispute_id} ({self.status})"


class DisputeHold(models.Model):
    """Projection: a dispute's pending transfer from `account` to `hold:<dispute>`; while it is
    `pending` its amount is held on the account (not available, still the player's)."""

    dispute_id = models.UUIDField(primary_key=True)
    account = models.CharField(max_length=200)
    unit = models.CharField(max_length=100)
    amount = models.BigIntegerField()
    status = models.CharField(max_length=20, help_text="pending, posted or voided")
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["account", "unit", "status"], name="ledger_hold_account")]

    def __str__(self) -> str:
        return f"hold {self.amount} {self.unit} on {self.account} ({self.status})"


class LogLeaf(models.Model):
    """The log tree's leaves: the event at log index `index` (0-based, log order) and its hash.
    Written by each checkpoint for the events it adds."""

    index = models.BigIntegerField(primary_key=True)
    position = models.BigIntegerField(unique=True)
    hash = models.CharField(max_length=64)

    class Meta:
        verbose_name_plural = "log leaves"

    def __str__(self) -> str:
        return f"leaf {self.index} = #{self.position}"


class CheckpointLeaf(models.Model):
    """One leaf of a checkpoint's balance sum tree: an account's posted balance at the checkpoint
    and its secret salt (served only to those who may read the account)."""

    checkpoint = models.PositiveIntegerField()
    unit = models.CharField(max_length=100)
    index = models.PositiveIntegerField()
    account = models.CharField(max_length=200)
    balance = models.BigIntegerField()
    salt = models.CharField(max_length=64)

    class Meta:
        verbose_name_plural = "checkpoint leaves"
        constraints = [
            models.UniqueConstraint(fields=["checkpoint", "unit", "index"], name="ledger_checkpointleaf_slot")
        ]
        indexes = [models.Index(fields=["checkpoint", "account"], name="ledger_checkpointleaf_account")]

    def __str__(self) -> str:
        return f"checkpoint {self.checkpoint} {self.account} {self.balance} {self.unit}"


class PlayerName(models.Model):
    """Projection: each player's display name, from `PlayerRegistered` and `PlayerRenamed` on his
    stream (ledger.names). `key` is the name as compared (NFKC, case-folded): unique, so two players
    of the club never share a name, whatever its case."""

    player_id = models.BigIntegerField(primary_key=True)
    name = models.CharField(max_length=150)
    key = models.CharField(max_length=600, unique=True)  # ledger.names.MAX_KEY_LENGTH

    class Meta:
        verbose_name = "player"  # the admin's page of players, their names and bankrolls

    def __str__(self) -> str:
        return f"{self.name} (#{self.player_id})"


class CashierTransaction(Event):
    """The cashier's deposits and withdrawals: the events `DepositMade` and `WithdrawalMade`, as
    staff look them up in the admin (a proxy: no table of its own; `CashierTransactionAdmin`
    shows no other event)."""

    class Meta:
        proxy = True
        verbose_name = "cashier transaction"
