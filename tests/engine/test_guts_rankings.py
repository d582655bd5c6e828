"""Two- and three-card Guts rankings: G2-16..G2-21, Table 3C, MC-03, MC-04, D-3C-01, D-GEN-04."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest

from tables.engine import ALL_CARDS, CardError, InvalidHandSize, InvalidOption, UnknownRanking, evaluate
from tables.engine.cards import RANKS
from tables.engine.decider.errors import DomainError
from tables.engine.variants import get_variant, validate_options

GUTS3 = ("guts3_sf_high", "guts3_trips_high", "guts3_classic")


def value(hand: str, ranking: str, **options: object):
    return evaluate(hand, ranking, **options)


def beats(better: str, worse: str, ranking: str, **options: object) -> bool:
    return value(better, ranking, **options).beats(value(worse, ranking, **options))


def ties(first: str, second: str, ranking: str) -> bool:
    return value(first, ranking).ties(value(second, ranking))


# --- two-card Guts -------------------------------------------------------------------------------


def test_g2_16_aces_are_highest():
    assert beats("As 2c", "Ks Qc", "guts2")
    assert beats("Ad Ac", "Kd Kc", "guts2")


def test_g2_17_any_pair_beats_any_unpaired_hand():  # G2-17
    assert beats("2s 2c", "As Kc", "guts2")


def test_g2_18_higher_pair_beats_lower_pair():  # G2-18
    assert beats("Js Jc", "Ts Tc", "guts2")


def test_g2_19_unpaired_higher_top_card_wins():
    assert beats("Ks 2c", "Qs Jc", "guts2")


def test_g2_20_equal_top_cards_second_card_decides():  # G2-20
    assert beats("As Qc", "Ah Jd", "guts2")


def test_g2_21_suits_do_not_count_so_equal_ranks_tie():  # G2-21, Table G2, MC-04-style split
    assert ties("As Kd", "Ah Kc", "guts2")


@pytest.mark.slow
def test_table_g2_all_1326_hands_have_91_ranks_in_the_printed_order():
    values = [evaluate(list(hand), "guts2") for hand in combinations(ALL_CARDS, 2)]
    assert len(values) == 1326
    assert Counter(v.category for v in values) == {"pair": 78, "high_card": 1248}
    order_by_key = {}
    for hand, v in zip(combinations(ALL_CARDS, 2), values, strict=True):
        order_by_key[v.key] = tuple(sorted((card.rank for card in hand), reverse=True))
    assert len(order_by_key) == 91  # 13 pairs + C(13, 2) = 78 unpaired
    printed = [(r, r) for r in range(14, 1, -1)] + [
        (top, second) for top in range(14, 2, -1) for second in range(top - 1, 1, -1)
    ]
    assert [order_by_key[key] for key in sorted(order_by_key, reverse=True)] == printed


def test_guts2_descriptions():
    assert str(value("As Ks", "guts2")) == "Ace high, king kicker"
    assert str(value("6s 6d", "guts2")) == "Pair of sixes"
    assert value("6s 6d", "guts2").category == "pair"


# --- three-card Guts -------------------------------------------------------------------------------

# Counts of the 22,100 three-card hands (C(52, 3)), derived by hand:
#   straight windows: A-2-3 .. Q-K-A = 12 with the ace low (D-GEN-04), 11 ace-high only
#   straight flushes: windows x 4 suits = 48 (44)
#   three of a kind: 13 ranks x C(4, 3) = 52
#   straights (not flush): windows x (4^3 - 4) = 12 x 60 = 720 (660)
#   flushes (not straight): 4 x (C(13, 3) - windows) = 4 x (286 - 12) = 1,096 (4 x 275 = 1,100)
#   pairs: 13 x C(4, 2) x 48 = 3,744
#   high card: the rest, 22,100 - 48 - 52 - 720 - 1,096 - 3,744 = 16,440 (16,500)
#   classic (3C-06, no straights or flushes): 52 trips, 3,744 pairs, 18,304 high cards
EXPECTED_COUNTS = {
    True: {
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    },
    False: {
        "straight_flush": 44,
        "three_of_a_kind": 52,
        "straight": 660,
        "flush": 1100,
        "pair": 3744,
        "high_card": 16500,
    },
}
CLASSIC_COUNTS = {"three_of_a_kind": 52, "pair": 3744, "high_card": 18304}


@pytest.mark.slow
@pytest.mark.parametrize("ace_low", [True, False])
@pytest.mark.parametrize("ranking", GUTS3)
def test_table_3c_category_counts_over_all_22100_hands(ranking: str, ace_low: bool):
    counts = Counter(
        evaluate(list(hand), ranking, ace_low=ace_low).category for hand in combinations(ALL_CARDS, 3)
    )
    assert sum(counts.values()) == 22100
    assert counts == (CLASSIC_COUNTS if ranking == "guts3_classic" else EXPECTED_COUNTS[ace_low])


@pytest.mark.slow
@pytest.mark.parametrize("ranking", GUTS3)
def test_table_3c_categories_rank_in_preset_order(ranking: str):
    best_first = {
        "guts3_sf_high": ["straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"],
        "guts3_trips_high": ["three_of_a_kind", "straight_flush", "straight", "flush", "pair", "high_card"],
        "guts3_classic": ["three_of_a_kind", "pair", "high_card"],
    }[ranking]
    lowest: dict[str, int] = {}
    highest: dict[str, int] = {}
    for hand in combinations(ALL_CARDS, 3):
        v = evaluate(list(hand), ranking)
        lowest[v.category] = min(lowest.get(v.category, v.key), v.key)
        highest[v.category] = max(highest.get(v.category, v.key), v.key)
    for better, worse in pairwise(best_first):
        assert lowest[better] > highest[worse], (better, worse)


def test_3c_04_the_ranking_is_a_table_3c_preset_agreed_when_the_table_opens():  # 3C-04, Table 3C
    option = get_variant("guts3").option_index["ranking"]
    assert set(option.choices) == set(GUTS3)  # the presets of Table 3C, no other
    assert "3C-04" in option.rule
    for preset in GUTS3:  # recorded in TableOpened's options
        assert validate_options("guts3", {"ranking": preset})["ranking"] == preset
    with pytest.raises(DomainError) as refused:
        validate_options("guts3", {"ranking": "house_rules"})
    assert refused.value.code == "invalid_option"
    # The presets rank the same hands differently: why it must be agreed before play.
    assert beats("Qh Kh Ah", "2s 2d 2c", "guts3_sf_high")
    assert beats("2s 2d 2c", "Qh Kh Ah", "guts3_trips_high")
    assert beats("2s 2d 2c", "Qh Kh Ah", "guts3_classic")


def test_d_3c_01_default_ranks_straight_flush_above_trips():
    assert beats("4h 5h 6h", "As Ad Ac", "guts3_sf_high")


def test_3c_03_trips_high_preset_ranks_trips_above_straight_flush():
    assert beats("2s 2d 2c", "Qh Kh Ah", "guts3_trips_high")


def test_mc_02_straight_beats_flush():
    for ranking in ("guts3_sf_high", "guts3_trips_high"):
        assert beats("4h 5c 6d", "Ah Kh 9h", ranking)
        assert beats("Ah Kh 9h", "As Ad Kc", ranking)


def test_3c_06_classic_counts_no_straights_or_flushes():
    straight = value("4h 5c 6d", "guts3_classic")
    assert straight.category == "high_card"
    assert beats("2s 2d 3c", "Qh Kh Ah", "guts3_classic")
    assert str(value("Qh Kh Ah", "guts3_classic")) == "Ace high, king and queen kickers"


def test_mc_03_highest_card_of_the_combination_then_kicker():
    assert beats("Ks Kd 3c", "Qs Qd Ac", "guts3_sf_high")  # pair rank first
    assert beats("Ks Kd Ac", "Kh Kc Qd", "guts3_sf_high")  # then kicker
    assert beats("Ah Qh 3h", "Ac Jc Tc", "guts3_sf_high")  # flush: highest card, then next
    assert beats("Ah Kd 3c", "Ac Qd Jc", "guts3_sf_high")  # high card


def test_mc_04_completely_identical_combinations_tie():
    for ranking in GUTS3:
        assert ties("Ks Kd 3c", "Kh Kc 3d", ranking)
        assert ties("4h 5c 6d", "4c 5d 6h", ranking)


def test_d_gen_04_ace_low_straight_is_the_lowest_straight():
    low = value("As 2d 3c", "guts3_sf_high")
    assert low.category == "straight"
    assert str(low) == "Three-card straight, three high"
    assert beats("2s 3d 4c", "As 2d 3c", "guts3_sf_high")
    assert beats("As 2d 3c", "Ah Kh 9h", "guts3_sf_high")  # still a straight: above a flush
    assert value("As 2s 3s", "guts3_sf_high").category == "straight_flush"


def test_d_gen_04_option_ace_high_only():
    v = value("As 2d 3c", "guts3_sf_high", ace_low=False)
    assert v.category == "high_card"
    assert str(v) == "Ace high, three and two kickers"


def test_ace_king_queen_is_the_highest_straight_and_there_is_no_wrap_around():
    top = value("Qh Kh Ah", "guts3_sf_high")
    assert str(top) == "Three-card straight flush, ace high"
    assert all(top.key >= evaluate(list(hand), "guts3_sf_high").key for hand in combinations(ALL_CARDS, 3))
    assert value("Kd As 2c", "guts3_sf_high").category == "high_card"


def test_three_card_descriptions():
    assert str(value("Qh Jh Th", "guts3_sf_high")) == "Three-card straight flush, queen high"
    assert str(value("Ks Kd Ac", "guts3_sf_high")) == "Pair of kings, ace kicker"
    assert str(value("7d 7c 7s", "guts3_sf_high")) == "Three sevens"
    assert str(value("Ah Kh 9h", "guts3_sf_high")) == "Three-card flush, ace high, king and nine kickers"
    assert str(value("9h Th Jd", "guts3_sf_high")) == "Three-card straight, jack high"


# --- wild cards in two- and three-card Guts (D-GEN-03) --------------------------------------------


def test_d_gen_03_wild_copies_a_held_card():
    assert str(evaluate("As 2d", "guts2", wild_ranks=[2])) == "Pair of aces"
    v = evaluate("As Ks 2d", "guts3_trips_high", wild_ranks=["2"])
    assert v.category == "straight_flush"  # Q of spades, better than a pair of aces here
    assert str(evaluate("As Ad 2d", "guts3_sf_high", wild_ranks=[2])) == "Three aces"
    assert (
        str(evaluate("As 9s 2d", "guts3_sf_high", wild_ranks=[2]))
        == "Three-card flush, ace high, ace and nine kickers"
    )


def test_d_gen_03_natural_and_wild_made_hands_tie():
    assert evaluate("Ks Kd", "guts2", wild_ranks=()).ties(evaluate("Kh 2c", "guts2", wild_ranks=[2]))
    assert evaluate("Jh Qh Kh", "guts3_sf_high").ties(
        evaluate("Jc Qc Kd", "guts3_sf_high", wild_cards=["Kd"])
    )


def test_all_wild_hands_are_the_top_hands():
    assert str(evaluate("2s 2d 2c", "guts3_sf_high", wild_ranks=[2])) == "Three-card straight flush, ace high"
    assert str(evaluate("2s 2d 2c", "guts3_classic", wild_ranks=[2])) == "Three aces"
    assert str(evaluate("Jc Jd", "guts2", wild_ranks=["J"])) == "Pair of aces"


# --- the public entry point: errors -------------------------------------------------------------


def test_bad_token_names_the_token():
    with pytest.raises(CardError) as error:
        evaluate(["As", "Xx", "2c"], "guts3_sf_high")
    assert error.value.token == "Xx"


def test_duplicate_card_is_rejected_naming_it():
    with pytest.raises(CardError, match="As") as error:
        evaluate("As As 2c", "guts3_sf_high")
    assert error.value.token == "As"


def test_duplicate_wild_card_is_allowed():
    assert str(evaluate("2c 2c Ad", "guts3_classic", wild_ranks=[2])) == "Three aces"


def test_unknown_ranking_and_option_have_codes():
    with pytest.raises(UnknownRanking) as unknown:
        evaluate("As Kd", "guts9")
    assert unknown.value.code == "unknown_ranking"
    with pytest.raises(InvalidOption) as option:
        evaluate("As Kd 2c", "guts3_sf_high", jokers=True)
    assert option.value.code == "invalid_option"
    with pytest.raises(InvalidOption):
        evaluate("As Kd 2c", "guts3_sf_high", ace_low="yes")
    with pytest.raises(InvalidOption):
        evaluate("As Kd 2c", "guts3_sf_high", wild_ranks=["Z"])


def test_wrong_number_of_cards_is_rejected():
    with pytest.raises(InvalidHandSize) as error:
        evaluate("As Kd 2c", "guts2")
    assert error.value.code == "invalid_hand_size"


def test_wild_ranks_accept_ints_and_rank_texts():
    by_int = evaluate("Ts 5d 4c", "guts3_sf_high", wild_ranks=[10])
    by_text = evaluate("Ts 5d 4c", "guts3_sf_high", wild_ranks=["10"])
    by_char = evaluate("Ts 5d 4c", "guts3_sf_high", wild_ranks=["t"])
    assert by_int.key == by_text.key == by_char.key
    assert RANKS[by_int.ranks[0] - 2] == "6"


def test_explicit_wilds_do_not_leak_into_later_default_calls():
    assert str(evaluate("Ks 2d", "guts2", wild_ranks=[2])) == "Pair of kings"
    assert str(evaluate("Ks 2d", "guts2")) == "King high, two kicker"
    assert str(evaluate("Ks 2d", "guts2", wild_ranks=[2])) == "Pair of kings"
