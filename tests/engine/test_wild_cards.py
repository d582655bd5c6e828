"""Wild cards in every small ranking (D-GEN-03), checked against brute force.

The oracle replaces every wild by every one of the 52 cards (repeats allowed: a wild may copy a
held card) and keeps the best natural value; the engine's analytic value must equal it.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import ALL_CARDS, Card, HandValue, evaluate
from tables.engine.rankings import guts, low, small

RankingFunction = Callable[..., HandValue]

# name -> (ranking function taking (cards, *, wild_ranks, wild_cards), cards per hand)
RANKING_FUNCTIONS: dict[str, tuple[RankingFunction, int]] = {
    "guts2": (guts.evaluate_guts2, 2),
    "guts3_sf_high": (guts.evaluate_guts3_sf_high, 3),
    "guts3_trips_high": (guts.evaluate_guts3_trips_high, 3),
    "guts3_classic": (guts.evaluate_guts3_classic, 3),
    "stage1_357": (small.evaluate_stage1_357, 3),
    "four_card": (small.evaluate_four_card, 4),
    "consecutive": (small.evaluate_consecutive, 5),
    "alternating": (small.evaluate_alternating, 5),
    "low_a5": (low.evaluate_low_a5, 5),
}
# Two wilds cost 52 x 52 natural evaluations per hand; the slower rankings get fewer hands.
TWO_WILD_HANDS = {"consecutive": 4, "alternating": 4, "low_a5": 3}


def oracle(function: RankingFunction, naturals: Sequence[Card], wilds: int) -> int:
    """The best key over every substitution of every wild (the naturals stay as dealt)."""
    return max(
        function([*naturals, *substitutes], wild_ranks=(), wild_cards=()).key
        for substitutes in product(ALL_CARDS, repeat=wilds)
    )


def random_hands(size: int, wilds: int, count: int, seed: int) -> list[tuple[list[Card], list[Card]]]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        cards = rng.sample(ALL_CARDS, size)
        hands.append((cards[: size - wilds], cards[size - wilds :]))
    return hands


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [1, 2])
@pytest.mark.parametrize("ranking", sorted(RANKING_FUNCTIONS))
def test_d_gen_03_analytic_wilds_equal_brute_force_substitution(ranking: str, wilds: int):
    function, size = RANKING_FUNCTIONS[ranking]
    count = 40 if wilds == 1 else TWO_WILD_HANDS.get(ranking, 10)
    seed = zlib.crc32(f"{ranking}/{wilds}".encode())
    for naturals, wild_cards in random_hands(size, wilds, count, seed=seed):
        value = evaluate([*naturals, *wild_cards], ranking, wild_ranks=(), wild_cards=wild_cards)
        assert value.key == oracle(function, naturals, wilds), (ranking, naturals, wild_cards, str(value))


@pytest.mark.slow
@pytest.mark.parametrize("ranking", ["guts2", "guts3_sf_high"])
def test_d_gen_03_all_wild_hands_equal_brute_force(ranking: str):
    function, size = RANKING_FUNCTIONS[ranking]
    wild_cards = list(ALL_CARDS[:size])
    value = evaluate(wild_cards, ranking, wild_ranks=(), wild_cards=wild_cards)
    assert value.key == oracle(function, [], size)


@pytest.mark.parametrize("ranking", sorted(RANKING_FUNCTIONS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_d_gen_03_making_a_card_wild_never_lowers_a_hand(ranking: str, data: st.DataObject):
    size = RANKING_FUNCTIONS[ranking][1]
    hand = data.draw(st.lists(st.sampled_from(ALL_CARDS), min_size=size, max_size=size, unique=True))
    wild = data.draw(st.sampled_from(hand))
    natural = evaluate(hand, ranking, wild_ranks=())
    with_wild = evaluate(hand, ranking, wild_ranks=(), wild_cards=[wild])
    assert with_wild >= natural
