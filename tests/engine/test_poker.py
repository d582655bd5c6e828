"""Five-card poker (best five of 5-7): order, counts, ties, descriptions (357-17, 357-23, D-GEN-04)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from tables.engine.cards import ALL_CARDS, CardError, parse_cards
from tables.engine.hand_value import HandValue
from tables.engine.rankings.poker import evaluate_poker


def value(text: str, **options: object) -> HandValue:
    return evaluate_poker(parse_cards(text), **options)


# 52-card five-card hands per category (C(n, k) binomials; 10 straights A-5 .. T-A per suit pattern):
#   straight flush  10 tops x 4 suits                                     =        40 (incl. 4 royals)
#   four of a kind  13 ranks x 48 kickers                                 =       624
#   full house      13 x C(4,3) x 12 x C(4,2)                             =     3,744
#   flush           4 x (C(13,5) - 10)                                    =     5,108
#   straight        10 x (4^5 - 4)                                        =    10,200
#   three of a kind 13 x C(4,3) x C(12,2) x 4^2                           =    54,912
#   two pair        C(13,2) x C(4,2)^2 x 11 x 4                           =   123,552
#   pair            13 x C(4,2) x C(12,3) x 4^3                           = 1,098,240
#   high card       (C(13,5) - 10) x (4^5 - 4)                            = 1,302,540
#   total           C(52,5)                                               = 2,598,960
FIVE_CARD_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}


@pytest.mark.slow
def test_every_five_card_hand_counts_per_category():
    # Every one of the 2,598,960 real hands goes through the real evaluator (no sampling).
    counts = Counter(evaluate_poker(hand).category for hand in combinations(ALL_CARDS, 5))
    assert counts == FIVE_CARD_COUNTS
    assert sum(counts.values()) == 2_598_960


def _hand(ranks: tuple[int, ...], *, suited: bool) -> list:
    """Real cards for rank positions 0..12: the n-th copy of a rank gets suit n; unsuited hands
    move the first card to another suit."""
    seen: Counter[int] = Counter()
    cards = []
    for position, rank in enumerate(ranks):
        suit = seen[rank] + (1 if position == 0 and not suited else 0)
        seen[rank] += 1
        cards.append(ALL_CARDS[4 * rank + suit % 4])
    return cards


def test_five_card_values_are_the_7462_classes_of_standard_poker():
    # One real hand per (rank multiset, suited or not) class: 7,462 distinct values in all.
    values = set()
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) == 5:
            continue
        values.add(evaluate_poker(_hand(ranks, suited=False)).key)
        if len(set(ranks)) == 5:
            values.add(evaluate_poker(_hand(ranks, suited=True)).key)
    assert len(values) == 7462


def _treys_ints(hand) -> list[int]:
    return [TreysCard.new(str(card)) for card in hand]


@pytest.mark.slow
@pytest.mark.parametrize(("size", "hands"), [(5, 80_000), (6, 60_000), (7, 70_000)])
def test_order_and_ties_match_treys(size: int, hands: int):
    # 210,000 random hands in all. Same order and same ties <=> (our key, treys rank) pairs form
    # a strictly decreasing bijection (treys: lower is better).
    rng = random.Random(size)
    treys = TreysEvaluator()
    pairs = set()
    for _ in range(hands):
        hand = rng.sample(ALL_CARDS, size)
        ints = _treys_ints(hand)
        pairs.add((evaluate_poker(hand).key, treys.evaluate(ints[:2], ints[2:])))
    ordered = sorted(pairs)
    assert len({key for key, _ in ordered}) == len({rank for _, rank in ordered}) == len(ordered)
    assert all(a[1] > b[1] for a, b in pairwise(ordered))


def test_best_five_of_seven_ignores_the_two_worst_cards():  # 357-23
    assert value("As Ad Kc Kd 7h 3s 2c").ties(value("As Ad Kc Kd 7h"))
    assert value("9h 8h 7h 6h 5h Kh Ah").category == "straight_flush"
    assert value("Ah Ad Ac Kh Kd Kc 2s") == value("Ah Ad Ac Kh Kd")  # two trips: full house
    assert value("9c 9d 5h 5s 2c 2d Ah").ties(value("9c 9d 5h 5s Ah"))  # three pairs: best two + ace


def test_suits_never_break_ties():
    assert value("Ah Kh Qd Jc 9s").ties(value("As Kd Qh Jh 9c"))
    assert value("Tc 9c 8c 7c 6c").ties(value("Th 9h 8h 7h 6h"))


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts", "Ac Ad Ah As Kd"),  # straight flush > four of a kind
        ("2c 2d 2h 2s 3d", "Ac Ad Ah Ks Kd"),  # quads > full house
        ("3c 3d 3h 2s 2d", "Ah Kh Qh Jh 9h"),  # full house > flush
        ("7h 5h 4h 3h 2h", "Ac Kd Qh Js Ts"),  # flush > straight
        ("2c 3d 4h 5s 6c", "Ac Ad Ah Ks Qd"),  # straight > three of a kind
        ("2c 2d 2h 3s 4d", "Ac Ad Kh Ks Qd"),  # trips > two pair
        ("3c 3d 2h 2s 4d", "Ac Ad Kh Qs Jd"),  # two pair > pair
        ("2c 2d 3h 4s 5d", "Ac Kd Qh Js 9d"),  # pair > high card
        ("2c 3d 4h 5s 6d", "Ac 2d 3h 4s 5d"),  # six-high straight > the wheel (D-GEN-04)
        ("Ac Ad 5h 4s 3d", "Ac Ad 5h 4s 2d"),  # third kicker counts
    ],
)
def test_standard_order(better: str, worse: str):
    assert value(better).beats(value(worse))
    assert not value(worse).beats(value(better))


def test_d_gen_04_wheel_is_the_lowest_straight_and_optional():
    wheel = value("Ac 2d 3h 4s 5d")
    assert wheel.category == "straight"
    assert str(wheel) == "Straight, five high"
    assert value("As 2s 3s 4s 5s").category == "straight_flush"
    ace_high_only = value("Ac 2d 3h 4s 5d", ace_low=False)
    assert ace_high_only.category == "high_card"
    assert ace_high_only.ties(value("Ac 5d 4h 3s 2d", ace_low=False))
    assert value("As 2s 3s 4s 5s 9d Kc", ace_low=False).category == "flush"
    assert value("Ac 2d 3h 4s 5d 8c", ace_low=False).category == "high_card"


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("As Ks Qs Js Ts", "Straight flush, ace high"),
        ("Ac Ad Ah As Kd", "Four aces, king kicker"),
        ("Qc Qd Qh 5s 5d", "Full house, queens over fives"),
        ("Ah Jh 9h 5h 3h", "Flush, ace high, jack, nine, five and three kickers"),
        ("Tc 9d 8h 7s 6d", "Straight, ten high"),
        ("Kc Kd Ah 9s 4d", "Pair of kings, ace, nine and four kickers"),
        ("Kc Kd 5h 5s Ad", "Two pair, kings and fives, ace kicker"),
        ("7c 7d 7h As 2d", "Three sevens, ace and two kickers"),
        ("Ac Jd 9h 5s 3d", "Ace high, jack, nine, five and three kickers"),
    ],
)
def test_descriptions(hand: str, text: str):
    assert str(value(hand)) == text


def test_values_are_shared_per_key_and_cheap_to_compare():
    first, second = value("As Ks Qs Js Ts 2c 3d"), value("Ah Kh Qh Jh Th")
    assert first is second  # one value per key: nothing allocated per hand
    assert first.ranking == "poker"
    assert first.category == "straight_flush"


@pytest.mark.parametrize("hand", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s"])
def test_poker_needs_five_to_seven_cards(hand: str):
    with pytest.raises(CardError, match="5 to 7 cards"):
        value(hand)


def test_not_a_card_is_a_card_error():
    with pytest.raises(CardError):
        evaluate_poker(["As", "Ks", "Qs", "Js", "Ts"])  # type: ignore[list-item]
