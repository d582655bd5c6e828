"""Ace-to-five low (Four-Three's Low half, 43-03, D-43-01).

The best (lowest) five of up to seven cards: the ace is low, straights and flushes do not count,
unpaired beats paired, then the highest card decides, then the next. A-2-3-4-5 is the best.
A wild becomes the lowest rank the five cards lack (D-GEN-03: never worse than copying one).
The key is inverted so that, as everywhere, a larger key is a better hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tables.engine.cards import Card
from tables.engine.hand_value import Category, HandValue, RankedValue, describe_ranks, pack_ranks
from tables.engine.rankings.patterns import ACE, of_a_kind, split_wilds

WILD = 0
# Lower is better for a low hand.
LOW_ORDER: dict[Category, int] = {
    "high_card": 0,
    "pair": 1,
    "two_pair": 2,
    "three_of_a_kind": 3,
    "full_house": 4,
    "four_of_a_kind": 5,
    "five_of_a_kind": 6,
}
_WORST = 1 << 24


def low_of_five(five: Sequence[int]) -> tuple[int, Category, tuple[int, ...]]:
    """(badness, category, ranks in significance order) of five low ranks (ace = 1, 0 = wild)."""
    naturals = [rank for rank in five if rank != WILD]
    missing = (rank for rank in range(1, 14) if rank not in naturals)
    filled = naturals + [next(missing) for _ in range(len(five) - len(naturals))]
    category, ordered = of_a_kind(filled, 0)
    return (LOW_ORDER[category] << 20) | pack_ranks(ordered), category, ordered


def low_value(naturals: Sequence[Card], wilds: int) -> RankedValue:
    ranks = [1 if card.rank == ACE else card.rank for card in naturals] + [WILD] * wilds
    candidates = {tuple(sorted(five)) for five in combinations(ranks, 5)}
    badness, category, ordered = min(low_of_five(five) for five in candidates)
    return RankedValue(
        "low_a5", _WORST - badness, category, ordered, size=5, text=describe_low(category, ordered)
    )


def describe_low(category: Category, ordered: tuple[int, ...]) -> str:
    """'Seven low (7-5-4-3-A)'; paired lows say what they are: 'Pair of twos, … (low)'."""
    if category == "high_card":
        cards = "-".join("A" if rank == 1 else str(rank) for rank in ordered)
        return f"{describe_ranks(category, ordered, size=5).split(' high')[0]} low ({cards})"
    return f"{describe_ranks(category, ordered, size=5)} (low)"


def evaluate_low_a5(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (), wild_cards: Sequence[Card] = ()
) -> HandValue:
    naturals, wilds = split_wilds(cards, wild_ranks, wild_cards)
    return low_value(naturals, wilds)
