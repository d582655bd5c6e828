"""Wolfie's Lou (RULES.md §13: WL-01..12, EX-09; §16: D-WL-01..06), given/when/then on the pure
decider.

Players "abc": the first dealer is a, so cards go b, c, a, five each, then the stock for the draw
(WL-02). Ante 10: the pot is 30. In `HANDS` b holds a flush (the trump chooser), a a pair of
queens, c ace high.
"""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import ChooseTrump, Declare, Exchange, ExpireDeclare, PlayCard
from tables.engine.decider.events import (
    CARD_PLAYED,
    CARDS_DEALT,
    DECLARE_OPENED,
    EXCHANGE_OPENED,
    GAME_ENDED,
    PLAY_OPENED,
    POT_SETTLED,
    TRICK_WON,
    TRUMP_CHOOSER_NAMED,
    TRUMP_CHOSEN,
    TRUMP_OPENED,
)
from tables.engine.decider.steps.tricks import legal_cards, trick_winner
from tables.engine.decider.view import Viewer, legal_actions, phase, redact_event, table_view
from tables.engine.decider.visibility import secret_keys
from tables.engine.variants import get_variant, validate_options

from .helpers import T0, Session, later, of_type, one, stack_deck, start, table, transfers

ANTE = 10
HANDS = ("Ah Kh 4h 3h 2h", "Ad Kd Qs Js 9c", "Qc Qd 8s 7s 6c")  # b, c, a (dealer a)
STOCK = ("Tc", "Td", "Th", "Ts", "5c", "5d")


def wl(hands: tuple[str, ...] = HANDS, players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table(players, decks=[[*stack_deck(*hands), *STOCK]], variant="wolfies_lou", **options)


def to_trump(session: Session, *ins: str, trump: str | None = None) -> list:
    """Start, everyone stands pat (WL-02), `ins` declare in and the others out (WL-03); then the
    chooser names `trump` if given."""
    out = start(session)
    for player in session.state.live.order:
        out += session.do(Exchange(player, 1, []))
    for player in session.state.live.order:
        out += session.do(Declare(player, 1, "in" if player in ins else "out"))
    if trump is not None:
        out += session.do(ChooseTrump(session.state.live.awaiting[0], 1, trump))
    return out


def play(session: Session, *moves: str) -> list:
    """Each move "name:card", in turn."""
    out: list = []
    for move in moves:
        name, card = move.split(":")
        out += session.do(PlayCard(name, 1, card))
    return out


# --- WL-01..03: the deal, the draw, the coin declare ----------------------------------------------


def test_wl_01_five_cards_each() -> None:
    session = wl()
    events = start(session)
    assert [len(e.data["cards"]) for e in of_type(events, CARDS_DEALT)] == [5, 5, 5]


def test_wl_02_a_draw_of_at_most_two_cards_before_the_declare() -> None:
    session = wl()
    events = start(session)
    assert one(events, EXCHANGE_OPENED).data["most"] == 2
    assert session.fails(Exchange("b", 1, ["2h", "3h", "4h"])) == "invalid_discards"
    session.do(Exchange("b", 1, ["2h", "3h"]))
    assert sorted(session.state.live.hand_of("b")) == sorted(["Ah", "Kh", "4h", "Tc", "Td"])


def test_wl_03_the_coin_declare_is_simultaneous() -> None:
    session = wl()
    start(session)
    events = [e for p in "bca" for e in session.do(Exchange(p, 1, []))]
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"


# --- D-WL-01: who plays ----------------------------------------------------------------------------


def test_d_wl_01_nobody_in_the_pot_carries() -> None:
    session = wl()
    events = to_trump(session)
    assert not of_type(events, TRUMP_CHOOSER_NAMED)
    assert session.state.pot == 30
    assert session.state.live is None


def test_d_wl_01_a_lone_in_takes_the_pot_without_tricks() -> None:
    session = wl()
    events = to_trump(session, "c")
    assert not of_type(events, TRUMP_CHOOSER_NAMED)
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 30)]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"


def test_d_wl_01_only_the_in_players_play_the_tricks() -> None:
    session = wl()
    to_trump(session, "b", "c", trump="no_trump")
    events = play(session, "b:Ah", "c:Ad")
    assert one(events, TRICK_WON).data["cards"] == [
        {"player": "b", "card": "Ah"},
        {"player": "c", "card": "Ad"},
    ]
    assert session.state.live.hand_of("a") == tuple(HANDS[2].split())


# --- WL-04, WL-05, D-WL-02: the questioning ------------------------------------------------------


def test_wl_04_wl_05_d_wl_02_the_best_poker_hand_chooses_trump() -> None:
    session = wl()
    events = to_trump(session, "b", "c", "a")
    named = one(events, TRUMP_CHOOSER_NAMED).data
    assert named["chooser"] == "b"
    assert [r["player"] for r in named["ranking"]] == ["b", "a", "c"]  # flush, pair, ace high
    assert one(events, TRUMP_OPENED).data["player"] == "b"
    assert phase(session.state) == "trump"


def test_d_wl_02_the_ranking_is_sealed_for_auditors_after_the_deal() -> None:
    session = wl()
    named = one(to_trump(session, "b", "c", "a"), TRUMP_CHOOSER_NAMED)
    assert secret_keys(named.type, named.data) == ("ranking",)
    for viewer in (Viewer("b"), Viewer("c"), Viewer(None, "admin"), Viewer(None, "auditor")):
        assert redact_event(named.type, named.data, viewer, deal_over=False)["ranking"] is None
    assert redact_event(named.type, named.data, Viewer("b"), deal_over=True)["ranking"] is None
    assert redact_event(named.type, named.data, Viewer(None, "auditor"), deal_over=True)["ranking"]
    assert redact_event(named.type, named.data, Viewer("c"), deal_over=False)["chooser"] == "b"


def test_d_wl_02_an_exact_tie_goes_to_the_player_nearest_the_dealers_left() -> None:
    hands = ("Ah Kd 9c 7s 4h", "As Kh 9d 7c 4s", "2c 3d 5h 8s Jd")  # b and c tie exactly
    session = wl(hands=hands)
    events = to_trump(session, "b", "c", "a")
    assert one(events, TRUMP_CHOOSER_NAMED).data["chooser"] == "b"


# --- WL-06, D-WL-05: the trump ----------------------------------------------------------------------


def test_wl_06_the_chooser_names_a_suit_no_trump_or_reverse() -> None:
    session = wl()
    to_trump(session, "b", "c", "a")
    action = next(a for a in legal_actions(session.state, "b", T0) if a["action"] == "trump")
    assert action["choices"] == ["c", "d", "h", "s", "no_trump", "reverse"]
    assert session.fails(ChooseTrump("b", 1, "spades")) == "invalid_choice"
    assert session.fails(ChooseTrump("c", 1, "h")) == "not_your_turn"
    events = session.do(ChooseTrump("b", 1, "reverse"))
    assert one(events, TRUMP_CHOSEN).data["trump"] == "reverse"
    assert table_view(session.state, Viewer("c"), T0)["deal"]["trump"] == "reverse"


def test_wl_06_a_trump_timeout_chooses_no_trump() -> None:
    session = wl()
    to_trump(session, "b", "c", "a")
    events = session.do(ExpireDeclare(1), later(31))
    chosen = one(events, TRUMP_CHOSEN).data
    assert (chosen["trump"], chosen["timed_out"]) == ("no_trump", True)


def test_d_wl_05_reverse_names_no_trump_suit() -> None:
    assert legal_cards(["Ah", "2c", "Kh"], "reverse") == ["Ah", "2c", "Kh"]
    assert trick_winner([("b", "Ah"), ("c", "Ac")], "reverse") == "b"


# --- WL-07, D-WL-03: five tricks, who leads ---------------------------------------------------------


def test_wl_07_d_wl_03_the_chooser_leads_then_each_tricks_winner() -> None:
    session = wl()
    events = to_trump(session, "b", "c", "a", trump="no_trump")
    assert one(events, PLAY_OPENED).data == {**one(events, PLAY_OPENED).data, "player": "b", "trick": 1}
    events = play(session, "b:2h", "c:9c", "a:Qc")
    assert one(events, TRICK_WON).data["winner"] == "a"
    assert of_type(events, PLAY_OPENED)[-1].data["player"] == "a"  # the winner leads
    assert session.fails(PlayCard("b", 1, "Ah")) == "not_your_turn"


def test_wl_07_wl_11_five_tricks_nobody_with_three_everybody_matches() -> None:
    """No trump: b 2 tricks, c 2, a 1 (equal ranks: the card played first wins, D-WL-04)."""
    session = wl()
    to_trump(session, "b", "c", "a", trump="no_trump")
    events = play(session, "b:Ah", "c:Ad", "a:6c")  # b: equal aces
    events += play(session, "b:2h", "c:9c", "a:Qc")  # a
    events += play(session, "a:7s", "b:3h", "c:Kd")  # c
    events += play(session, "c:Qs", "a:Qd", "b:4h")  # c: equal queens
    events += play(session, "c:Js", "a:8s", "b:Kh")  # b
    assert [e.data["winner"] for e in of_type(events, TRICK_WON)] == ["b", "a", "c", "c", "b"]
    settled = one(events, POT_SETTLED).data
    assert settled["outcome"] == "nobody_won"  # WL-11
    assert transfers([one(events, POT_SETTLED)]) == [
        ("seat:b", "pot", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]
    assert session.state.pot == 120  # D-WL-06: the next pot


def test_wl_10_three_tricks_take_the_pot_and_the_others_match() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="h")
    events: list = []
    for card in ("Ah", "Kh", "4h", "3h", "2h"):  # b leads trumps
        c_card = session.state.live.hand_of("c")[0]
        events += play(session, f"b:{card}", f"c:{c_card}", f"a:{session.state.live.hand_of('a')[0]}")
    assert {e.data["winner"] for e in of_type(events, TRICK_WON)} == {"b"}
    assert transfers([one(events, POT_SETTLED)]) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]
    assert session.state.pot == 60


def test_wl_12_option_no_trick_matches_double() -> None:
    session = wl(no_trick_double=True)
    to_trump(session, "b", "c", "a", trump="h")
    events: list = []
    for card in ("Ah", "Kh", "4h", "3h", "2h"):
        events += play(
            session,
            f"b:{card}",
            f"c:{session.state.live.hand_of('c')[0]}",
            f"a:{session.state.live.hand_of('a')[0]}",
        )
    assert transfers([one(events, POT_SETTLED)]) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 60),
        ("seat:a", "pot", 60),
    ]


def test_wl_12_doubles_only_a_player_without_a_trick() -> None:
    session = wl(no_trick_double=True)
    to_trump(session, "b", "c", "a", trump="no_trump")
    events = play(
        session,
        "b:Ah",
        "c:Ad",
        "a:6c",
        "b:2h",
        "c:9c",
        "a:Qc",
        "a:7s",
        "b:3h",
        "c:Kd",
        "c:Qs",
        "a:Qd",
        "b:4h",
        "c:Js",
        "a:8s",
        "b:Kh",
    )
    assert {t[0]: t[2] for t in transfers([one(events, POT_SETTLED)])} == {
        "seat:b": 30,
        "seat:c": 30,
        "seat:a": 30,
    }


# --- D-WL-04, EX-09: legal play and the winner -------------------------------------------------------


def test_d_wl_04_holding_a_trump_he_must_play_one() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="s")
    play(session, "b:Ah")  # b holds no spade
    assert session.fails(PlayCard("c", 1, "9c")) == "must_play_trump"
    action = next(a for a in legal_actions(session.state, "c", T0) if a["action"] == "play")
    assert action["choices"] == ["Qs", "Js"]  # exactly what is accepted
    play(session, "c:Js")


def test_d_wl_04_holding_no_trump_any_card_and_no_duty_to_follow_suit() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="d")
    play(session, "b:Ah")  # b holds no diamond
    action = next(a for a in legal_actions(session.state, "c", T0) if a["action"] == "play")
    assert action["choices"] == ["Ad", "Kd"]
    play(session, "c:Kd")
    events = play(session, "a:Qd")
    assert one(events, TRICK_WON).data["winner"] == "c"  # the highest trump


def test_d_wl_04_a_card_not_held_is_refused() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="no_trump")
    assert session.fails(PlayCard("b", 1, "Ad")) == "card_not_held"
    assert session.fails(PlayCard("b", 1, "Xx")) == "invalid_card"
    play(session, "b:Ah")
    assert session.fails(PlayCard("c", 1, "Ah")) == "card_not_held"  # played already


def test_ex_09_without_a_trump_played_the_highest_card_wins() -> None:
    assert trick_winner([("b", "Ah"), ("c", "Kd"), ("a", "2s")], "c") == "b"  # no club played
    assert trick_winner([("b", "Ah"), ("c", "2c"), ("a", "Ks")], "c") == "c"  # a club wins
    assert trick_winner([("b", "3c"), ("c", "Qc"), ("a", "As")], "c") == "c"  # the highest club


def test_d_wl_04_no_trump_equal_ranks_the_first_played_wins() -> None:
    assert trick_winner([("b", "Kh"), ("c", "Ks"), ("a", "Qs")], "no_trump") == "b"
    assert trick_winner([("b", "2h"), ("c", "Ks"), ("a", "Kd")], "no_trump") == "c"


def test_d_wl_04_reverse_twos_are_highest_and_aces_lowest() -> None:
    assert trick_winner([("b", "3h"), ("c", "2s"), ("a", "Ad")], "reverse") == "c"
    assert trick_winner([("b", "Ah"), ("c", "Kd")], "reverse") == "c"
    session = wl()
    to_trump(session, "b", "c", "a", trump="reverse")
    events = play(session, "b:2h", "c:Ad", "a:6c")
    assert one(events, TRICK_WON).data["winner"] == "b"


def test_d_wl_04_a_play_timeout_plays_the_lowest_legal_card() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="s")
    events = session.do(ExpireDeclare(1), later(31))  # b: any card
    played = one(events, CARD_PLAYED).data
    assert (played["card"], played["timed_out"]) == ("2h", True)
    events = session.do(ExpireDeclare(1), later(62))  # c: a spade
    assert one(events, CARD_PLAYED).data["card"] == "Js"


# --- hidden information: a played card is public, the rest stays secret ------------------------------


def test_wl_07_a_played_card_is_public_and_the_rest_of_the_hand_stays_secret() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="no_trump")
    events = play(session, "b:Ah")
    played = one(events, CARD_PLAYED)
    assert secret_keys(played.type, played.data) == ()
    view = table_view(session.state, Viewer("c"), T0)["deal"]
    players = {p["player"]: p for p in view["players"]}
    assert players["b"]["cards"] is None
    assert players["b"]["card_count"] == 4
    assert view["tricks"]["current"] == [{"player": "b", "card": "Ah"}]
    own = table_view(session.state, Viewer("b"), T0)["deal"]["players"][0]["cards"]
    assert own == ["Kh", "4h", "3h", "2h"]
    dealt = of_type(session.events, CARDS_DEALT)[0]
    assert redact_event(dealt.type, dealt.data, Viewer("c"), deal_over=True)["cards"] is None


def test_wl_10_the_view_counts_tricks_won_per_player() -> None:
    session = wl()
    to_trump(session, "b", "c", "a", trump="no_trump")
    play(session, "b:Ah", "c:Ad", "a:6c", "b:2h", "c:9c", "a:Qc")
    tricks = table_view(session.state, Viewer(None), T0)["deal"]["tricks"]
    assert tricks["won"] == {"b": 1, "c": 0, "a": 1}
    assert [t["winner"] for t in tricks["finished"]] == ["b", "a"]
    assert phase(session.state) == "tricks"


def test_wl_variant_is_data() -> None:
    variant = get_variant("wolfies_lou")
    assert [s.kind for s in variant.program] == [
        "ante",
        "deal",
        "exchange",
        "declare",
        "all_out",
        "lone_in",
        "questioning",
        "trump",
        "tricks",
        "settle",
    ]
    assert variant.max_seats == 10  # 5 each + a draw of 2
    assert variant.game_ends == "lone_in_wins"
    assert validate_options("wolfies_lou", {})["no_trick_double"] is False


@pytest.mark.parametrize("double", [False, True])
def test_d_gen_06_in_costs_the_pot_or_twice_it_under_wl_12(double: bool) -> None:
    session = wl(no_trick_double=double, buy_in=100, min_buy_in=50)
    start(session)
    for player in "bca":
        session.do(Exchange(player, 1, []))
    action = next(a for a in legal_actions(session.state, "b", T0) if a["action"] == "declare")
    assert action["in_cost"] == (60 if double else 30)
