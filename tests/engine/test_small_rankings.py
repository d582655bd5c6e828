"""Stage one of Three-Five-Seven, the four-card comparison, Consecutive/Alternating Guts and the
ace-to-five low: 357-10, D-42X-04, CONS, ALT, D-CONS-01, EX-05..EX-07, D-43-01, D-GEN-03."""

from __future__ import annotations

from itertools import pairwise

import pytest

from tables.engine import evaluate


def text(hand: str, ranking: str, **options: object) -> str:
    return str(evaluate(hand, ranking, **options))


def beats(better: str, worse: str, ranking: str, **options: object) -> bool:
    return evaluate(better, ranking, **options).beats(evaluate(worse, ranking, **options))


def ties(first: str, second: str, ranking: str, **options: object) -> bool:
    return evaluate(first, ranking, **options).ties(evaluate(second, ranking, **options))


# --- Three-Five-Seven, stage one (357-10) -------------------------------------------------------------


def test_357_10_triplets_beat_a_pair_beat_unpaired_cards():
    assert beats("2s 2d 2c", "As Ad Kc", "stage1_357")
    assert beats("4s 4d 2c", "As Kd Qc", "stage1_357")


def test_357_10_no_straights_or_flushes():
    v = evaluate("Qh Kh Ah", "stage1_357")
    assert v.category == "high_card"
    assert beats("2s 2d 4c", "Qh Kh Ah", "stage1_357")


def test_357_10_threes_wild():
    assert text("3s 9d 9c", "stage1_357", wild_ranks=[3]) == "Three nines"
    assert text("3s 3d Kc", "stage1_357", wild_ranks=[3]) == "Three kings"
    assert text("3s Ad Kc", "stage1_357", wild_ranks=["3"]) == "Pair of aces, king kicker"
    assert text("3s 3d 3c", "stage1_357", wild_ranks=[3]) == "Three aces"


def test_evaluate_makes_nothing_wild_unless_asked():  # the signature: wild_ranks=()
    assert text("3s Ad Kc", "stage1_357") == "Ace high, king and three kickers"
    assert text("2s Kd Qc 9h", "four_card") == "King high, queen, nine and two kickers"


def test_357_10_wild_made_and_natural_trips_tie():  # D-GEN-03
    assert ties("3s 9d 9c", "9s 9h 9c", "stage1_357", wild_ranks=[3])


# --- four-card comparison (D-42X-04) ----------------------------------------------------------------


def test_d_42x_04_category_order():
    order = ["Ks Kd Kc Kh", "As Ad Ac Qh", "As Ad Kc Kh", "As Ad Kc Qh", "As Kd Qc Jh"]
    values = [evaluate(hand, "four_card", wild_ranks=()) for hand in order]
    assert [v.category for v in values] == [
        "four_of_a_kind",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    ]
    assert all(a.beats(b) for a, b in pairwise(values))


def test_d_42x_04_no_four_card_straights_or_flushes():
    assert evaluate("5h 6h 7h 8h", "four_card").category == "high_card"
    assert beats("3s 3d 4c 5h", "Th Jh Qh Kh", "four_card")


def test_d_42x_04_twos_are_wild_for_everyone():
    assert text("2s Kd Kc 9h", "four_card", wild_ranks=[2]) == "Three kings, nine kicker"
    assert text("2s 2d 2c 2h", "four_card", wild_ranks=[2]) == "Four aces"
    assert text("2s Kd Qc 9h", "four_card", wild_ranks=[2]) == "Pair of kings, queen and nine kickers"


def test_d_42x_04_ties_within_a_category_by_ranks_then_kickers():
    assert beats("Ks Kd Qc Qh", "Kc Kh Jc Jh", "four_card")
    assert beats("9s 9d 8c Ah", "9c 9h 8s Kh", "four_card")
    assert ties("9s 9d 8c Ah", "9c 9h 8s Ad", "four_card")


def test_ex_05_wild_logic_in_four_cards():
    # EX-05's hand A-8-3-J with jacks and eights wild, and with the piss card 8c in the four:
    assert text("Ac 8s 3h Jh", "four_card", wild_ranks=["J", "8"]) == "Three aces, three kicker"
    assert text("Ac 8s 8c Jh", "four_card", wild_ranks=["J", "8"]) == "Four aces"


# --- Consecutive and Alternating Guts (CONS, ALT, D-CONS-01) ------------------------------------------


def test_ex_06_consecutive_eight_seven_make_a_wild_for_three_queens():
    assert text("8h Qd 3c 7s Qs", "consecutive") == "Three queens"


def test_ex_07_alternating_eight_six_make_a_wild_for_three_aces():
    assert text("Ah Ad 8c Js 6s", "alternating") == "Three aces"


def test_cons_04_only_trips_pair_and_high_card():
    assert text("9h Th Jh 2h 5h", "consecutive") == "Pair of jacks, five kicker"  # T in one pair only
    assert text("Kh Th 8h 6h 4h", "consecutive") == "King high, ten and eight kickers"


def test_cons_02_best_three_of_five():
    assert text("Kh Kd 9c 6s 4d", "consecutive") == "Pair of kings, nine kicker"


def test_d_cons_01_every_disjoint_pair_makes_one_wild():
    assert text("Ah 8d 7c 5s 4d", "consecutive") == "Three aces"  # 8-7 and 5-4
    assert text("8h 7d 5c 4s Ks", "consecutive") == "Three kings"


def test_d_cons_01_a_card_is_in_at_most_one_pair():
    # 8-7 and 7-6 overlap: only one wild; 7-6 leaves the better kicker.
    assert text("8h 7d 6c Ks 2d", "consecutive") == "Pair of kings, eight kicker"


def test_d_cons_01_ace_is_next_to_king_and_two_but_nothing_wraps():
    assert text("Ah Kd 9c 9s 4d", "consecutive") == "Three nines"
    assert text("Ah 2d 9c 9s Jd", "consecutive") == "Three nines"
    assert text("Kh 2d 9c 9s 6d", "consecutive") == "Pair of nines, king kicker"


def test_d_cons_01_alternating_around_the_ace_q_a_a_3_and_k_2():
    assert text("Qh Ad 9c 9s 5d", "alternating") == "Three nines"
    assert text("Ah 3d 9c 9s 6d", "alternating") == "Three nines"
    assert text("Kh 2d 9c 9s 5d", "alternating") == "Three nines"  # the ace bridges K-2
    assert text("Kh 3d 9c 9s 6d", "alternating") == "Pair of nines, king kicker"
    assert text("8h 7d Qc 9s 2d", "alternating") == "Pair of queens, eight kicker"  # 9-7 wild


def test_d_cons_01_suits_do_not_matter():
    assert ties("8h Qd 3c 7s Qs", "8c Qh 3d 7d Qc", "consecutive")


def test_d_cons_01_wild_cards_also_count():
    assert text("Jh Qd 3c 7s 6s", "consecutive", wild_ranks=["J"]) == "Three queens"


def test_consecutive_pairs_are_optional():
    # Using 8-7 as a wild would leave Q, Q, 2 and the wild: three queens; without it, pair of 8s.
    assert text("Qh Qd 8c 7s 2d", "consecutive") == "Three queens"
    assert text("Ah Kd 2c Qs 3d", "consecutive") == "Three aces"  # K-Q and 3-2 make two wilds


# --- Ace-to-five low (D-43-01) -----------------------------------------------------------------------------


def test_d_43_01_the_wheel_is_the_best_low_and_flushes_do_not_count():
    wheel = evaluate("As 2s 3s 4s 5s", "low_a5")
    assert str(wheel) == "Five low (5-4-3-2-A)"
    assert wheel.beats(evaluate("As 2d 3c 4h 6s", "low_a5"))


def test_d_43_01_lower_top_card_is_better_then_the_next():
    assert beats("As 2d 3c 4h 6s", "2s 3d 4c 5h 7s", "low_a5")
    assert beats("7s 5d 4c 3h As", "7d 6s 4h 3c 2d", "low_a5")


def test_d_43_01_ace_is_low():
    assert beats("As 2d 3c 4h 8s", "2s 3d 4c 5h 9s", "low_a5")
    assert text("Ad 7s 5c 4h 3s", "low_a5") == "Seven low (7-5-4-3-A)"


def test_d_43_01_any_unpaired_hand_beats_a_pair():
    assert beats("Ks Qd Jc 9h 8s", "2s 2d 3c 4h 5s", "low_a5")
    assert text("2s 2d 3c 4h 5s", "low_a5") == "Pair of twos, five, four and three kickers (low)"


def test_d_43_01_best_five_of_seven():
    assert text("Kd Qc As 2d 3c 4h 5s", "low_a5") == "Five low (5-4-3-2-A)"
    assert ties("Kd Qc As 2d 3c 4h 5s", "5d 4s 3h 2c Ac", "low_a5")


def test_d_gen_03_a_wild_in_a_low_hand_is_the_lowest_missing_rank():
    assert text("Ks 2d 3c 4h 5s", "low_a5", wild_ranks=["K"]) == "Five low (5-4-3-2-A)"
    assert (
        text("Ks Kd Qh Qc Js", "low_a5", wild_ranks=["J"]) == "Two pair, kings and queens, ace kicker (low)"
    )


@pytest.mark.parametrize("ranking", ["low_a5"])
def test_low_needs_five_to_seven_cards(ranking: str):
    with pytest.raises(ValueError, match="5 or 6 or 7"):
        evaluate("As 2d 3c 4h", ranking)
