"""Who wins, who loses, who holds the worst hand: one rule for every ranking.

Only `beats` is used, so rankings whose order is not total (Italian straight flushes, IT-28,
IT-30, Q-IT-06) are handled: a hand wins if no other hand beats it; if every hand is beaten by
some other (a cycle), the winners are the top cycle, who split. The worst hands are found the
same way with the relation reversed (Survivor, SV-03). Against a ghost or open hand a player
must strictly beat it (GH-04, D-GH-02).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tables.engine.hand_value import HandValue


@dataclass(frozen=True)
class Showdown:
    """Indices into the compared values. `ghost_wins`: no player beat the ghost/open hand."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    worst: tuple[int, ...]
    ghost_wins: bool = False


Beats = Callable[[int, int], bool]


def showdown(values: Sequence[HandValue], *, ghost: HandValue | None = None) -> Showdown:
    """Compare the hands of the players at a showdown (optionally against a ghost hand)."""
    everyone = tuple(range(len(values)))

    def beats(i: int, j: int) -> bool:
        return values[i].beats(values[j])

    def beaten_by(i: int, j: int) -> bool:
        return values[j].beats(values[i])

    worst = _top(everyone, beaten_by)
    contenders = everyone
    if ghost is not None:
        contenders = tuple(i for i in everyone if values[i].beats(ghost))
        if not contenders:
            return Showdown(winners=(), losers=everyone, worst=worst, ghost_wins=True)
    winners = _top(contenders, beats)
    losers = tuple(i for i in everyone if i not in winners)
    return Showdown(winners=winners, losers=losers, worst=worst)


def _top(indices: tuple[int, ...], better: Beats) -> tuple[int, ...]:
    """The hands no other hand is better than (ties share); failing that, the top cycle: the
    hands from which every hand can be reached by steps of 'better than or equal to'."""
    unbeaten = tuple(i for i in indices if not any(better(j, i) for j in indices if j != i))
    if unbeaten or not indices:
        return unbeaten
    return tuple(i for i in indices if len(_reachable(i, indices, better)) == len(indices))


def _reachable(start: int, indices: tuple[int, ...], better: Beats) -> set[int]:
    seen = {start}
    frontier = [start]
    while frontier:
        i = frontier.pop()
        for j in indices:
            if j not in seen and not better(j, i):
                seen.add(j)
                frontier.append(j)
    return seen
