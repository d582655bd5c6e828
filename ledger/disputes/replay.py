"""Holds replayed from the log, for `verify_ledger` (which trusts no projection)."""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from ledger.disputes import events as ev
from ledger.store import StoredEvent

GRACE = timedelta(seconds=60)  # the timer's slack past a deadline before a pending hold is wrong


@dataclass(frozen=True, slots=True)
class _Pending:
    account: str
    unit: str
    amount: int
    expires_at: str


class HoldReplay:
    """Pending holds along the walk, checked against the walk's replayed balances."""

    def __init__(self, balances: MutableMapping[tuple[str, str], int], problems: list[str]) -> None:
        self.balances = balances
        self.problems = problems
        self.pending: dict[str, _Pending] = {}

    def held(self, account: str, unit: str) -> int:
        return sum(
            hold.amount for hold in self.pending.values() if (hold.account, hold.unit) == (account, unit)
        )

    def visit(self, event: StoredEvent) -> None:
        """After the walk applied the event's transfers: its hold changes, then the held accounts."""
        if event.stream.startswith(ev.STREAM_PREFIX):
            if event.type == ev.HOLD_PLACED:
                self._placed(event)
            elif event.type in ev.CLOSING:
                self._closed(event)
        for transfer in event.data.get("transfers") or ():
            key = (transfer["from"], transfer.get("unit", "chips"))
            held = self.held(*key)
            if held and self.balances[key] < held:
                self._problem(
                    event,
                    f"{key[0]} is left with {self.balances[key]} {key[1]}, below the {held} its holds keep",
                )

    def _placed(self, event: StoredEvent) -> None:
        [pending] = event.data["pending"]
        hold = _Pending(
            pending["from"], pending.get("unit", "chips"), pending["amount"], event.data["expires_at"]
        )
        available = self.balances[(hold.account, hold.unit)] - self.held(hold.account, hold.unit)
        if hold.amount > available:
            self._problem(event, f"holds {hold.amount} of {hold.account}, which had {available} available")
        if pending["to"] != ev.hold_account(event.data["dispute_id"]):
            self._problem(
                event, f"a hold's pending transfer goes to {pending['to']}, not its dispute's hold account"
            )
        self.pending[event.data["dispute_id"]] = hold

    def _closed(self, event: StoredEvent) -> None:
        dispute_id = event.data["dispute_id"]
        hold = self.pending.pop(dispute_id, None)
        outcome = event.data.get("hold")
        if hold is None:
            if outcome:
                self._problem(event, "settles a hold that was never pending")
            return
        if (
            not outcome
            or outcome["posted"] + outcome["voided"] != hold.amount
            or outcome["posted"] < 0
            or outcome["voided"] < 0
        ):
            self._problem(event, f"closes the dispute without posting or voiding its hold of {hold.amount}")
        escrow = (ev.hold_account(dispute_id), hold.unit)
        if self.balances.get(escrow, 0) != 0:
            self._problem(
                event, f"{escrow[0]} keeps {self.balances[escrow]} {hold.unit} after the hold settled"
            )

    def _problem(self, event: StoredEvent, what: str) -> None:
        self.problems.append(f"{event.stream} version {event.version} (#{event.position}): {what}")

    def finish(self) -> int:
        """Pending holds must still be within their deadline; how many are pending."""
        now = timezone.now()
        for dispute_id, hold in sorted(self.pending.items()):
            expires = parse_datetime(hold.expires_at)
            if expires is None or expires + GRACE < now:
                self.problems.append(
                    f"the hold of dispute {dispute_id} is still pending after its deadline {hold.expires_at}"
                )
        return len(self.pending)
