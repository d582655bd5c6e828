"""Three-stage games and Three-Five-Seven (RULES.md §12): TSG-01..03, 357-01..25, D-357-01..03,
given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a. Every player receives every stage's
cards (TSG-03), so a hand of seven cards per player stacks a whole deal.
"""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Declare
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    CARDS_DEALT,
    DEAL_ENDED,
    DECLARE_OPENED,
    GAME_ENDED,
    LEG_AWARDED,
    POT_AWARDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.view import Viewer, redact_event, table_view
from tables.engine.variants import get_variant, validate_options

from .helpers import (
    T0,
    Session,
    data_of,
    facts,
    of_type,
    one,
    stack_deck,
    stages_started,
    start,
    table,
    transfers,
    types,
)

# stage:        1 (3s wild)    2 (5s wild)  3 (7s wild)
DECK = stack_deck(
    "As Ad 3c  5h 5d  7s 7d",  # b: three aces; four aces (not five); four aces (not five)
    "Ks Kd Qc  Jh Td  9s 8d",  # c: pair of kings; pair of kings; straight, king high
    "2s 4d 6c  8h Tc  Qh Ac",  # a: high card all along
)
ANTE = 5
POT = 3 * ANTE


def tsg(*decks: list[str], players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table(players, decks=decks or [DECK], variant="three_five_seven", **options)


def to_stage(session: Session, stage: int, deal_no: int = 1) -> None:
    """Everyone out until the deal reaches `stage` (357-07, 357-16: nothing happens)."""
    while session.state.live.stage < stage:
        session.declare(deal_no, *((p, "out") for p in session.state.live.order))


def hand_sizes(session: Session) -> list[int]:
    return [len(h) for h in session.state.deal.hands]


# --- TSG: three stages ---------------------------------------------------------------------------


def test_tsg_01_357_01_three_stages_of_three_five_and_seven_cards() -> None:
    session = tsg()
    events = start(session)
    assert [s["name"] for s in stages_started(session, events)] == ["three cards"]
    assert hand_sizes(session) == [3, 3, 3]
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert stages_started(session, events) == [{"deal_no": 1, "stage": 2, "name": "five cards"}]
    assert hand_sizes(session) == [5, 5, 5]
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert stages_started(session, events) == [{"deal_no": 1, "stage": 3, "name": "seven cards"}]
    assert hand_sizes(session) == [7, 7, 7]


def test_tsg_02_357_15_357_20_every_stage_has_its_own_declare() -> None:
    session = tsg()
    opened = [one(start(session), DECLARE_OPENED)]
    for _ in range(2):
        events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
        opened.append(of_type(events, DECLARE_OPENED)[-1])
    assert [e.data["players"] for e in opened] == [["b"], ["b"], ["b"]]
    assert session.state.live.stage == 3
    assert session.state.live.choices == (None, None, None)  # choices reset per declare


def test_tsg_03_357_14_out_players_keep_their_cards_and_play_later_stages() -> None:
    session = tsg()
    start(session)
    session.declare(1, ("b", "out"), ("c", "in"), ("a", "in"))  # c beats a: a pays c
    assert session.state.deal.hand_of("b") == ("As", "Ad", "3c", "5h", "5d")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["hands"][0]["cards"] == ["As", "Ad", "3c", "5h", "5d"]
    assert showdown["winners"] == ["b"]


# --- stage one -------------------------------------------------------------------------------------


def test_357_05_every_player_antes_and_receives_three_cards_face_down() -> None:
    session = tsg()
    events = start(session)
    assert transfers([one(events, ANTES_POSTED)]) == [
        ("seat:b", "pot", 5),
        ("seat:c", "pot", 5),
        ("seat:a", "pot", 5),
    ]
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["face"], len(e.data["cards"])) for e in dealt] == [("down", 3)] * 3
    assert redact_event(dealt[0].type, dealt[0].data, Viewer("c"), deal_over=False)["cards"] is None


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_357_06_the_declare_is_sequential_or_simultaneous(mode: str) -> None:
    session = tsg(declare_mode=mode)
    opened = one(start(session), DECLARE_OPENED).data
    assert opened["mode"] == mode
    assert opened["players"] == (["b"] if mode == "sequential" else ["b", "c", "a"])
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert session.state.seat_of("b").legs == 1


def test_357_07_nobody_in_at_stage_one_nothing_happens() -> None:
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert not transfers(events)
    assert not of_type(events, LEG_AWARDED)
    assert session.state.pot == POT
    assert session.state.live.stage == 2


def test_357_03_357_08_a_lone_in_earns_a_leg_and_play_moves_to_stage_two() -> None:  # 357-03, 357-08
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert data_of(one(events, LEG_AWARDED)) == {"deal_no": 1, "stage": 1, "player": "c", "legs": 1}
    assert not transfers(events)  # no pot for a lone "in"
    assert session.state.pot == POT
    assert session.state.seat_of("c").legs == 1
    assert session.state.live.stage == 2


def test_357_09_d_357_03_several_in_compare_privately_at_stage_one() -> None:
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD)
    assert showdown.data["private"] is True
    assert [h["player"] for h in showdown.data["hands"]] == ["b", "c"]
    assert (showdown.data["winners"], showdown.data["losers"]) == (["b"], ["c"])

    def seen(viewer: Viewer, over: bool = False) -> object:
        return redact_event(showdown.type, showdown.data, viewer, deal_over=over)["hands"]

    assert seen(Viewer("c")) == showdown.data["hands"]  # the players compared
    assert seen(Viewer("a")) is None  # not to the player out
    assert seen(Viewer(None)) is None
    assert seen(Viewer("x", "auditor")) is None
    assert seen(Viewer("x", "auditor"), over=True) == showdown.data["hands"]
    assert seen(Viewer("a"), over=True) is None
    assert redact_event(showdown.type, showdown.data, Viewer("a"), deal_over=False)["winners"] == ["b"]
    # stage two has dealt new cards: the comparison is over, each sees his own hand again
    cards = {p["player"]: p["cards"] for p in table_view(session.state, Viewer("c"), T0)["deal"]["players"]}
    assert cards == {"b": None, "c": ["Ks", "Kd", "Qc", "Jh", "Td"], "a": None}


def test_357_10_stage_one_trips_beat_a_pair_no_straights_or_flushes_threes_wild() -> None:
    deck = stack_deck(
        "5h 6h 7h  2h 4h  8s 9s",  # b: no straight flush in stage one: seven high
        "2c 2d 9c  4c 6d  Js Qs",  # c: a pair of twos
        "Kh 3d 4s  6s 8c  Th Jh",
    )  # a: K and a wild three: a pair of kings
    session = tsg(deck)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["category"] for h in showdown["hands"]] == ["high_card", "pair", "pair"]
    assert showdown["winners"] == ["a"]


def test_357_10_three_aces_with_a_wild_three_beat_a_pair() -> None:
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    hands = one(events, SHOWDOWN_HELD).data["hands"]
    assert [h["category"] for h in hands] == ["three_of_a_kind", "pair"]


def test_357_11_d_357_01_each_losing_in_player_pays_the_winner_the_pot_amount() -> None:  # 357-11
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    settled = one(events, POT_SETTLED)
    assert (settled.data["outcome"], settled.data["winners"], settled.data["matchers"]) == (
        "won",
        ["b"],
        ["c", "a"],
    )
    assert transfers([settled]) == [("seat:c", "seat:b", POT), ("seat:a", "seat:b", POT)]
    assert {t["reason"] for t in settled.data["transfers"]} == {"loser_paid"}
    assert (session.stack("b"), session.stack("c"), session.stack("a")) == (1025, 980, 980)


def test_357_13_the_pot_does_not_change() -> None:
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert not [t for t in transfers(events) if "pot" in t[:2]]
    assert one(events, POT_SETTLED).data["pot"] == POT
    assert session.state.pot == POT


def test_357_12_d_357_02_d_gen_01_tied_winners_share_one_pot_amount_per_loser() -> None:  # 357-12
    deck = stack_deck(
        "Ah Ad 9c  4c 6d  Js Qs",  # b and c: a pair of aces, nine kicker
        "As Ac 9d  4h 6h  8s Ts",
        "Kh 8c 4s  6s 8h  Th Jh",
    )  # a: king high
    session = tsg(deck)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    settled = one(events, POT_SETTLED).data
    assert (settled["outcome"], settled["winners"], settled["matchers"]) == ("split", ["b", "c"], ["a"])
    # 15 between two winners: the odd chip to the winner nearest the dealer's left (b)
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:a", "seat:b", 8), ("seat:a", "seat:c", 7)]
    assert session.state.pot == POT


def test_357_12_all_in_players_tied_pay_nothing() -> None:  # 357-12
    deck = stack_deck("Ah Ad 9c  4c 6d  Js Qs", "As Ac 9d  4h 6h  8s Ts", "Kh 8c 4s  6s 8h  Th Jh")
    session = tsg(deck)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert one(events, POT_SETTLED).data["outcome"] == "all_tied"
    assert not transfers(events)


def test_357_11_the_maximum_loss_caps_each_payment() -> None:  # CAP-02
    session = tsg(max_loss=4)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:c", "seat:b", 4), ("seat:a", "seat:b", 4)]


# --- stage two ---------------------------------------------------------------------------------------


def test_357_14_everyone_receives_two_more_cards_face_down() -> None:
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["face"], e.data["cards"]) for e in dealt] == [
        ("b", "down", ["As", "Ad", "3c", "5h", "5d"]),
        ("c", "down", ["Ks", "Kd", "Qc", "Jh", "Td"]),
        ("a", "down", ["2s", "4d", "6c", "8h", "Tc"]),
    ]


def test_357_16_stage_two_nobody_in_nothing_one_in_a_leg() -> None:
    session = tsg()
    start(session)
    session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert not of_type(events, LEG_AWARDED)
    assert not transfers(events)
    session = tsg()
    start(session)
    session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert data_of(one(events, LEG_AWARDED)) == {"deal_no": 1, "stage": 2, "player": "c", "legs": 2}


def test_357_17_d_357_03_stage_two_is_five_card_poker_with_fives_wild_not_threes() -> None:
    session = tsg()
    start(session)
    to_stage(session, 2)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    hands = {h["player"]: h for h in showdown["hands"]}
    # A-A, the wild 5-5 and a three that is no longer wild: four aces, not five
    assert hands["b"]["category"] == "four_of_a_kind"
    assert hands["c"]["category"] == "pair"  # K-K-Q-J-10: no straight
    assert showdown["winners"] == ["b"]


def test_d_357_03_stage_two_is_compared_privately_too() -> None:
    session = tsg()
    start(session)
    to_stage(session, 2)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD)
    assert showdown.data["private"] is True
    assert redact_event(showdown.type, showdown.data, Viewer("a"), deal_over=False)["hands"] is None


def test_357_18_the_losing_in_players_pay_the_winner_at_stage_two() -> None:
    session = tsg()
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))  # stage 1: c pays b 15
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:a", "seat:b", POT)]
    assert session.state.pot == POT


# --- stage three --------------------------------------------------------------------------------------


def test_357_19_357_20_two_more_cards_each_and_the_third_declare() -> None:
    session = tsg()
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert [len(e.data["cards"]) for e in of_type(events, CARDS_DEALT)] == [7, 7, 7]
    assert of_type(events, DECLARE_OPENED)[-1].data["players"] == ["b"]
    assert session.state.live.stage == 3


def test_357_21_nobody_in_at_stage_three_ends_the_hand_and_the_next_antes_again() -> None:
    session = tsg(DECK, DECK)
    start(session)
    to_stage(session, 3)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert facts(events)[-3:] == [SHOWDOWN_HELD, POT_SETTLED, DEAL_ENDED]
    assert not transfers(events)
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == ["c", "a", "b"]
    assert session.state.pot == 2 * POT


def test_357_22_a_lone_in_at_stage_three_earns_a_leg() -> None:
    session = tsg()
    start(session)
    to_stage(session, 3)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "in"))
    assert data_of(one(events, LEG_AWARDED)) == {"deal_no": 1, "stage": 3, "player": "a", "legs": 1}
    assert types(events)[-1] == DEAL_ENDED


def test_357_23_d_357_03_stage_three_is_shown_best_five_of_seven_sevens_wild() -> None:
    session = tsg()
    start(session)
    to_stage(session, 3)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD)
    assert "private" not in showdown.data  # shown to everyone
    assert redact_event(showdown.type, showdown.data, Viewer(None), deal_over=False) == showdown.data
    hands = {h["player"]: h for h in showdown.data["hands"]}
    assert hands["b"]["category"] == "four_of_a_kind"  # A-A and two wild sevens; fives not wild
    assert hands["c"]["category"] == "straight"  # K-Q-J-10-9 of seven cards
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:c", "seat:b", POT), ("seat:a", "seat:b", POT)]
    cards = {p["player"]: p["cards"] for p in table_view(session.state, Viewer("x"), T0)["deal"]["players"]}
    assert cards["c"] == ["Ks", "Kd", "Qc", "Jh", "Td", "9s", "8d"]


# --- legs, the pot and the end of the game --------------------------------------------------------


def test_357_24_legs_stay_across_hands_a_new_ante_and_the_next_dealer() -> None:
    session = tsg(DECK, DECK)
    start(session)
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))  # b: 1 leg
    session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))  # c: 1 leg
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    assert not of_type(events, GAME_ENDED)
    events = start(session)
    assert [s["stage"] for s in stages_started(session, events)] == [1]
    assert session.state.deal.dealer == "b"
    assert one(events, ANTES_POSTED).data["paid"] == ["c", "a", "b"]
    assert hand_sizes(session) == [3, 3, 3]
    assert [s.legs for s in session.state.seats] == [0, 1, 1]  # a, b, c


def test_357_04_357_25_three_legs_take_the_whole_pot_and_end_the_game() -> None:
    session = tsg()
    start(session)
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert session.state.seat_of("b").legs == 2
    events = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert data_of(one(events, LEG_AWARDED)) == {"deal_no": 1, "stage": 3, "player": "b", "legs": 3}
    assert transfers([one(events, POT_AWARDED)]) == [("pot", "seat:b", POT)]
    assert facts(events)[-6:] == [
        LEG_AWARDED,
        SHOWDOWN_HELD,
        POT_SETTLED,
        POT_AWARDED,
        DEAL_ENDED,
        GAME_ENDED,
    ]
    assert session.state.pot == 0
    assert session.stack("b") == 1010
    assert session.state.seat_of("b").legs == 0  # legs reset


def test_357_25_the_third_leg_at_any_stage_takes_the_pot_at_once() -> None:
    session = tsg(DECK, DECK)
    start(session)
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))  # b: 1
    session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))  # b: 2
    session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))  # c: 1
    start(session)  # c, a, b
    assert session.state.pot == 2 * POT
    events = session.declare(2, ("c", "out"), ("a", "out"), ("b", "in"))  # stage one
    assert data_of(one(events, LEG_AWARDED)) == {"deal_no": 2, "stage": 1, "player": "b", "legs": 3}
    awarded = one(events, POT_AWARDED)
    assert awarded.data["player"] == "b"
    assert awarded.data["legs"] == 3
    assert transfers([awarded]) == [("pot", "seat:b", 2 * POT)]
    assert facts(events)[-6:] == [
        LEG_AWARDED,
        SHOWDOWN_HELD,
        POT_SETTLED,
        POT_AWARDED,
        DEAL_ENDED,
        GAME_ENDED,
    ]
    assert one(events, GAME_ENDED).data["reason"] == "pot_awarded"
    assert stages_started(session, events) == []  # no stage two
    assert session.state.pot == 0
    assert [s.legs for s in session.state.seats] == [0, 0, 0]  # every leg resets
    assert session.state.game_no == 1
    start(session)
    assert session.state.game_no == 2


def test_357_02_several_in_win_from_the_other_players_not_from_the_pot() -> None:  # Q-357-01 (a)
    session = tsg()
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert not of_type(events, LEG_AWARDED)
    assert transfers(events) == [("seat:c", "seat:b", POT)]


# --- guards and the table ------------------------------------------------------------------------------


def test_357_wrong_stage_when_the_declare_names_another_stage() -> None:
    session = tsg()
    start(session)
    assert session.fails(Declare("b", 1, "in", stage=2)) == "wrong_stage"
    session.do(Declare("b", 1, "out", stage=1))
    session.declare(1, ("c", "out"), ("a", "out"))
    assert session.fails(Declare("b", 1, "in", stage=1)) == "wrong_stage"
    assert session.fails(Declare("b", 1, "in", stage=3)) == "wrong_stage"
    session.do(Declare("b", 1, "in", stage=2))
    assert session.state.live.choices[0] == "in"


def test_d_357_03_d_gen_02_at_most_seven_players() -> None:
    assert get_variant("three_five_seven").max_seats == 7
    assert validate_options("three_five_seven", {"seats": 7})["seats"] == 7
    with pytest.raises(DomainError) as caught:
        validate_options("three_five_seven", {"seats": 8})
    assert (caught.value.code, caught.value.detail["option"]) == ("invalid_option", "seats")


def test_d_gen_06_declaring_in_needs_a_stack_covering_the_pot() -> None:
    session = tsg(buy_in=20)  # 15 after the ante; the pot is 15
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))  # b wins 30
    session.declare(1, ("b", "out"))
    assert session.fails(Declare("c", 1, "in")) == "insufficient_stack"  # c has 0
