"""Tournament events (stream `tournament-<uuid>`): facts in the past tense, one frozen dataclass per
type, `to_json` writing exactly what the store keeps and `parse` reading it back.

Money: registration, refunds and payouts carry `transfers` in cash chips (unit "chips"): buy-ins
to `prizepool:<t>`, fees to `house`, payouts from the prize pool to `player:<pk>` bankrolls. The
tournament's own chips (unit `t:<t>`) move only in the tables' events (SeatEntrant, moves, ...).

Secret: `TournamentCreated.seating_seed` is sealed by the store (tables.engine.decider.visibility)
and nobody reads it; `TournamentStarted` reveals it with the order it produced, so anyone can
check the commitment published at creation and recompute the seating (docs/verify_deal.py).

Events that ask the tables for something (`AnteSet`, `EntrantsEliminated`, `LateEntrantSeated`,
`TournamentTableBroken`, `EntrantMoved`, `TournamentCompleted`) are recorded in the same transaction
as the table commands that carry them out (tournaments.service). Their names differ from the
tables' own events (EntrantSeated, TableBroken, ...), which live in the table streams. The base
class is the tables' own (`tables.engine.decider.events.Event`): one way to write and read an
event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ledger.accounts import Transfer
from tables.engine.decider.events import NOBODY, REGISTRY
from tables.engine.decider.events import Event as Event  # the one base, re-exported

Transfers = list[Transfer]  # JSON: a list of `Transfer.to_json()` dicts


@dataclass(frozen=True, slots=True)
class TournamentCreated(Event):
    SECRET: ClassVar[tuple[str, ...]] = ("seating_seed",)
    AUDIENCE: ClassVar[str] = NOBODY  # TournamentStarted reveals it
    tournament_id: str
    config: dict[str, Any]
    seating_commitment: str  # sha256(seed), public from the start
    seating_seed: str | None = None  # SECRET until TournamentStarted reveals it


@dataclass(frozen=True, slots=True)
class EntrantRegistered(Event):
    player: str
    late: bool  # registered after the start: seated at the next reconcile
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class EntrantUnregistered(Event):
    player: str
    transfers: Transfers  # the buy-in and the fee back


@dataclass(frozen=True, slots=True)
class TournamentCancelRequested(Event):
    """A running tournament is being cancelled: no deal starts any more; each table finishes its
    deal, then the tables break and `TournamentCancelled` settles the prize pool."""

    reason: str  # "admin"
    at: str


@dataclass(frozen=True, slots=True)
class TournamentCancelled(Event):
    reason: str  # "admin" | "not_enough_entrants"
    transfers: Transfers  # the buy-ins (or the prize pool, chopped) and the fees back
    settlement: str = "refund"  # "refund" | "chip_chop" (a running tournament, after a bust-out)
    results: list[dict[str, Any]] = field(default_factory=list)  # chip_chop: every entrant's place,
    # chips (if still in) and prize


@dataclass(frozen=True, slots=True)
class TournamentStarted(Event):
    started_at: str
    seed: str  # the seating seed, revealed
    entrants: list[str]  # in registration order: the shuffle's input
    order: list[str]  # the shuffle's output; entrant i sits at table i mod n
    tables: list[dict[str, Any]]  # [{"table_id", "players": [...] in seat order}]
    level: int
    ante: int


@dataclass(frozen=True, slots=True)
class LevelStarted(Event):
    level: int
    ante: int
    at: str  # when the schedule started it (not when it was recorded)


@dataclass(frozen=True, slots=True)
class AnteSet(Event):
    table_id: str
    ante: int


@dataclass(frozen=True, slots=True)
class TableAdded(Event):
    table_id: str  # opened for late registrants when every seat was taken


@dataclass(frozen=True, slots=True)
class LateEntrantSeated(Event):
    player: str
    table_id: str
    chips: int


@dataclass(frozen=True, slots=True)
class DealProcessed(Event):
    table_id: str
    deal_no: int  # the per-table checkpoint of the durable process


@dataclass(frozen=True, slots=True)
class EntrantsEliminated(Event):
    table_id: str
    deal_no: int
    placings: list[dict[str, Any]]  # Placing.to_json(), D-GEN-01 order within a tie


@dataclass(frozen=True, slots=True)
class TournamentTableBroken(Event):
    table_id: str


@dataclass(frozen=True, slots=True)
class EntrantMoved(Event):
    player: str
    from_table: str
    to_table: str
    reason: str  # "break" | "balance"


@dataclass(frozen=True, slots=True)
class DealScheduled(Event):
    table_id: str
    after_deal_no: int
    at: str


@dataclass(frozen=True, slots=True)
class DealHeld(Event):
    table_id: str  # no next deal until the tables are balanced


@dataclass(frozen=True, slots=True)
class TournamentCompleted(Event):
    winner: str | None  # None: a tie for first place
    results: list[dict[str, Any]]  # every entrant: {"player", "place", "last", "prize"}
    transfers: Transfers  # the prize pool to the bankrolls, every chip of it


# Every tournament event class, as registered by the one Event base.
EVENT_TYPES: dict[str, type[Event]] = {
    name: cls for name, cls in REGISTRY.items() if cls.__module__ == __name__
}
TOURNAMENT_CREATED = TournamentCreated.TYPE


def parse(event_type: str, data: Mapping[str, Any]) -> Event:
    """The typed event of stored data (the store's `secret`/`salt` keys are ignored)."""
    return EVENT_TYPES[event_type].from_json(data)
