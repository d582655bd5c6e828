"""Ledger reads for the API: players, their bankroll balance and statement (DESIGN §2.4, §2.9).

Balances and statements come from the inline projections (`AccountBalance`, `AccountEntry`), so
a read right after a write sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.db.models import OuterRef, QuerySet, Subquery, Sum, TextField, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Coalesce

from http_edge.roles import PLAYER
from ledger.errors import UnknownPlayer
from ledger.models import AccountEntry, DisputeHold, Event
from ledger.money import UNIT_CHIPS, player_account
from ledger.store import stream_version


@dataclass(frozen=True, slots=True)
class PlayerBalance:
    player_id: int
    account: str
    unit: str
    balance: int  # posted: every transfer so far (`posted`)
    version: int  # the player's stream version the balance reflects (the ETag)
    held: int = 0  # of it, kept by pending dispute holds: still his, not available

    @property
    def posted(self) -> int:
        return self.balance

    @property
    def available(self) -> int:
        return self.balance - self.held


CASHIER_EVENTS = ("DepositMade", "WithdrawalMade")  # the events whose `note` the cashier wrote


def player_stream(player_id: int) -> str:
    return f"player-{player_id}"


def player_list() -> QuerySet[AbstractUser]:
    """Every player (a user in the `player` group), oldest first."""
    return get_user_model().objects.filter(groups__name=PLAYER).order_by("pk")


def player_get(*, player_id: int) -> AbstractUser:
    """The player with this id, or UnknownPlayer."""
    player = player_list().filter(pk=player_id).first()
    if player is None:
        raise UnknownPlayer(player_id)
    return player


def player_balance(*, player_id: int) -> PlayerBalance:
    player_get(player_id=player_id)
    account = player_account(player_id)
    version = stream_version(player_stream(player_id))
    posted, held = balance_and_held(account)
    return PlayerBalance(
        player_id=player_id, account=account, unit=UNIT_CHIPS, balance=posted, version=version, held=held
    )


BALANCE_AND_HELD = (
    "SELECT COALESCE((SELECT balance FROM ledger_accountbalance WHERE account = %s AND unit = %s), 0), "
    "COALESCE((SELECT SUM(amount) FROM ledger_disputehold WHERE account = %s AND unit = %s "
    "AND status = 'pending'), 0)"
)


def balance_and_held(account: str, unit: str = UNIT_CHIPS) -> tuple[int, int]:
    """The account's posted balance and the chips pending dispute holds keep of it, in one query
    (a withdrawal checks both without an extra round trip)."""
    with connection.cursor() as cursor:
        cursor.execute(BALANCE_AND_HELD, [account, unit, account, unit])
        posted, held = cursor.fetchone()
    return int(posted), int(held)


def held_on(account: str, unit: str = UNIT_CHIPS) -> int:
    """Chips of `account` that pending dispute holds keep from being spent (still the owner's)."""
    total = DisputeHold.objects.filter(account=account, unit=unit, status="pending").aggregate(
        total=Sum("amount")
    )["total"]
    return total or 0


def player_statement(*, player_id: int) -> QuerySet[AccountEntry]:
    """Every transfer touching the player's bankroll, oldest first, with the running balance, the
    version of the event behind each line (`event_version`) and the cashier's note of a deposit or
    withdrawal (`event_note`, "" for other lines)."""
    player_get(player_id=player_id)
    event = Event.objects.filter(position=OuterRef("position"))
    note = event.filter(type__in=CASHIER_EVENTS).annotate(note=KeyTextTransform("note", "data"))
    return (
        AccountEntry.objects.filter(account=player_account(player_id), unit=UNIT_CHIPS)
        .annotate(
            event_version=Subquery(event.values("version")[:1]),
            event_note=Coalesce(Subquery(note.values("note")[:1]), Value(""), output_field=TextField()),
        )
        .order_by("position", "pk")
    )
