"""Dispute reads: held chips per account, the disputes a caller may see, and how each is shown.

Who sees what: auditors and club admins every dispute; a player only disputes he is party to
(he opened it, or played the disputed deal / owns the disputed transaction). A hold says how much
of one player's bankroll is held, a lower bound on his balance: it is shown to him, to auditors
and to admins, and to other parties only as "a hold exists or not" (never its amount or account).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from http_edge.roles import User, is_auditor, is_club_admin
from ledger.accounts import player_account
from ledger.disputes import events as ev
from ledger.disputes.state import DisputeState
from ledger.hashing import iso_utc
from ledger.models import Dispute, DisputeHold

PENDING = "pending"


def holds_on(account: str, unit: str = "chips") -> QuerySet[DisputeHold]:
    return DisputeHold.objects.filter(account=account, unit=unit).order_by("expires_at")


def dispute_list(*, user: User, status: str | None = None) -> QuerySet[Dispute]:
    """The disputes `user` may see, newest first."""
    disputes = Dispute.objects.all()
    if not (is_auditor(user) or is_club_admin(user)):
        disputes = disputes.filter(Q(opened_by=user.pk) | Q(party_keys__contains=f",{user.pk},"))
    if status is not None:
        disputes = disputes.filter(status=status)
    return disputes.order_by("-opened_at", "dispute_id")


def overdue_disputes(now: datetime, limit: int = 500) -> list[str]:
    """Open disputes past their deadline, oldest first (the timer's read)."""
    return [
        str(pk)
        for pk in Dispute.objects.filter(status="open", deadline__lte=now)
        .order_by("deadline")
        .values_list("dispute_id", flat=True)[:limit]
    ]


def may_see_hold(state: DisputeState, user: User) -> bool:
    if is_auditor(user) or is_club_admin(user):
        return True
    return state.hold is not None and state.hold.account == player_account(user.pk)


def dispute_json(state: DisputeState, user: User) -> dict[str, Any]:
    """The dispute as `user` may see it: its subject, evidence, steps and (if he may) the hold."""
    opened = state.opened
    see_hold = may_see_hold(state, user)
    body: dict[str, Any] = {
        "id": state.dispute_id,
        "status": state.status,
        "subject": opened["subject"],
        "label": opened["label"],
        "reason": opened["reason"],
        "opened_by": str(opened["opened_by"]),
        "role": opened["role"],
        "parties": [str(party) for party in opened["parties"]],
        "positions": opened["positions"],
        "evidence": opened["evidence"],
        "deadline": opened["deadline"],
        "ended_at": opened["ended_at"],
        "version": state.version,
        "hold": _hold_json(state) if see_hold else ({"status": state.hold.status} if state.hold else None),
        "steps": [_step(event, see_hold) for event in state.events],
    }
    return body


def _hold_json(state: DisputeState) -> dict[str, Any] | None:
    hold = state.hold
    if hold is None:
        return None
    return {
        "account": hold.account,
        "unit": hold.unit,
        "amount": hold.amount,
        "status": hold.status,
        "posted": hold.posted,
        "expires_at": hold.expires_at,
        "hold_account": ev.hold_account(state.dispute_id),
    }


STEP_KEYS = {
    ev.DISPUTE_OPENED: (),
    ev.HOLD_PLACED: ("expires_at",),
    ev.NOTE_ADDED: ("text", "evidence", "role"),
    ev.DECIDED: ("outcome", "ruling", "corrects", "transfers"),
    ev.WITHDRAWN: (),
    ev.EXPIRED: (),
}


def _step(event: Any, see_hold: bool) -> dict[str, Any]:
    """One event of the dispute, for its history; hold amounts only for those who may see them."""
    data = event.data
    step = {
        "type": event.type,
        "version": event.version,
        "position": event.position,
        "recorded_at": iso_utc(event.recorded_at),
        "by": str(data["by"]) if "by" in data else None,
    }
    step.update({key: data[key] for key in STEP_KEYS.get(event.type, ()) if key in data})
    if see_hold:
        if event.type == ev.HOLD_PLACED:
            step["pending"] = data["pending"]
        if data.get("hold"):
            step["hold"] = data["hold"]
    elif event.type == ev.DECIDED:
        step["transfers"] = [
            t
            for t in data["transfers"]
            if not t["to"].startswith("hold:") and not t["from"].startswith("hold:")
        ] + [{**t, "from": "(held)"} for t in data["transfers"] if t["from"].startswith("hold:")]
    return step
