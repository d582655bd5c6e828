"""Places and prizes: who finished where, and what each place pays.

Eliminations: players out in the same deal share the places they cover, ranked by their stacks at
the start of that deal (more chips, better place); equal stacks tie and share the same places.

Prizes: place p pays floor(pool x payouts[p-1] / 100); the chips left over (fewer than the number
of paid places) go one each to the best places, 1st first, so every cash chip of the prize pool is
paid out. Tied players share the sum of the places they cover equally; the odd chips go one each
to the tied players nearest the dealer's left of the deal they were eliminated in (D-GEN-01).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Placing:
    """`player` finished in places `place`..`last` (one place unless tied), with `start_stack`
    chips at the start of the deal that ended his tournament."""

    player: str
    place: int
    last: int
    start_stack: int

    def to_json(self) -> dict[str, int | str]:
        return {
            "player": self.player,
            "place": self.place,
            "last": self.last,
            "start_stack": self.start_stack,
        }


def placings(remaining: int, busted: Sequence[tuple[str, int]]) -> list[Placing]:
    """Places of the players `busted` in one deal, `(player, start_stack)`, when `remaining`
    players (them included) were still in: they cover places remaining-k+1 .. remaining."""
    k = len(busted)
    worst = remaining
    result = []
    for player, stack in busted:
        better = sum(1 for _, other in busted if other > stack)
        equal = sum(1 for _, other in busted if other == stack)
        place = worst - k + 1 + better
        result.append(Placing(player, place, place + equal - 1, stack))
    return sorted(result, key=lambda p: (p.place, busted.index((p.player, p.start_stack))))


def place_amounts(pool: int, payouts: Sequence[int]) -> list[int]:
    """What each paid place pays; sums to `pool` exactly."""
    amounts = [pool * percent // 100 for percent in payouts]
    for index in range(pool - sum(amounts)):  # fewer than len(payouts) chips
        amounts[index] += 1
    return amounts


def prizes(pool: int, payouts: Sequence[int], groups: Sequence[Sequence[Placing]]) -> dict[str, int]:
    """Each player's prize. `groups` are the tied groups (one player each unless tied), each in
    D-GEN-01 order (nearest the dealer's left first). Sums to `pool` when every paid place is
    covered."""
    amounts = place_amounts(pool, payouts)
    result: dict[str, int] = {}
    for group in groups:
        first, last = group[0].place, group[0].last
        total = sum(amounts[p - 1] for p in range(first, last + 1) if p <= len(amounts))
        share, odd = divmod(total, len(group))
        for index, placing in enumerate(group):
            result[placing.player] = share + (1 if index < odd else 0)
    return result
