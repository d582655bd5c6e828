"""Commands: what the tournament service asks of the decider. Plain frozen dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CreateTournament:
    tournament_id: str
    fields: dict[str, Any]  # the creation request, validated by config_from_input
    seed: str  # the seating seed, drawn by the service (deck.new_seed)


@dataclass(frozen=True)
class Register:
    player_id: str


@dataclass(frozen=True)
class Unregister:
    player_id: str


@dataclass(frozen=True)
class Start:
    table_ids: tuple[str, ...]  # opened by the service: tables_needed(entrants, seats)
    by_schedule: bool = False  # the start-time task: too few entrants cancels instead


@dataclass(frozen=True)
class Cancel:
    reason: str = "admin"


@dataclass(frozen=True)
class TableSeen:
    """One table as the service read it for a reconcile."""

    table_id: str
    idle: bool  # no deal in progress
    deal_no: int  # the last deal started
    stacks: dict[str, int]  # the seated players' chips now
    start_stacks: dict[str, int] = field(default_factory=dict)  # at the start of deal_no
    order: tuple[str, ...] = ()  # deal_no's players from the dealer's left (D-GEN-01)
    movers: tuple[str, ...] = ()  # seated players, the last dealer first, then clockwise
    closed: bool = False


@dataclass(frozen=True)
class Reconcile:
    """React to what the tables did: eliminations, levels, late seats, balancing, next deals,
    completion. Idempotent: the same tables seen twice decide nothing the second time."""

    tables: tuple[TableSeen, ...]


Command = CreateTournament | Register | Unregister | Start | Cancel | Reconcile
