"""Two- and three-card Guts rankings (G2-16..G2-21, Table 3C, MC-03, MC-04, D-3C-01, D-GEN-04).

Without wild cards a value is one dictionary lookup: every two- and three-card hand is evaluated
once per ranking (on first use) into a table keyed by the bit mask of its card indices. Hands
with wild cards are evaluated analytically (D-GEN-03).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from tables.engine.cards import ALL_CARDS, Card
from tables.engine.hand_value import Category, HandValue, RankedValue
from tables.engine.rankings.patterns import of_a_kind, split_wilds, straight_high, value_of

GUTS2_ORDER: tuple[Category, ...] = ("pair", "high_card")

# Table 3C, best first.
GUTS3_ORDERS: dict[str, tuple[Category, ...]] = {
    "guts3_sf_high": ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"),
    "guts3_trips_high": ("three_of_a_kind", "straight_flush", "straight", "flush", "pair", "high_card"),
    "guts3_classic": ("three_of_a_kind", "pair", "high_card"),
}

_TABLES: dict[tuple[str, bool], dict[int, RankedValue]] = {}


def guts2_value(naturals: Sequence[Card], wilds: int) -> RankedValue:
    """G2-17..G2-20: a pair beats unpaired cards; then the higher pair, or top card, then second."""
    category, ranks = of_a_kind((card.rank for card in naturals), wilds)
    position = len(GUTS2_ORDER) - GUTS2_ORDER.index(category)
    return value_of("guts2", position, category, ranks, size=2)


def guts3_value(naturals: Sequence[Card], wilds: int, *, ranking: str, ace_low: bool) -> RankedValue:
    """The best category of the preset the cards can make (wilds filling in), then MC-03 ranks.

    Categories are tried best first; within each, the best ranks the cards allow are taken, so
    the first category reached is the value. Cards may repeat (a wild may copy a held card).
    """
    order = GUTS3_ORDERS[ranking]
    ranks = [card.rank for card in naturals]
    kind_category, kind_ranks = of_a_kind(ranks, wilds)
    one_suit = len({card.suit for card in naturals}) <= 1
    for position, category in enumerate(order):
        made: tuple[int, ...] | None
        if category == kind_category:
            made = kind_ranks
        elif category == "straight_flush":
            made = straight_high(ranks, 3, ace_low=ace_low) if one_suit else None
        elif category == "straight":
            made = straight_high(ranks, 3, ace_low=ace_low)
        elif category == "flush":
            made = tuple(sorted([*ranks, *([14] * wilds)], reverse=True)) if one_suit else None
        else:
            made = None
        if made is not None:
            return value_of(ranking, len(order) - position, category, made, size=3)
    raise AssertionError(f"no category of {ranking} fits {naturals} + {wilds} wilds")  # unreachable


def _table(ranking: str, ace_low: bool) -> dict[int, RankedValue]:
    """Every hand of the ranking's size -> its value, keyed by the bit mask of its card indices.
    Hands with the same ranks and the same suitedness share one value object."""
    table = _TABLES.get((ranking, ace_low))
    if table is None:
        size = 2 if ranking == "guts2" else 3
        shapes: dict[tuple[tuple[int, ...], bool], RankedValue] = {}
        table = {}
        for hand in combinations(ALL_CARDS, size):
            shape = (tuple(card.rank for card in hand), len({card.suit for card in hand}) == 1)
            value = shapes.get(shape)
            if value is None:
                value = shapes[shape] = (
                    guts2_value(hand, 0)
                    if size == 2
                    else guts3_value(hand, 0, ranking=ranking, ace_low=ace_low)
                )
            table[sum(1 << card.index for card in hand)] = value
        _TABLES[(ranking, ace_low)] = table
    return table


def fast_evaluator(ranking: str) -> Callable[[Sequence[Card]], HandValue | None]:
    """The value of a hand without wild cards under the default options, or None when the hand
    is not one of the table's (wrong size, or a repeated card): the caller then reports why."""
    lookup = _table(ranking, True).get

    def fast(cards: Sequence[Card]) -> HandValue | None:
        mask = 0
        for card in cards:
            mask |= 1 << card.index
        return lookup(mask)

    return fast


def _evaluate(
    cards: Sequence[Card], ranking: str, wild_ranks: Sequence[int], wild_cards: Sequence[Card], ace_low: bool
) -> HandValue:
    if not wild_ranks and not wild_cards:
        mask = 0
        for card in cards:
            mask |= 1 << card.index
        value = _table(ranking, ace_low).get(mask)
        if value is not None:
            return value
    naturals, wilds = split_wilds(cards, wild_ranks, wild_cards)
    if ranking == "guts2":
        return guts2_value(naturals, wilds)
    return guts3_value(naturals, wilds, ranking=ranking, ace_low=ace_low)


def evaluate_guts2(
    cards: Sequence[Card], *, wild_ranks: Sequence[int] = (), wild_cards: Sequence[Card] = ()
) -> HandValue:
    return _evaluate(cards, "guts2", wild_ranks, wild_cards, True)


def evaluate_guts3_sf_high(
    cards: Sequence[Card],
    *,
    wild_ranks: Sequence[int] = (),
    wild_cards: Sequence[Card] = (),
    ace_low: bool = True,
) -> HandValue:
    return _evaluate(cards, "guts3_sf_high", wild_ranks, wild_cards, ace_low)


def evaluate_guts3_trips_high(
    cards: Sequence[Card],
    *,
    wild_ranks: Sequence[int] = (),
    wild_cards: Sequence[Card] = (),
    ace_low: bool = True,
) -> HandValue:
    return _evaluate(cards, "guts3_trips_high", wild_ranks, wild_cards, ace_low)


def evaluate_guts3_classic(
    cards: Sequence[Card],
    *,
    wild_ranks: Sequence[int] = (),
    wild_cards: Sequence[Card] = (),
    ace_low: bool = True,
) -> HandValue:
    return _evaluate(cards, "guts3_classic", wild_ranks, wild_cards, ace_low)


def evaluate_guts3_short(cards: Sequence[Card], ranking: str) -> HandValue:
    """Q-MC-03 (a): fewer than three cards (MCA-02: the deck's top two against a lone "in" hand)
    valued in a three-card preset's order by the only categories they make, pair or high card.
    A missing card counts below any card, so K-7 loses to K-7-2 and a pair of nines to a pair of
    nines with a kicker: two cards never tie three."""
    order = GUTS3_ORDERS[ranking]
    category, ranks = of_a_kind((card.rank for card in cards), 0)
    return value_of(ranking, len(order) - order.index(category), category, ranks, size=len(cards))
