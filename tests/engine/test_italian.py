"""Italian poker ranking (§14): short pack, Table IT-B, suits, the straight-flush cycle, ties."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from tables.engine.cards import CardError, parse_cards
from tables.engine.deck import italian_pack
from tables.engine.rankings.italian import ItalianValue, evaluate_italian
from tables.engine.showdown import showdown


def it(hand: str, players: int = 4, **options: object) -> ItalianValue:
    return evaluate_italian(parse_cards(hand), players=players, **options)


# Five-card hands from a short pack of R ranks (lowest L .. ace), 4 suits; R - 3 straights
# (R - 4 ordinary windows plus the ace-low A-L..L+3, IT-23):
#                     R = 8 (32 cards, 4 players)        R = 9 (36 cards, 5 players)
# straight flush      x 4            =     20      =     24
# four of a kind      R x (4R - 4)         =    224      =    288
# flush               4 x (C(R,5) - (R-3)) =    204      =    480
# full house          R x 4 x x 6    =  1,344      =  1,728
# straight            x (4^5 - 4)    =  5,100      =  6,120
# three of a kind     R x 4 x C(R-1,2) x 16 = 10,752     = 16,128
# two pair            C(R,2) x 36 x x 4 = 24,192   = 36,288
# pair                R x 6 x C(R-1,3) x 64 = 107,520    = 193,536
# high card           (C(R,5) - (R-3)) x (4^5 - 4) = 52,020 = 122,400
# total               C(4R, 5)             = 201,376     = 376,992
SHORT_PACK_COUNTS = {
    4: {
        "straight_flush": 20,
        "four_of_a_kind": 224,
        "flush": 204,
        "full_house": 1344,
        "straight": 5100,
        "three_of_a_kind": 10752,
        "two_pair": 24192,
        "pair": 107520,
        "high_card": 52020,
    },
    5: {
        "straight_flush": 24,
        "four_of_a_kind": 288,
        "flush": 480,
        "full_house": 1728,
        "straight": 6120,
        "three_of_a_kind": 16128,
        "two_pair": 36288,
        "pair": 193536,
        "high_card": 122400,
    },
}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "total"), [(4, 201_376), (5, 376_992)])
def test_every_short_pack_hand_counts_per_category(players: int, total: int):  # IT-22, D-IT-01
    # Every real hand of the pack goes through the real evaluator.
    categories: Counter[str] = Counter()
    classes: Counter[str | None] = Counter()
    for hand in combinations(italian_pack(players), 5):
        value = evaluate_italian(hand, players=players)
        categories[value.category] += 1
        if value.category == "straight_flush":
            classes[value.straight_flush_class] += 1
    assert categories == SHORT_PACK_COUNTS[players]
    assert categories.total() == total
    assert classes == {"minimum": 4, "maximum": 4, "medium": 4 * (players - 1)}  # R - 5 per suit


@pytest.mark.parametrize(
    ("players", "cards", "lowest"),
    [
        (4, 32, "7"),
        (5, 36, "6"),
        (6, 40, "5"),
        (2, 24, "9"),
        (3, 28, "8"),
        (7, 44, "4"),
        (8, 48, "3"),
        (9, 52, "2"),
        (10, 52, "2"),
    ],
)
def test_ex_10_d_it_01_pack_by_number_of_players(players: int, cards: int, lowest: str):
    pack = italian_pack(players)
    assert len(pack) == cards
    assert min(card.rank for card in pack) == parse_cards(lowest + "c")[0].rank


def test_d_it_01_card_outside_the_pack_is_named():
    with pytest.raises(CardError, match="6h is not in the 32-card pack for 4 players") as error:
        it("Ah 6h 7h 8h 9h", players=4)
    assert error.value.token == "6h"


def test_players_outside_two_to_ten_are_refused():
    with pytest.raises(ValueError, match="2 to 10 players"):
        it("Ah Kh Qh Jh Th", players=11)


def test_ex_12_it_23_ace_below_the_lowest_rank_makes_a_straight():
    straight = it("Ah 6d 7c 8s 9h", players=5)
    assert straight.category == "straight"
    assert str(straight).startswith("Straight, nine high")
    assert it("Ah 6d 7c 8s 9h", players=9).category == "high_card"  # full pack: 6 is not next to A
    assert it("Ah 2d 3c 4s 5h", players=9).category == "straight"


def test_ex_13_minimum_straight_flush():
    value = it("Ah 7h 8h 9h Th", players=4)
    assert value.category == "straight_flush"
    assert value.straight_flush_class == "minimum"


def test_ex_14_maximum_straight_flush():
    assert it("Ah Kh Qh Jh Th").straight_flush_class == "maximum"
    assert it("Js Ts 9s 8s 7s").straight_flush_class == "medium"  # IT-26


def test_ex_15_it_28_straight_flush_cycle():
    minimum, medium, maximum = it("As 7s 8s 9s Ts"), it("Jh Th 9h 8h 7h"), it("Ad Kd Qd Jd Td")
    assert minimum.beats(maximum)
    assert maximum.beats(medium)
    assert medium.beats(minimum)
    assert not maximum.beats(minimum)
    assert not medium.beats(maximum)
    assert not minimum.beats(medium)


def test_ex_15_it_30_three_classes_split_the_pot():
    values = [it("As 7s 8s 9s Ts"), it("Jh Th 9h 8h 7h"), it("Ad Kd Qd Jd Td")]
    assert showdown(values).winners == (0, 1, 2)


def test_it_28_any_straight_flush_beats_four_of_a_kind():
    assert it("As 7s 8s 9s Ts").beats(it("Ah Ad Ac As Kd"))


def test_ex_16_it_31_mixed_straights_have_no_cycle():
    lowest = it("Ah 6d 7c 8s 9h", players=5)
    for better in ("6c 7d 8h 9s Tc", "9c Td Jh Qs Kc", "Ac Kd Qh Js Tc"):
        assert it(better, players=5).beats(lowest)
        assert not lowest.beats(it(better, players=5))


def test_ex_17_it_34_equal_straights_the_top_card_suit_decides():
    assert it("Qh Js Tc 9c 8s").beats(it("Qs Jh Th 9h 8h"))


def test_ex_18_it_35_equal_two_pairs_the_heart_in_the_higher_pair_decides():
    # Q-IT-04: the printed hands share 9s and 7d; each is valued on its own.
    first, second = it("9h 9s 7c 7d Ks"), it("9d 9s 7d 7h Kh")
    assert first.beats(second)  # even though the second hand's kicker is the king of hearts


def test_ex_19_fantini_pairs_the_highest_kicker_suit_decides():  # IT-39
    hearts_pair, hearts_jack = "Kh Kc Js 9s 8s", "Kd Ks Jh 9c 8c"
    assert it(hearts_jack, tie_rule="fantini").beats(it(hearts_pair, tie_rule="fantini"))
    assert it(hearts_pair).beats(it(hearts_jack))  # IT-36, default rule


def test_ex_20_fantini_high_card_the_second_card_suit_decides():  # IT-40
    hearts_ace, hearts_queen = "Ah Qs Jd 8c 7c", "As Qh Jc 8d 7d"
    assert it(hearts_queen, tie_rule="fantini").beats(it(hearts_ace, tie_rule="fantini"))
    assert it(hearts_ace).beats(it(hearts_queen))  # IT-37, default rule


def test_it_22_flush_beats_full_house():
    flush, full_house = it("7h 9h Jh Qh Ah"), it("Ac Ad As Kc Kd")
    assert flush.beats(full_house)
    assert not full_house.beats(flush)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ac Ad As Ah 7c", "Ks Kd Kc Qs Qd"),  # four of a kind > flush > full house (IT-22)
        ("Ks Kd Kc Qs Qd", "Ac Kd Qh Js Tc"),  # full house > straight
        ("Ac Kd Qh Js Tc", "Ac Ad As Kc Qd"),  # straight > three of a kind
        ("7c 7d 7s 8c 9d", "Ac Ad Ks Kc Qd"),  # trips > two pair
        ("8c 8d 7s 7c 9d", "Ac Ad Ks Qc Jd"),  # two pair > pair
        ("7c 7d 8s 9c Jd", "Ac Kd Qs Jc 9h"),  # pair > high card
    ],
)
def test_it_21_table_it_b_order(better: str, worse: str):
    assert it(better).beats(it(worse))


def test_it_27_q_it_03_medium_straight_flushes_top_card_first_then_suit():
    assert it("Qs Js Ts 9s 8s").beats(it("Jh Th 9h 8h 7h"))  # Q-IT-03 (a)
    assert it("Jh Th 9h 8h 7h").beats(it("Jd Td 9d 8d 7d"))  # IT-29: same rank, suit


def test_it_29_equal_minimum_or_maximum_straight_flushes_by_suit():
    assert it("Ah Kh Qh Jh Th").beats(it("As Ks Qs Js Ts"))
    assert it("Ad 7d 8d 9d Td").beats(it("Ac 7c 8c 9c Tc"))


def test_q_it_05_equal_flushes_by_suit():
    assert it("Ad Jd 9d 8d 7d").beats(it("Ac Jc 9c 8c 7c"))


def test_it_36_equal_pairs_the_heart_in_the_pair_decides():
    assert it("Kh Ks 9c 8c 7c").beats(it("Kd Kc 9h 8h 7h"))


def test_suits_decide_only_when_all_ranks_are_equal():  # IT-20
    assert it("Ks Kc Qc 8s 7s").beats(it("Kh Kd Jh 8h 7h"))


@pytest.mark.parametrize(("suit_order", "winner"), [("hdcs", "Ac Jc 9c 8c 7c"), ("hdsc", "As Js 9s 8s 7s")])
def test_q_it_02_suit_order_option(suit_order: str, winner: str):
    clubs, spades = it("Ac Jc 9c 8c 7c", suit_order=suit_order), it("As Js 9s 8s 7s", suit_order=suit_order)
    assert (clubs if winner.endswith("c") else spades).beats(spades if winner.endswith("c") else clubs)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="tie_rule"):
        it("Ah Kh Qh Jh Th", tie_rule="nobody")
    with pytest.raises(ValueError, match="suit_order"):
        it("Ah Kh Qh Jh Th", suit_order="hhcs")


def test_description_names_the_class_and_the_deciding_card():
    assert str(it("Ah 7h 8h 9h Th")) == "Straight flush, ten high (minimum); ten of hearts decides ties"
    assert str(it("9h 9s 7c 7d Ks")) == "Two pair, nines and sevens, king kicker; nine of hearts decides ties"


def test_d_gen_03_wild_card_takes_the_best_card_of_the_pack():
    # One wild jack: the best choice in the linear order is the royal flush of hearts.
    value = it("Ah Kh Qh Th Jc", wild_ranks=(11,))
    assert value.straight_flush_class == "maximum"
    assert value.deciding.suit == "h"
    # Two wilds with a natural pair: four of a kind, the wild copies the heart (default rule).
    quads = it("9s 9c 7d Jc Js", wild_ranks=(11,))
    assert quads.category == "four_of_a_kind"
    assert quads.deciding.suit == "h"


def test_d_gen_03_three_or_more_wilds():
    assert it("Ah 7h Jh Jc Jd", wild_ranks=(11,)).straight_flush_class == "minimum"  # only SF through A, 7
    assert it("Ah Ks Jh Jc Jd", wild_ranks=(11,)).category == "four_of_a_kind"
    assert it("Ah As Jh Jc Jd", wild_ranks=(11,)).category == "five_of_a_kind"
    assert str(it("Jh Js Jd Jc 9s", wild_ranks=(11, 9))).startswith("Five aces")


@pytest.mark.slow
@pytest.mark.parametrize("wilds", [3, 4])
def test_d_gen_03_many_wilds_match_trying_every_substitution(wilds: int):
    # The shortcut for three or more wilds against the plain search over every multiset of cards.
    pack = italian_pack(4)
    jacks = [card for card in pack if card.rank == 11]
    naturals_pool = [card for card in pack if card.rank != 11]
    rng = random.Random(wilds)
    hands = [rng.sample(naturals_pool, 5 - wilds) for _ in range(6 if wilds == 3 else 2)]
    hands += [parse_cards("Ah 7h"), parse_cards("9s Ts"), parse_cards("Qd Qc")][: 3 if wilds == 3 else 0]
    for naturals in hands:
        hand = naturals + jacks[:wilds]
        got = evaluate_italian(hand, players=4, wild_ranks=(11,))
        best = max(
            evaluate_italian([*naturals, *chosen], players=4).key
            for chosen in combinations_with_replacement(pack, wilds)
        )
        assert got.key == best, (hand, str(got))
