"""A dispute's state, folded from its stream: the one source the service decides on."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime

from ledger.disputes import events as ev
from ledger.store import StoredEvent

OPEN = "open"
STATUS_OF_CLOSING = {ev.WITHDRAWN: "withdrawn", ev.EXPIRED: "expired"}


@dataclass(frozen=True, slots=True)
class Hold:
    account: str
    unit: str
    amount: int
    expires_at: str
    status: str = "pending"  # pending, posted (wholly or partly), voided
    posted: int = 0


@dataclass(frozen=True, slots=True)
class DisputeState:
    dispute_id: str
    version: int
    opened: dict[str, Any]
    status: str = OPEN
    hold: Hold | None = None
    events: tuple[StoredEvent, ...] = field(default=())

    @property
    def parties(self) -> list[int]:
        return list(self.opened["parties"])

    @property
    def opened_by(self) -> int:
        return int(self.opened["opened_by"])

    @property
    def deadline(self) -> datetime:
        moment = parse_datetime(self.opened["deadline"])
        assert moment is not None
        return moment

    def is_party(self, user_id: int) -> bool:
        """The opener and the players of the disputed deal or transaction."""
        return user_id == self.opened_by or user_id in self.parties


def fold(events: list[StoredEvent]) -> DisputeState | None:
    """The state after the stream's events (None: no such dispute)."""
    if not events or events[0].type != ev.DISPUTE_OPENED:
        return None
    state = DisputeState(events[0].data["dispute_id"], 0, events[0].data)
    for event in events:
        state = evolve(state, event)
    return state


def evolve(state: DisputeState, event: StoredEvent) -> DisputeState:
    state = replace(state, version=event.version, events=(*state.events, event))
    data = event.data
    if event.type == ev.HOLD_PLACED:
        [pending] = data["pending"]
        return replace(
            state,
            hold=Hold(pending["from"], pending.get("unit", "chips"), pending["amount"], data["expires_at"]),
        )
    if event.type in ev.CLOSING:
        status = data.get("outcome") if event.type == ev.DECIDED else STATUS_OF_CLOSING[event.type]
        hold = state.hold
        if hold is not None and data.get("hold"):
            posted = data["hold"]["posted"]
            hold = replace(hold, status="posted" if posted else "voided", posted=posted)
        return replace(state, status=status, hold=hold)
    return state
