"""Poker with wild cards (D-GEN-03, Q-GEN-03, 357-17, 357-23, JP-03..JP-05, EX-05), against a
brute-force substitution oracle written here."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tables.engine.cards import ALL_CARDS, Card, CardError, parse_cards
from tables.engine.hand_value import CATEGORIES
from tables.engine.rankings.poker import evaluate_poker


@cache
def oracle_five(hand: tuple[tuple[int, int], ...]) -> int:
    """Key of exactly five (rank, suit) cards, repeats allowed (a wild may copy a held card).
    Written independently: rank counts decide the shape; a flush keeps its ranks as they come."""
    ranks = sorted((rank for rank, _ in hand), reverse=True)
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    ordered = [
        rank
        for rank, count in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
        for _ in range(count)
    ]
    flush = len({suit for _, suit in hand}) == 1
    straight = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight = list(range(ranks[0], ranks[0] - 5, -1))
        elif ranks == [14, 5, 4, 3, 2]:
            straight = [5, 4, 3, 2, 1]
    if shape[0] == 5:
        category, significant = "five_of_a_kind", ordered
    elif straight and flush:
        category, significant = "straight_flush", straight
    elif shape[0] == 4:
        category, significant = "four_of_a_kind", ordered
    elif shape[:2] == [3, 2]:
        category, significant = "full_house", ordered
    elif flush:
        category, significant = "flush", ranks
    elif straight:
        category, significant = "straight", straight
    else:
        pairs = "two_pair" if shape[1] == 2 else "pair"
        category = {3: "three_of_a_kind", 2: pairs, 1: "high_card"}[shape[0]]
        significant = ordered
    key = CATEGORIES.index(category)
    for rank in significant:
        key = key << 4 | rank
    return key


def oracle(naturals: list[Card], wilds: int) -> int:
    """Best key over every choice of the wilds among all 52 cards (repeats allowed, D-GEN-03)
    and every five of the resulting cards."""
    base = [(card.rank, card.suit_index) for card in naturals]
    every_card = [(card.rank, card.suit_index) for card in ALL_CARDS]
    best = 0
    for chosen in combinations_with_replacement(every_card, wilds):
        for five in combinations(base + list(chosen), 5):
            best = max(best, oracle_five(tuple(sorted(five))))
    return best


WILD_RANK = 7  # 357-23: sevens wild
NATURAL_POOL = [card for card in ALL_CARDS if card.rank != WILD_RANK]
RICH_POOL = [card for card in NATURAL_POOL if card.rank >= 9 and card.suit in "hs"]  # straights, flushes
PAIRED_POOL = [card for card in NATURAL_POOL if card.rank >= 11]  # sets: quads, fives
SEVENS = [card for card in ALL_CARDS if card.rank == WILD_RANK]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "wilds", "hands"),
    [
        (5, 1, 80),
        (6, 1, 40),
        (7, 1, 24),
        (5, 2, 50),
        (6, 2, 14),
        (7, 2, 5),
    ],
)
def test_wild_sevens_match_the_substitution_oracle(size: int, wilds: int, hands: int):  # D-GEN-03
    rng = random.Random(size * 10 + wilds)
    for index in range(hands):
        pool = (NATURAL_POOL, RICH_POOL, PAIRED_POOL)[index % 3]
        naturals = rng.sample(pool, size - wilds)
        hand = naturals + rng.sample(SEVENS, wilds)
        rng.shuffle(hand)
        got = evaluate_poker(hand, wild_ranks=(WILD_RANK,))
        assert got.key == oracle(naturals, wilds), (hand, str(got))


@pytest.mark.parametrize(
    "hand",
    [
        "Jc Jd Jh Js 7c",
        "Qc Qd Qh 2s 7c 7d",
        "Qc Qd Qh Qs 2s 7c 7d",
        "Ah Kh 9h 2c 7c 7d",
        "Ah Kh Qh 9h 7c 2d 3s",
        "Ac 2c 4c 7d 9s",
        "Ac Ad Kc Kd 7s 2h 3h",
        "Tc Td Th 9s 7c",
    ],
)
def test_chosen_wild_hands_match_the_substitution_oracle(hand: str):  # D-GEN-03: five of a kind too
    cards = parse_cards(hand)
    naturals = [card for card in cards if card.rank != WILD_RANK]
    got = evaluate_poker(cards, wild_ranks=(WILD_RANK,))
    assert got.key == oracle(naturals, len(cards) - len(naturals))


@pytest.mark.parametrize(
    ("hand", "category", "text"),
    [
        ("As Ks Qs Js 7d", "straight_flush", "Straight flush, ace high"),
        ("Ah Kh Qh 9h 7c", "flush", "Flush, ace high, ace, king, queen and nine kickers"),
        ("Ac Ad Ah As 7c", "five_of_a_kind", "Five aces"),
        ("7c 7d 7h 7s 2c", "five_of_a_kind", "Five twos"),
        ("Kc Kd 2h 3s 7c", "three_of_a_kind", "Three kings, three and two kickers"),
        ("Kc Kd 2h 2s 7c", "full_house", "Full house, kings over twos"),
        ("Kc 9d 5h 3s 7c", "pair", "Pair of kings, nine, five and three kickers"),
        ("Kc 9d 5h 7s 7c", "three_of_a_kind", "Three kings, nine and five kickers"),
        ("6c 5d 4h 7s 7c", "straight", "Straight, eight high"),
    ],
)
def test_d_gen_03_wild_sevens(hand: str, category: str, text: str):  # 357-23
    got = evaluate_poker(parse_cards(hand), wild_ranks=(7,))
    assert (got.category, str(got)) == (category, text)


def test_ex_05_jacks_and_piss_makes_four_aces():  # EX-05, JP-03, JP-04, JP-05
    hand = parse_cards("Ac 8s 3h Jh 8c")  # the piss card 8c is every player's fifth card
    got = evaluate_poker(hand, wild_ranks=(11, 8), wild_cards=parse_cards("8c"))
    assert got.category == "four_of_a_kind"
    assert str(got) == "Four aces, three kicker"


def test_piss_card_alone_is_wild_when_only_the_card_is_named():  # JP-04: the card itself
    got = evaluate_poker(parse_cards("Ac Ad 3h Kh 8c"), wild_cards=parse_cards("8c"))
    assert str(got) == "Three aces, king and three kickers"


def test_d_gen_03_natural_and_wild_hands_of_equal_value_tie():
    natural = evaluate_poker(parse_cards("As Ks Qs Js Ts"))
    wild = evaluate_poker(parse_cards("As Ks Qs Js 5d"), wild_ranks=(5,))
    assert natural.ties(wild)
    assert evaluate_poker(parse_cards("9c 9d 9h 4s 4d")).ties(
        evaluate_poker(parse_cards("9c 9d 3h 4s 4d"), wild_ranks=(3,))
    )


def test_d_gen_03_five_of_a_kind_beats_a_royal_flush():
    five = evaluate_poker(parse_cards("2c 2d 2h 2s 5c"), wild_ranks=(5,))
    assert five.category == "five_of_a_kind"
    assert five.beats(evaluate_poker(parse_cards("As Ks Qs Js Ts")))


def test_all_wild_hands_are_five_aces():
    got = evaluate_poker(parse_cards("7c 7d 7h 7s 5c 5d 2s"), wild_ranks=(7, 5), wild_cards=parse_cards("2s"))
    assert str(got) == "Five aces"


def test_five_wilds_are_five_aces_whatever_the_natural_cards():
    got = evaluate_poker(parse_cards("7c 7d 7h 7s 5c Kd Qs"), wild_ranks=(7, 5))
    assert str(got) == "Five aces"


def test_four_wild_sevens_in_seven_cards_make_five_of_the_best_natural():  # 357-23
    got = evaluate_poker(parse_cards("7c 7d 7h 7s Kc 2d 9s"), wild_ranks=(7,))
    assert str(got) == "Five kings"


def test_wild_ace_low_straight_follows_the_option():  # D-GEN-04
    assert evaluate_poker(parse_cards("Ac 2d 3h 4s 7c"), wild_ranks=(7,)).category == "straight"
    assert evaluate_poker(parse_cards("Ac 2d 3h 4s 7c"), wild_ranks=(7,), ace_low=False).category == "pair"


def test_a_repeated_natural_card_in_a_wild_hand_is_an_error():
    with pytest.raises(CardError, match="duplicate"):
        evaluate_poker(parse_cards("Ac Ac 3h 4s 7c", allow_duplicates=True), wild_ranks=(7,))


def test_repeated_wild_cards_are_allowed():  # a shared wild card may appear in several hands' lists
    got = evaluate_poker(parse_cards("Ac Kd 8c 8c 2s", allow_duplicates=True), wild_cards=parse_cards("8c"))
    assert str(got) == "Three aces, king and two kickers"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NATURAL_POOL), min_size=2, max_size=6, unique=True), st.integers(0, 3))
def test_adding_a_wild_never_lowers_a_hand(naturals: list[Card], wilds: int):
    hand = naturals + SEVENS[:wilds]
    assume(5 <= len(hand) <= 6)
    before = evaluate_poker(hand, wild_ranks=(WILD_RANK,))
    after = evaluate_poker([SEVENS[wilds], *hand], wild_ranks=(WILD_RANK,))
    assert not before.beats(after)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(NATURAL_POOL), min_size=5, max_size=7, unique=True), st.data())
def test_making_a_card_wild_never_lowers_a_hand(hand: list[Card], data: st.DataObject):
    card = data.draw(st.sampled_from(hand))
    natural = evaluate_poker(hand)
    assert not natural.beats(evaluate_poker(hand, wild_cards=(card,)))
