"""Statements that explain themselves: every transfer of an account, linked to its event and deal.

Lines come from the ledger's inline `AccountEntry` projection (one per transfer touching the
account, with the running balance after it). Each line is joined to the event that made it
(position, stream, version, type) and, for a table event that belongs to a deal, to that deal
(table id and deal number), so a reader can follow any balance back to the facts behind it; a
dispute's hold posting or correction links to the dispute and the disputed events it corrects.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from http_edge.roles import User, is_auditor, is_club_admin, player_id_of
from ledger.disputes.events import STREAM_PREFIX as DISPUTE_PREFIX
from ledger.errors import AccessDenied
from ledger.hashing import iso_utc
from ledger.models import AccountEntry, DisputeHold, Event
from tables.audit.feeds import table_of_stream


def check_can_read_account(user: User, account: str) -> None:
    """Auditors and club admins read any account; a player their bankroll and their seats."""
    if is_auditor(user) or is_club_admin(user):
        return
    player = player_id_of(user)
    if player is not None and _owner(account) == str(player):
        return
    raise AccessDenied("You may only read your own accounts (player:<you>, seat:<table>:<you>).")


def _owner(account: str) -> str | None:
    """The player who owns a `player:<pk>` or `seat:<table>:<pk>` account, else None."""
    parts = account.split(":")
    if parts[0] == "player" and len(parts) == 2:
        return parts[1]
    if parts[0] == "seat" and len(parts) == 3:
        return parts[2]
    return None  # no one's (also a malformed name such as "seat")


def account_entries(*, account: str, unit: str | None = None) -> QuerySet[AccountEntry]:
    """The account's statement lines, oldest first."""
    entries = AccountEntry.objects.filter(account=account)
    if unit is not None:
        entries = entries.filter(unit=unit)
    return entries.order_by("position", "pk")


def explained_lines(entries: list[AccountEntry]) -> list[dict[str, Any]]:
    """Statement lines with their event and deal, and a sentence saying what happened."""
    events = {
        row["position"]: row
        for row in Event.objects.filter(position__in={entry.position for entry in entries}).values(
            "position", "version", "data"
        )
    }
    return [_line(entry, events[entry.position]) for entry in entries]


def _line(entry: AccountEntry, event: dict[str, Any]) -> dict[str, Any]:
    table_id = table_of_stream(entry.stream)
    deal_no = event["data"].get("deal_no") if table_id is not None else None
    deal = {"table_id": table_id, "deal_no": deal_no} if type(deal_no) is int else None
    dispute = None
    if entry.stream.startswith(DISPUTE_PREFIX):
        dispute_id = entry.stream.removeprefix(DISPUTE_PREFIX)
        dispute = {
            "id": dispute_id,
            "href": f"/api/v1/disputes/{dispute_id}",
            "outcome": event["data"].get("outcome"),
            "corrects": event["data"].get("corrects", []),
        }
    return {
        "amount": entry.amount,
        "balance_after": entry.balance_after,
        "unit": entry.unit,
        "counterparty": entry.counterparty,
        "reason": entry.reason,
        "recorded_at": entry.recorded_at,
        "event": {
            "position": entry.position,
            "stream": entry.stream,
            "version": event["version"],
            "type": entry.event_type,
        },
        "table_id": table_id,
        "deal": deal,
        "dispute": dispute,
        "explanation": _explanation(entry, table_id, deal),
    }


def explained_holds(*, account: str, unit: str | None = None) -> list[dict[str, Any]]:
    """The account's dispute holds, oldest deadline first, each saying what it does."""
    holds = DisputeHold.objects.filter(account=account)
    if unit is not None:
        holds = holds.filter(unit=unit)
    return [_hold(hold) for hold in holds.order_by("expires_at", "dispute_id")]


def _hold(hold: DisputeHold) -> dict[str, Any]:
    dispute = str(hold.dispute_id)
    what = {
        "pending": f"held until {iso_utc(hold.expires_at)}: still yours, not available",
        "posted": "posted: paid out by the dispute's correction (see its lines)",
        "voided": "voided: available again",
    }[hold.status]
    return {
        "dispute": {"id": dispute, "href": f"/api/v1/disputes/{dispute}"},
        "amount": hold.amount,
        "unit": hold.unit,
        "status": hold.status,
        "expires_at": iso_utc(hold.expires_at),
        "explanation": f"hold of {hold.amount} {hold.unit} for dispute {dispute}, {what}",
    }


def _explanation(entry: AccountEntry, table_id: str | None, deal: dict[str, Any] | None) -> str:
    direction = f"received {entry.amount} from" if entry.amount > 0 else f"paid {-entry.amount} to"
    where = ""
    if deal is not None:
        where = f" in deal {deal['deal_no']} at table {table_id}"
    elif table_id is not None:
        where = f" at table {table_id}"
    return (
        f"{entry.reason}: {direction} {entry.counterparty}{where} ({entry.event_type}, "
        f"event #{entry.position}); balance now {entry.balance_after} {entry.unit}"
    )
