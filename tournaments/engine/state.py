"""The tournament decider's state: an immutable value folded from the tournament's events.

Who sits where is the tournament's own record (`seats`: player -> table), kept in step with the
tables because only the tournament seats, moves and removes entrants, in the same transaction as
the event that says so. Stacks are not here: they are the tables' (read through `Reconcile`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from tournaments.engine.config import Config, parse_time
from tournaments.engine.places import Placing


def _empty() -> MappingProxyType[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class TournamentState:
    status: str = "new"  # new | registering | running | cancelling | complete | cancelled
    tournament_id: str = ""
    config: Config | None = None
    commitment: str = ""
    seed: str | None = None
    entrants: tuple[str, ...] = ()  # everyone registered (and not unregistered), in order
    pending: tuple[str, ...] = ()  # late registrants not yet seated
    tables: tuple[str, ...] = ()  # every table, in the order opened
    broken: frozenset[str] = frozenset()
    closed: frozenset[str] = frozenset()
    seats: MappingProxyType[str, str] = field(default_factory=_empty)  # player -> table (seated)
    processed: MappingProxyType[str, int] = field(default_factory=_empty)  # table -> last deal processed
    scheduled: MappingProxyType[str, tuple[int, str]] = field(default_factory=_empty)  # (after_deal_no, at)
    antes: MappingProxyType[str, int] = field(default_factory=_empty)  # table -> the ante it was told
    level: int = 0
    started_at: str | None = None
    seating_input: tuple[str, ...] = ()  # the entrants at the start, registration order
    seating_order: tuple[str, ...] = ()  # the provable shuffle's output
    placings: tuple[Placing, ...] = ()  # eliminations so far, in order
    groups: tuple[tuple[str, ...], ...] = ()  # tied groups (D-GEN-01 order)
    winner: str | None = None
    results: tuple[dict[str, Any], ...] = ()
    cancel_requested_at: str | None = None  # a running tournament being cancelled
    cancel_reason: str = ""
    settlement: str | None = None  # how a cancellation paid: refund | chip_chop
    payments: tuple[tuple[str, int], ...] = ()  # (player, cash chips) from the prize pool

    @property
    def rules(self) -> Config:
        assert self.config is not None, "no config before TournamentCreated"
        return self.config

    @property
    def start(self) -> datetime:
        assert self.started_at is not None
        return parse_time(self.started_at)

    def members(self, table_id: str) -> list[str]:
        """The entrants seated at `table_id`, in the order they were seated there."""
        return [player for player, table in self.seats.items() if table == table_id]

    def active_tables(self) -> list[str]:
        return [t for t in self.tables if t not in self.broken and t not in self.closed]

    def remaining(self) -> int:
        """Entrants still in: seated or waiting for a seat."""
        return len(self.seats) + len(self.pending)

    def pool(self) -> int:
        return self.rules.buy_in * len(self.entrants)

    def with_(self, **changes: Any) -> TournamentState:
        return replace(self, **changes)


def initial_state() -> TournamentState:
    return TournamentState()


def put(mapping: MappingProxyType[str, Any], key: str, value: Any) -> MappingProxyType[str, Any]:
    return MappingProxyType({**mapping, key: value})


def drop(mapping: MappingProxyType[str, Any], *keys: str) -> MappingProxyType[str, Any]:
    return MappingProxyType({k: v for k, v in mapping.items() if k not in keys})
