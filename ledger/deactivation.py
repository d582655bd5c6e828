"""Users the ledger knows about are deactivated, never deleted (DESIGN §2.2, §2.4).

Deleting a user whose bankroll or seat holds chips would leave `player:<id>` holding chips that no
one can reach, and deleting one with history would orphan the events about him. So a user with any
*ledger footprint* (a non-zero balance on `player:<id>` or a `seat:<table>:<id>`, any account of his
ever touched, any event on his stream `player-<id>`, any event recording him as its actor) cannot
be deleted on any code path: a `pre_delete` guard raises `UserHasLedgerHistory` (a ProtectedError)
for `user.delete()` and queryset deletes alike. The admin refuses earlier, with a message.

Instead a user is deactivated: `PlayerDeactivated` on his stream and `is_active=False` commit
together, so his tokens and sessions stop working while his chips and history stay where they are
(the cashier can still pay his bankroll out). `PlayerReactivated` undoes it.

`register_deactivation()` connects the guard and declares the two event types; the ledger app's
ready() calls it, so the guard holds in every process (web, worker, management commands).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import ProtectedError, Q
from django.db.models.signals import pre_delete

from ledger.cashier import _with_retries
from ledger.models import AccountBalance, Event
from ledger.money import player_account
from ledger.registry import register_event_type
from ledger.selectors import player_stream
from ledger.store import NewEvent, StoredEvent, StreamWrite, append, stream_version

PLAYER_DEACTIVATED = "PlayerDeactivated"
PLAYER_REACTIVATED = "PlayerReactivated"


class UserHasLedgerHistory(ProtectedError):
    """Deleting this user would strand chips or orphan events: deactivate him instead."""

    code = "user_has_ledger_history"

    def __init__(self, user: AbstractBaseUser, footprint: LedgerFootprint) -> None:
        self.message = refusal_message(user, footprint)
        super().__init__(self.message, [user])

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class LedgerFootprint:
    """What the ledger holds about one user. `holdings`: (account, unit, balance) with balance != 0."""

    holdings: tuple[tuple[str, str, int], ...] = ()
    history: tuple[str, ...] = ()

    @property
    def blocks_deletion(self) -> bool:
        return bool(self.holdings or self.history)

    def describe(self) -> str:
        held = [f"{account} holds {amount} {unit}" for account, unit, amount in self.holdings]
        return "; ".join(held + list(self.history))


def user_ledger_footprint(*, user_id: int) -> LedgerFootprint:
    """The user's chips and history. Cheap checks first: the actor scan runs only when they find
    nothing (it reads `meta`, which has no index)."""
    accounts = list(
        AccountBalance.objects.filter(
            Q(account=player_account(user_id))
            | Q(account__startswith="seat:", account__endswith=f":{user_id}")
        )
        .order_by("account", "unit")
        .values_list("account", "unit", "balance")
    )
    holdings = tuple(row for row in accounts if row[2] != 0)
    history: list[str] = []
    if accounts and not holdings:
        history.append(f"the ledger has statement lines for {', '.join(sorted({a for a, _, _ in accounts}))}")
    if Event.objects.filter(stream=player_stream(user_id)).exists():
        history.append(f"the ledger has history on stream {player_stream(user_id)}")
    if not holdings and not history and Event.objects.filter(meta__actor=user_id).exists():
        history.append("the ledger records them as the actor of events")
    return LedgerFootprint(holdings, tuple(history))


def refusal_message(user: AbstractBaseUser, footprint: LedgerFootprint) -> str:
    return (
        f"{user.get_username()} (id {user.pk}) cannot be deleted: {footprint.describe()}. "
        f"Deactivate the user instead: the ledger keeps their chips and history."
    )


def check_user_deletable(user: AbstractBaseUser) -> None:
    """Raise UserHasLedgerHistory unless the ledger holds nothing about `user`."""
    footprint = user_ledger_footprint(user_id=user.pk)
    if footprint.blocks_deletion:
        raise UserHasLedgerHistory(user, footprint)


def user_deactivate(*, user_id: int, meta: Mapping[str, Any] | None = None) -> StoredEvent | None:
    """`PlayerDeactivated` on `player-<id>` and is_active=False, in one transaction. None (and no
    event) if the user is already inactive."""
    return _set_active(user_id, active=False, event_type=PLAYER_DEACTIVATED, meta=meta)


def user_reactivate(*, user_id: int, meta: Mapping[str, Any] | None = None) -> StoredEvent | None:
    """`PlayerReactivated` and is_active=True, in one transaction; None if already active."""
    return _set_active(user_id, active=True, event_type=PLAYER_REACTIVATED, meta=meta)


def _set_active(
    user_id: int, *, active: bool, event_type: str, meta: Mapping[str, Any] | None
) -> StoredEvent | None:
    def attempt() -> StoredEvent | None:
        # The row lock makes a concurrent (de)activation wait and then see the new flag.
        user = get_user_model().objects.select_for_update().get(pk=user_id)
        if user.is_active == active:
            return None
        stream = player_stream(user_id)
        data = {"player_id": user_id, "username": user.get_username()}
        [stored] = append(
            [StreamWrite(stream, stream_version(stream), [NewEvent(event_type, data)])], meta=meta
        )
        user.is_active = active
        user.save(update_fields=["is_active"])
        return stored

    return _with_retries(attempt)


def _refuse_deleting_users_with_history(sender: Any, instance: AbstractBaseUser, **kwargs: Any) -> None:
    check_user_deletable(instance)


def register_deactivation() -> None:
    """Declare the event types and refuse deleting users with a ledger footprint (from ready())."""
    register_event_type(PLAYER_DEACTIVATED)
    register_event_type(PLAYER_REACTIVATED)
    pre_delete.connect(
        _refuse_deleting_users_with_history,
        sender=settings.AUTH_USER_MODEL,
        dispatch_uid="ledger.deactivation.refuse_deleting_users_with_history",
    )
