"""Balancing between deals: a pure plan from who sits where.

Rules, applied in this order, only to tables between deals ("idle"):
1. Breaking. With N players left and S seats a table, ceil(N / S) tables suffice; while there are
   more, the table with the fewest players (ties: the one opened last) breaks, once it is idle.
   Its players, and any still sitting at a broken table, move one by one to the idle table with a
   free seat and the fewest players (ties: the one opened first). Those without an idle seat
   wait at the broken table for the next reconcile.
2. Balancing. While some table has two players more than another, one player moves from a
   largest table to a smallest one, both idle. If no such pair is idle, the idle tables among the
   largest and smallest are held (no new deal) until the others finish their deals, so a table
   never deals while the tables are unbalanced.
A table waiting to break blocks balancing until it breaks (its players are about to move anyway).

Who moves: the first in the table's `movers` order (the service gives the player who dealt the
last deal first, then clockwise: the one who just had the deal's advantage goes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TableLoad:
    table_id: str
    movers: tuple[str, ...]  # the seated entrants, in the order they would be moved
    idle: bool  # between deals, its last deal processed
    broken: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    source: str
    target: str
    reason: str  # "break" | "balance"


@dataclass(slots=True)
class Plan:
    breaks: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    held: set[str] = field(default_factory=set)


def tables_needed(players: int, seats: int) -> int:
    return max(1, -(-players // seats))


def plan(tables: Sequence[TableLoad], seats: int) -> Plan:
    """The breaks, moves and holds that bring `tables` (in the order opened) into balance."""
    result = Plan()
    members = {t.table_id: list(t.movers) for t in tables}
    idle = {t.table_id: t.idle for t in tables}
    order = [t.table_id for t in tables]
    broken = [t.table_id for t in tables if t.broken]
    active = [t for t in order if t not in broken]
    total = sum(len(m) for m in members.values())
    waiting_break = False
    while len(active) > tables_needed(total, seats):
        candidate = min(active, key=lambda t: (len(members[t]), -order.index(t)))
        if not idle[candidate]:
            waiting_break = True
            break
        result.breaks.append(candidate)
        active.remove(candidate)
        broken.append(candidate)
    for source in broken:
        for player in list(members[source]):
            free = [t for t in active if idle[t] and len(members[t]) < seats]
            if not free:
                break
            target = min(free, key=lambda t: (len(members[t]), order.index(t)))
            _move(result, members, player, source, target, "break")
    if waiting_break or not active:
        return result
    for _ in range(total):
        counts = {t: len(members[t]) for t in active}
        largest, smallest = max(counts.values()), min(counts.values())
        if largest - smallest <= 1:
            break
        sources = [t for t in active if counts[t] == largest]
        targets = [t for t in active if counts[t] == smallest]
        pair = next(((s, d) for s in sources for d in targets if idle[s] and idle[d]), None)
        if pair is None:
            result.held |= {t for t in (*sources, *targets) if idle[t]}
            break
        _move(result, members, members[pair[0]][0], pair[0], pair[1], "balance")
    return result


def _move(
    result: Plan, members: dict[str, list[str]], player: str, source: str, target: str, reason: str
) -> None:
    members[source].remove(player)
    members[target].append(player)
    result.moves.append(Move(player, source, target, reason))
