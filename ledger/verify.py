"""Prove the log untampered and the money exact, without trusting any projection (DESIGN §2.3).

`verify_ledger()` walks the whole log in position order and, for every event, checks that it
continues its stream (version = previous + 1, prev_hash = previous hash, first prev_hash = 64
zeros), that its hash is the documented sha256 (ledger/hashing.py) of what is stored (of its chain
form, where secret facts are sealed: their salted commitments, recomputed here), and that its
transfers are valid and leave no account that may not go negative below zero. It replays all
transfers into its own balances, then checks per unit that they sum to zero and that the
AccountBalance projection agrees.

Holds (docs/disputes.md): the walk replays every dispute's pending transfer too. A hold may not
exceed what its account has available when placed; no later event may take the account's posted
balance below its held chips; every hold ends posted or voided by a closing event of its dispute,
or is still pending and within its deadline (plus GRACE for the timer); a posted hold's escrow
`hold:<dispute>` is empty again. Conservation is per unit with holds counted: pending transfers
move nothing, so posted balances still sum to zero.

Checkpoints (docs/audit.md): at each checkpoint's size the walk's own RFC 9162 root (a frontier of
perfect subtrees, two hashes per event) and its replayed balances must equal what the checkpoint
signed, and the signature must verify with the club's key.

Limits: an event removed from the END of a stream leaves an intact, shorter chain; anchoring
stream heads elsewhere (e.g. publishing the latest hashes) is what would reveal that.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from ledger import merkle
from ledger.accounts import InvalidTransfer, Transfer, transfers_of
from ledger.checkpoints import check_checkpoint, checkpoint_list
from ledger.disputes.replay import HoldReplay
from ledger.hashing import (
    GENESIS_HASH,
    InvalidEventData,
    canonical_json,
    chain_form,
    check_json_value,
    check_sealed,
    event_hash,
)
from ledger.models import AccountBalance
from ledger.money import may_go_negative
from ledger.store import StoredEvent, read_all_raw

BATCH = 5000


@dataclass(frozen=True, slots=True)
class BrokenEvent:
    position: int
    stream: str
    version: int
    problem: str


@dataclass(slots=True)
class VerifyReport:
    """What verify_ledger found. `ok` only if nothing at all is wrong."""

    events: int = 0
    streams: int = 0
    transfers: int = 0
    broken_events: int = 0
    first_broken: BrokenEvent | None = None
    conservation_problems: list[str] = field(default_factory=list)
    projection_problems: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    holds_pending: int = 0
    hold_problems: list[str] = field(default_factory=list)
    checkpoints: int = 0
    checkpoint_problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (
            self.broken_events
            or self.conservation_problems
            or self.projection_problems
            or self.hold_problems
            or self.checkpoint_problems
        )

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


class _Walk:
    """State carried along the log: stream heads and replayed balances."""

    def __init__(self, checkpoints: dict[int, dict[str, Any]]) -> None:
        self.report = VerifyReport()
        self.heads: dict[str, tuple[int, str]] = {}
        self.balances: defaultdict[tuple[str, str], int] = defaultdict(int)
        self.holds = HoldReplay(self.balances, self.report.hold_problems)
        self.checkpoints = checkpoints  # size -> checkpoint
        self.frontier: list[tuple[int, bytes]] = []

    def visit(self, event: StoredEvent) -> None:
        self.report.events += 1
        problem = self._chain_problem(event) or self._money_problem(event)
        self.heads[event.stream] = (event.version, event.hash)
        self.holds.visit(event)
        self._grow(event)
        if problem:
            self.report.broken_events += 1
            if self.report.first_broken is None:
                self.report.first_broken = BrokenEvent(event.position, event.stream, event.version, problem)

    def _chain_problem(self, event: StoredEvent) -> str | None:
        last_version, last_hash = self.heads.get(event.stream, (0, GENESIS_HASH))
        if event.version != last_version + 1:
            return f"version {event.version} follows version {last_version}: an event is missing or moved"
        if event.prev_hash != last_hash:
            return "prev_hash does not match the previous event's hash"
        try:
            check_json_value(event.data, "data")
            check_json_value(event.meta, "meta")
            check_sealed(event.data)
        except InvalidEventData as exc:
            return f"stored event is not plain JSON: {exc}"
        expected = event_hash(
            prev_hash=event.prev_hash,
            stream=event.stream,
            version=event.version,
            type=event.type,
            data_json=canonical_json(chain_form(event.data)),
            meta_json=canonical_json(event.meta),
            recorded_at=event.recorded_at,
        )
        if expected != event.hash:
            return "hash does not match the stored event: its data, meta, type or time were changed"
        return None

    def _money_problem(self, event: StoredEvent) -> str | None:
        try:
            transfers = transfers_of(event.data)
        except (InvalidTransfer, KeyError, TypeError, AttributeError) as exc:
            return f"invalid transfer: {exc}"
        problem = None
        for transfer in transfers:
            problem = problem or self._move(transfer)
        return problem

    def _move(self, transfer: Transfer) -> str | None:
        self.report.transfers += 1
        source = (transfer.source, transfer.unit)
        self.balances[source] -= transfer.amount
        self.balances[(transfer.target, transfer.unit)] += transfer.amount
        if self.balances[source] < 0 and not may_go_negative(transfer.source):
            return f"{transfer.source} goes below zero ({self.balances[source]} {transfer.unit})"
        return None

    def _grow(self, event: StoredEvent) -> None:
        """Add the event to the log tree's frontier; at a checkpoint's size, compare."""
        node = (0, merkle.leaf_hash(bytes.fromhex(event.hash)))
        while self.frontier and self.frontier[-1][0] == node[0]:
            height, left = self.frontier.pop()
            node = (height + 1, merkle.node_hash(left, node[1]))
        self.frontier.append(node)
        checkpoint = self.checkpoints.get(self.report.events)
        if checkpoint is not None:
            self.report.checkpoints += 1
            self.report.checkpoint_problems += check_checkpoint(checkpoint, self._root(), self.balances)

    def _root(self) -> bytes:
        root = self.frontier[-1][1]
        for _, left in reversed(self.frontier[:-1]):
            root = merkle.node_hash(left, root)
        return root

    def finish(self) -> VerifyReport:
        report = self.report
        report.streams = len(self.heads)
        report.holds_pending = self.holds.finish()
        totals: defaultdict[str, int] = defaultdict(int)
        for (_, unit), amount in self.balances.items():
            totals[unit] += amount
        report.units = sorted(totals)
        report.conservation_problems = [
            f"unit {unit}: balances sum to {total}, not 0" for unit, total in sorted(totals.items()) if total
        ]
        report.projection_problems = _compare_with_projection(self.balances)
        return report


def _compare_with_projection(replayed: dict[tuple[str, str], int]) -> list[str]:
    stored = {
        (account, unit): amount
        for account, unit, amount in AccountBalance.objects.values_list("account", "unit", "balance")
    }
    problems = []
    for key in sorted(set(replayed) | set(stored)):
        if replayed.get(key, 0) != stored.get(key, 0):
            account, unit = key
            problems.append(
                f"AccountBalance {account} ({unit}) is {stored.get(key, 0)}, "
                f"replay gives {replayed.get(key, 0)}"
            )
    return problems


def verify_ledger(*, batch_size: int = BATCH) -> VerifyReport:
    """Walk every stream's hash chain and replay every transfer; see the module docstring."""
    walk = _Walk({checkpoint["size"]: checkpoint for checkpoint in checkpoint_list()})
    position = 0
    while batch := read_all_raw(after=position, limit=batch_size):
        for event in batch:
            walk.visit(event)
        position = batch[-1].position
    return walk.finish()
