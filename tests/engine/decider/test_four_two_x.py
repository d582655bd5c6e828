"""Four-Two-Two and Four-Two-Three (RULES.md §11): 422-01..08 with EX-03, 423-01..03, 42X-01..03,
D-42X-01..04 and D-GEN-02, given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a. Four cards each are stacked; what the
program deals next follows in deal order (`deck`).
"""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Declare, ExpireDeclare
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    BOARD_DEALT,
    CARDS_DEALT,
    DEAL_ENDED,
    DECK_COMPARED,
    DECLARE_OPENED,
    DECLARE_TIMED_OUT,
    DECLARED,
    DECLARES_REVEALED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.view import Viewer, redact_event
from tables.engine.variants import get_variant, validate_options

from .helpers import Session, data_of, facts, later, of_type, one, stack_deck, start, table, transfers, types

HANDS = ("Ah Ad 9c 4s", "Kh Kd 8c 3s", "Qh Jd 7c 6s")  # b: aces, c: kings, a: queen high
GAMES = ("four_two_two", "four_two_three")


def deck(*then: str, hands: tuple[str, ...] = HANDS) -> list[str]:
    """Four cards each (422-02), then the next cards in deal order."""
    return [*stack_deck(*hands), *then]


def up(*pairs: str) -> list[str]:
    """Two face-up cards to each "in" player (422-05), one at a time in deal order."""
    split = [p.split() for p in pairs]
    return [pair[0] for pair in split] + [pair[1] for pair in split]


def game(
    *decks: list[str], variant: str = "four_two_two", players: str = "abc", **options: object
) -> Session:
    options.setdefault("ante", 5)
    return table(players, decks=decks or [deck()], variant=variant, **options)


def declare_all(session: Session, deal_no: int, **choices: str) -> list:
    """The coin declare: every fist at once (422-04), in any order."""
    return session.declare(deal_no, *choices.items())


# --- Four-Two-Two ---------------------------------------------------------------------------------


def test_422_01_four_two_two_is_a_variant_of_its_own() -> None:
    variant = get_variant("four_two_two")
    assert variant.title == "Four-Two-Two"
    assert "422" in variant.rules.split(", ")
    assert variant.game_ends == "lone_in_wins"


def test_422_02_each_player_receives_four_cards_face_down() -> None:
    session = game()
    events = start(session)
    dealt = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["face"], len(e.data["cards"])) for e in dealt] == [
        ("b", "down", 4),
        ("c", "down", 4),
        ("a", "down", 4),
    ]
    assert redact_event(dealt[0].type, dealt[0].data, Viewer("c"), deal_over=False)["cards"] is None


def test_422_04_sim_05_the_coin_declare_is_simultaneous_and_sealed() -> None:  # SIM-04
    session = game(deck(*up("Ac 9d", "Ks 8d")))
    opened = one(start(session), DECLARE_OPENED).data
    assert (opened["mode"], opened["players"]) == ("simultaneous", ["b", "c", "a"])
    first = session.do(Declare("a", 1, "out"))
    assert types(first) == [DECLARED]
    assert first[0].data["sealed"] is True
    events = declare_all(session, 1, c="in", b="in")
    assert one(events, DECLARES_REVEALED).data["choices"] == {"b": "in", "c": "in", "a": "out"}


def test_422_04_the_declare_mode_is_not_an_option() -> None:  # D-DECLARE
    with pytest.raises(DomainError) as caught:
        validate_options("four_two_two", {"declare_mode": "sequential"})
    assert caught.value.detail["option"] == "declare_mode"


def test_422_04_a_closed_fist_not_opened_by_the_deadline_is_out() -> None:  # DESIGN 2.8
    session = game(deck(*up("Ac 9d", "Ks 8d")))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"))
    events = session.do(ExpireDeclare(1), later(31))
    assert one(events, DECLARE_TIMED_OUT).data["players"] == ["a"]
    assert one(events, DECLARES_REVEALED).data["choices"]["a"] == "out"
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]


def test_422_05_the_in_players_get_two_face_up_cards_and_the_best_five_of_six_wins() -> None:
    session = game(deck(*up("Ac 9d", "Ks 8d")))
    start(session)
    events = declare_all(session, 1, b="in", c="in", a="out")
    face_up = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["face"], e.data["cards"]) for e in face_up] == [
        ("b", "up", ["Ac", "9d"]),
        ("c", "up", ["Ks", "8d"]),
    ]
    for viewer in (Viewer("a"), Viewer(None), Viewer("c")):  # public at once
        assert redact_event(face_up[0].type, face_up[0].data, viewer, deal_over=False)["cards"] == [
            "Ac",
            "9d",
        ]
    assert session.state.deal.hand_of("b") == ("Ah", "Ad", "9c", "4s", "Ac", "9d")
    assert session.state.deal.up == (("Ac", "9d"), ("Ks", "8d"), ())
    hands = {h["player"]: h for h in one(events, SHOWDOWN_HELD).data["hands"]}
    assert hands["b"]["category"] == hands["c"]["category"] == "full_house"
    assert hands["b"]["value"].startswith("Full house, aces")  # A-A-A-9-9, 4s unused
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]


@pytest.mark.parametrize("variant", GAMES)
def test_422_03_twos_are_wild_in_the_showdown(variant: str) -> None:  # 422-03
    hands = ("Ah Ad 9c 2s", "Kh Kd Kc 8s", "Qh Jd 7c 6s")
    # b: A-A-9-9 and a two: aces full (else two pair); c: three kings and nothing better
    then = up("9s 3d", "7d 4h") if variant == "four_two_two" else ["9s", "3d", "4h"]
    session = game(deck(*then, hands=hands), variant=variant)
    start(session)
    events = declare_all(session, 1, b="in", c="in", a="out")
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["category"] for h in showdown["hands"]] == ["full_house", "three_of_a_kind"]
    assert showdown["winners"] == ["b"]


def test_422_06_every_in_player_who_loses_matches_the_pot() -> None:
    session = game(deck(*up("Ac 9d", "Ks 8d", "Qs 2d")))
    start(session)
    events = declare_all(session, 1, b="in", c="in", a="in")
    assert one(events, SHOWDOWN_HELD).data["losers"] == ["c", "a"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 15),
        ("seat:c", "pot", 15),
        ("seat:a", "pot", 15),
    ]
    assert session.state.pot == 30
    assert not of_type(events, GAME_ENDED)


def test_422_07_ex_03_with_a_maximum_loss_of_5_each_loser_pays_only_5() -> None:  # CAP-01, D-CAP
    session = game(deck(*up("Ac 9d", "Ks 8d", "Qs 2d")), max_loss=5)
    start(session)
    assert session.state.pot == 15  # larger than 5
    events = declare_all(session, 1, b="in", c="in", a="in")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 15),
        ("seat:c", "pot", 5),
        ("seat:a", "pot", 5),
    ]
    assert session.state.pot == 10


def test_422_07_d_gen_06_declaring_in_needs_only_the_maximum_loss() -> None:
    session = Session()
    from tables.engine.decider.commands import OpenTable, SitDown

    session.do(
        OpenTable(
            "t1",
            "four_two_two",
            {"ante": 5, "max_loss": 5, "min_buy_in": 5},
            stacked_decks=[deck()],
            stacked_allowed=True,
        )
    )
    for player, buy_in in (("a", 100), ("b", 10), ("c", 9)):
        session.do(SitDown(player, buy_in))
    start(session)  # b holds 5, c 4 after the ante; pot 15
    session.do(Declare("b", 1, "in"))
    assert session.fails(Declare("c", 1, "in")) == "insufficient_stack"


@pytest.mark.parametrize("variant", GAMES)
def test_422_08_a_lone_in_takes_the_whole_pot_and_the_game_ends(variant: str) -> None:
    session = game(variant=variant)
    start(session)
    events = declare_all(session, 1, b="out", c="in", a="out")
    assert not of_type(events, CARDS_DEALT)
    assert not of_type(events, BOARD_DEALT)
    assert not of_type(events, SHOWDOWN_HELD)
    settled = one(events, POT_SETTLED).data
    assert settled["outcome"] == "uncontested"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 15)]
    assert types(events)[-2:] == [DEAL_ENDED, GAME_ENDED]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"


def test_d_42x_01_lone_in_wins_is_the_default() -> None:
    for variant in GAMES:
        assert validate_options(variant, {})["lone_in"] == "takes_pot"
        assert validate_options(variant, {"lone_in": "vs_deck"})["lone_in"] == "vs_deck"


# --- rules for both (42X) -----------------------------------------------------------------------


def test_42x_01_d_42x_02_only_the_players_who_went_out_ante_for_the_next_deal() -> None:
    first = deck(*up("Ac 9d", "Ks 8d"))
    session = game(first, deck())
    start(session)
    declare_all(session, 1, b="in", c="in", a="out")  # b wins, c matches, a went out
    assert session.state.pot == 15
    events = start(session)  # dealer b: c, a, b
    antes = one(events, ANTES_POSTED).data
    assert antes["paid"] == ["a"]
    assert transfers([one(events, ANTES_POSTED)]) == [("seat:a", "pot", 5)]
    assert session.state.pot == 20
    assert (session.stack("b"), session.stack("c"), session.stack("a")) == (1010, 980, 990)


def test_d_42x_02_a_new_game_antes_in_full() -> None:  # D-GEN-08
    session = game(deck(), deck())
    start(session)
    declare_all(session, 1, b="in", c="out", a="out")  # 422-08: the game ends
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == ["c", "a", "b"]
    assert session.state.game_no == 2


def test_42x_02_d_42x_03_nobody_in_the_best_four_cards_and_every_two_match() -> None:
    hands = ("Ah Ad 9c 4s", "Kh 2d 8c 3s", "Qh Jd 7c 6s")  # b: pair of aces; c: a two
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="out", c="out", a="out")
    assert not of_type(events, CARDS_DEALT)
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["reason"] == "all_out"
    assert [h["category"] for h in showdown["hands"]] == ["pair", "pair", "high_card"]
    assert showdown["winners"] == ["b"]
    settled = one(events, POT_SETTLED).data
    assert (settled["outcome"], settled["matchers"]) == ("twos_match", ["b", "c"])
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 15), ("seat:c", "pot", 15)]
    assert session.state.pot == 45


def test_d_42x_03_the_best_hand_holding_a_two_pays_once() -> None:
    hands = ("Ah 2d 9c 4s", "Kh Kd 8c 3s", "Qh Jd 7c 6s")  # b: aces with the wild two
    session = game(deck(hands=hands))
    start(session)
    events = declare_all(session, 1, b="out", c="out", a="out")
    assert one(events, POT_SETTLED).data["matchers"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 15)]


def test_d_42x_03_the_maximum_loss_caps_every_nobody_in_payment() -> None:
    hands = ("Ah Ad 9c 4s", "Kh 2d 8c 3s", "Qh Jd 7c 2h")
    session = game(deck(hands=hands), max_loss=5)
    start(session)
    events = declare_all(session, 1, b="out", c="out", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("seat:b", "pot", 5),
        ("seat:c", "pot", 5),
        ("seat:a", "pot", 5),
    ]


def test_d_42x_03_nobody_in_is_judged_on_the_four_cards_held_not_the_board() -> None:  # 423
    hands = ("Ks Kd 9c 8h", "Ah Qs 7c 6h", "4s 5d 3c Th")  # b: kings; c: ace high
    session = game(deck("Ad", "Ac", "5h", hands=hands), variant="four_two_three")
    start(session)
    events = declare_all(session, 1, b="out", c="out", a="out")
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["category"] for h in showdown["hands"]] == ["pair", "high_card", "high_card"]
    assert showdown["winners"] == ["b"]
    assert one(events, POT_SETTLED).data["matchers"] == ["b"]


def vs_deck(*deck_cards: str, hands: tuple[str, ...] = HANDS) -> Session:
    session = game(deck(*deck_cards, hands=hands), deck(), lone_in="vs_deck")
    start(session)
    return session


def test_42x_03_a_lone_in_who_beats_the_decks_four_cards_takes_the_pot_and_the_game_ends() -> None:
    session = vs_deck("Kc", "Qd", "7h", "6d")
    events = declare_all(session, 1, b="in", c="out", a="out")
    compared = data_of(one(events, DECK_COMPARED))
    assert compared == {
        "deal_no": 1,
        "player": "b",
        "cards": ["Ah", "Ad", "9c", "4s"],
        "deck_cards": ["Kc", "Qd", "7h", "6d"],
        "player_value": compared["player_value"],
        "deck_value": compared["deck_value"],
        "winner": "player",
    }
    assert one(events, POT_SETTLED).data["outcome"] == "beat_the_deck"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 15)]
    assert not of_type(events, CARDS_DEALT)
    assert facts(events)[-3:] == [POT_SETTLED, DEAL_ENDED, GAME_ENDED]
    assert redact_event(DECK_COMPARED, compared, Viewer("c"), deal_over=False) == compared


def test_42x_03_a_lone_in_who_loses_to_the_deck_matches_the_pot_and_play_goes_on() -> None:
    session = vs_deck("7h", "7d", "7s", "6d")  # three sevens beat a pair of aces
    events = declare_all(session, 1, b="in", c="out", a="out")
    assert one(events, DECK_COMPARED).data["winner"] == "deck"
    settled = one(events, POT_SETTLED).data
    assert (settled["outcome"], settled["matchers"]) == ("deck_won", ["b"])
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 15)]
    assert not of_type(events, GAME_ENDED)
    assert one(start(session), ANTES_POSTED).data["paid"] == ["c", "a"]  # D-42X-02


def test_42x_03_the_lone_ins_match_is_capped_by_the_maximum_loss() -> None:  # 422-07
    session = game(deck("7h", "7d", "7s", "6d"), lone_in="vs_deck", max_loss=5)
    start(session)
    events = declare_all(session, 1, b="in", c="out", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 5)]


def test_d_42x_04_ties_go_to_the_deck() -> None:
    session = vs_deck("Ac", "As", "9d", "4h")  # the same pair of aces, same kickers
    events = declare_all(session, 1, b="in", c="out", a="out")
    compared = data_of(one(events, DECK_COMPARED))
    assert compared["player_value"] == compared["deck_value"]
    assert compared["winner"] == "deck"


def test_d_42x_04_no_four_card_straights_or_flushes_and_twos_are_wild_for_the_deck() -> None:
    hands = ("Ah Kh Qh Jh", "Kc Kd 8c 3s", "Qc Jd 7c 6s")  # b: no straight flush, ace high
    session = vs_deck("2s", "9d", "5c", "3h", hands=hands)  # the deck: a wild two, nines
    events = declare_all(session, 1, b="in", c="out", a="out")
    compared = data_of(one(events, DECK_COMPARED))
    assert compared["winner"] == "deck"
    assert "nines" in compared["deck_value"].lower()


def test_42x_03_d_gen_02_the_decks_four_cards_count_in_what_one_pack_serves() -> None:
    assert get_variant("four_two_three").capacity(validate_options("four_two_three", {})) == 12
    assert (
        get_variant("four_two_three").capacity(validate_options("four_two_three", {"lone_in": "vs_deck"}))
        == 11
    )


# --- Four-Two-Three --------------------------------------------------------------------------------


def test_423_01_otherwise_as_four_two_two() -> None:
    two, three = get_variant("four_two_two"), get_variant("four_two_three")
    assert [o.name for o in two.options] == [o.name for o in three.options]
    assert three.game_ends == two.game_ends
    kinds = [s.kind for s in three.program]
    assert (
        kinds
        == [s.kind for s in two.program]
        == ["ante", "deal", "declare", "lone_in", "deal", "showdown", "settle"]
    )


def test_423_02_three_face_up_board_cards_visible_to_every_viewer_at_once() -> None:
    session = game(deck("Ks", "8d", "4h"), variant="four_two_three")
    start(session)
    events = declare_all(session, 1, b="in", c="in", a="out")
    assert not of_type(events, CARDS_DEALT)  # instead of cards to each player
    board = one(events, BOARD_DEALT)
    assert data_of(board) == {"deal_no": 1, "cards": ["Ks", "8d", "4h"]}
    for viewer in (Viewer("a"), Viewer("b"), Viewer(None), Viewer("x", "admin")):
        assert redact_event(board.type, board.data, viewer, deal_over=False) == board.data
    assert session.state.deal.board == ("Ks", "8d", "4h")
    assert session.state.deal.hand_of("b") == ("Ah", "Ad", "9c", "4s")


def test_423_03_the_best_five_of_seven_own_four_and_the_board() -> None:
    session = game(deck("Ks", "8d", "4h"), variant="four_two_three")
    start(session)
    events = declare_all(session, 1, b="in", c="in", a="out")
    hands = {h["player"]: h for h in one(events, SHOWDOWN_HELD).data["hands"]}
    assert hands["b"]["cards"] == ["Ah", "Ad", "9c", "4s"]  # own cards are shown
    assert hands["b"]["category"] == "two_pair"  # A-A-4-4-K
    assert hands["c"]["category"] == "full_house"  # K-K-K-8-8
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["c"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 15), ("seat:b", "pot", 15)]


# --- D-GEN-02 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "options", "most"),
    [
        ("four_two_two", {}, 8),  # 6 cards each
        ("four_two_two", {"lone_in": "vs_deck"}, 8),  # (52 - 4) // 6
        ("four_two_three", {"lone_in": "vs_deck"}, 11),  # (52 - 3 - 4) // 4
    ],
)
def test_d_gen_02_seats_beyond_what_one_pack_serves_are_refused(
    variant: str, options: dict, most: int
) -> None:
    assert validate_options(variant, {**options, "seats": most})["seats"] == most
    with pytest.raises(DomainError) as caught:
        validate_options(variant, {**options, "seats": most + 1})
    assert (caught.value.code, caught.value.detail["option"]) == ("invalid_option", "seats")
