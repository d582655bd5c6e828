"""Rank-only rankings: Three-Five-Seven stage one (357-10), the four-card comparison of
Four-Two-Two/Three (D-42X-04), and Consecutive/Alternating Guts (CONS, ALT, D-CONS-01).

None of them counts straights or flushes, so suits never matter and a hand is its ranks plus
its number of wild cards (D-GEN-03).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from tables.engine.cards import Card
from tables.engine.hand_value import CATEGORIES, Category, HandValue, RankedValue
from tables.engine.rankings.patterns import ACE, of_a_kind, split_wilds, value_of

Adjacent = Callable[[int, int], bool]


def rank_only_value(ranking: str, ranks: Sequence[int], wilds: int) -> RankedValue:
    """All the cards count: the best of-a-kind pattern they make, categories in poker order."""
    category, ordered = of_a_kind(ranks, wilds)
    return value_of(ranking, CATEGORIES.index(category), category, ordered, size=len(ordered))


def evaluate_stage1_357(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (3,), wild_cards: Sequence[Card] = ()
) -> HandValue:
    """357-10: triplets > pair > unpaired cards, no straights or flushes (threes wild by default)."""
    naturals, wilds = split_wilds(cards, wild_ranks, wild_cards)
    return rank_only_value("stage1_357", [card.rank for card in naturals], wilds)


def evaluate_four_card(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (2,), wild_cards: Sequence[Card] = ()
) -> HandValue:
    """D-42X-04: four of a kind > three of a kind > two pair > pair > high card (twos wild)."""
    naturals, wilds = split_wilds(cards, wild_ranks, wild_cards)
    return rank_only_value("four_card", [card.rank for card in naturals], wilds)


# --- Consecutive and Alternating Guts -------------------------------------------------------------


def consecutive(first: int, second: int) -> bool:
    """CONS-03, D-CONS-01: ranks one apart; the ace is next to both the king and the two."""
    return abs(first - second) == 1 or {first, second} == {ACE, 2}


def alternating(first: int, second: int) -> bool:
    """ALT-02, D-CONS-01: exactly one rank between. The ace sits next to both K and 2, so around
    it the gapped pairs are Q-A (K between), A-3 (2 between) and K-2 (the ace bridges them)."""
    return abs(first - second) == 2 or {first, second} in ({ACE, 3}, {13, 2})


def best_three(ranks: Sequence[int], wilds: int) -> tuple[Category, tuple[int, ...]]:
    """CONS-02, CONS-04: the best three cards of the naturals plus wilds: trips > pair > high."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    trips = [rank for rank, count in counts.items() if count + wilds >= 3]
    if trips or wilds >= 3:
        top = ACE if wilds >= 3 else max(trips)
        return "three_of_a_kind", (top, top, top)
    pairs = [rank for rank, count in counts.items() if count + wilds >= 2]
    if pairs:
        pair = max(pairs)
        return "pair", (pair, pair, max(rank for rank in ranks if rank != pair))
    return "high_card", tuple(sorted(ranks, reverse=True)[:3])


def _pairings(
    ranks: Sequence[int], adjacent: Adjacent, start: int = 0, used: frozenset[int] = frozenset()
) -> Iterator[frozenset[int]]:
    """Every set of disjoint qualifying pairs (as the positions they use), the empty set included."""
    yield used
    for i in range(start, len(ranks)):
        if i in used:
            continue
        for j in range(i + 1, len(ranks)):
            if j not in used and adjacent(ranks[i], ranks[j]):
                yield from _pairings(ranks, adjacent, i + 1, used | {i, j})


def paired_wilds_value(
    ranking: str,
    cards: Sequence[Card],
    adjacent: Adjacent,
    wild_ranks: Sequence[int],
    wild_cards: Sequence[Card],
) -> RankedValue:
    """D-CONS-01: each disjoint qualifying pair of natural cards may become one wild card; the
    value is the best three cards over every choice of pairs (five cards: a few dozen choices)."""
    naturals, wilds = split_wilds(cards, wild_ranks, wild_cards)
    ranks = [card.rank for card in naturals]
    best: RankedValue | None = None
    for used in _pairings(ranks, adjacent):
        made_wilds = len(used) // 2
        if len(cards) - made_wilds < 3:
            continue
        rest = [rank for i, rank in enumerate(ranks) if i not in used]
        category, ordered = best_three(rest, wilds + made_wilds)
        value = value_of(ranking, CATEGORIES.index(category), category, ordered, size=3)
        if best is None or value.key > best.key:
            best = value
    assert best is not None  # the empty pairing always qualifies
    return best


def evaluate_consecutive(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (), wild_cards: Sequence[Card] = ()
) -> HandValue:
    return paired_wilds_value("consecutive", cards, consecutive, wild_ranks, wild_cards)


def evaluate_alternating(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (), wild_cards: Sequence[Card] = ()
) -> HandValue:
    return paired_wilds_value("alternating", cards, alternating, wild_ranks, wild_cards)
