"""Building blocks shared by the small rankings: wild splitting, rank patterns, straights, keys.

Wild cards are handled analytically (D-GEN-03): a wild may be any rank and suit, even a card
already held, so for rank patterns every wild joins the biggest group (the highest rank among
equally big groups), and for flushes a wild is an ace of the flush suit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tables.engine.cards import Card
from tables.engine.hand_value import Category, RankedValue, pack_ranks

ACE = 14


def split_wilds(
    cards: Sequence[Card], wild_ranks: Iterable[int], wild_cards: Iterable[Card]
) -> tuple[list[Card], int]:
    """(natural cards, number of wild cards)."""
    ranks = frozenset(wild_ranks)
    specific = frozenset(wild_cards)
    naturals = [card for card in cards if card.rank not in ranks and card not in specific]
    return naturals, len(cards) - len(naturals)


def of_a_kind(ranks: Iterable[int], wilds: int) -> tuple[Category, tuple[int, ...]]:
    """Best rank-only pattern of all the cards: category and ranks in significance order.

    Groups sort by size then rank; wilds join the first group (aces if there are no naturals).
    Joining the biggest group always gives the best category; no split of the wilds does better.
    """
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(((count, rank) for rank, count in counts.items()), reverse=True)
    if not groups:
        groups = [(wilds, ACE)]
    elif wilds:
        groups[0] = (groups[0][0] + wilds, groups[0][1])
    first = groups[0][0]
    second = groups[1][0] if len(groups) > 1 else 0
    ordered = tuple(rank for count, rank in groups for _ in range(count))
    return _pattern_category(first, second), ordered


def _pattern_category(first: int, second: int) -> Category:
    if first >= 5:
        return "five_of_a_kind"
    if first == 4:
        return "four_of_a_kind"
    if first == 3:
        return "full_house" if second >= 2 else "three_of_a_kind"
    if first == 2:
        return "two_pair" if second == 2 else "pair"
    return "high_card"


def straight_high(ranks: Sequence[int], size: int, *, ace_low: bool) -> tuple[int, ...] | None:
    """Ranks (high first) of the best `size`-card straight the natural ranks fit in, wilds filling
    the gaps; None if they fit in none. No wrap-around; the ace plays low (as 1) only if ace_low."""
    if len(set(ranks)) != len(ranks):
        return None
    if not ranks:
        return tuple(range(ACE, ACE - size, -1))
    low, high = min(ranks), max(ranks)
    if high - low < size:
        top = min(ACE, low + size - 1)
    elif ace_low and high == ACE and max((1 if rank == ACE else rank) for rank in ranks) <= size:
        top = size
    else:
        return None
    return tuple(range(top, top - size, -1))


def value_of(
    ranking: str, position: int, category: Category, ranks: tuple[int, ...], *, size: int
) -> RankedValue:
    """The value: category position (larger = better) above the ranks in significance order."""
    return RankedValue(ranking, (position << 20) | pack_ranks(ranks), category, ranks, size=size)
