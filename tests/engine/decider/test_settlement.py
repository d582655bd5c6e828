"""Settlement: G2-11..G2-15, NSP, RES/EX-02 with D-RES-01, CAP, AO (D-AO), D-GEN-06/08, 3C."""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Declare, SitDown
from tables.engine.decider.events import (
    CARDS_DEALT,
    DEAL_ENDED,
    DECLARE_OPENED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
    TABLE_CLOSED,
)

from .helpers import Session, of_type, one, stack_deck, start, table, transfers, types

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")  # b, c, d, a (dealer a): b best


def settled(events: list) -> dict:
    return one(events, POT_SETTLED).data


def test_g2_11_single_in_wins_uncontested_without_showing() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("d", "out"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["reason"] == "uncontested"
    assert showdown["hands"] == []
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 20)]
    assert settled(events)["outcome"] == "uncontested"


def test_g2_12_g2_13_best_in_hand_wins_and_each_loser_matches_the_pot() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["player"] for h in showdown["hands"]] == ["b", "c", "d"]
    assert showdown["hands"][0]["category"] == "high_card"
    assert showdown["hands"][0]["value"]
    assert showdown["winners"] == ["b"]
    assert showdown["losers"] == ["c", "d"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 20),
        ("seat:c", "pot", 20),
        ("seat:d", "pot", 20),
    ]
    assert settled(events)["matchers"] == ["c", "d"]
    assert session.state.pot == 40  # D-G2-03: the next deal's pot
    assert types(events)[-1] == DEAL_ENDED  # the game goes on: no GameEnded


def test_g2_14_tie_split_odd_chip_to_the_winner_nearest_the_dealers_left() -> None:  # D-GEN-01
    deck = stack_deck("2c 7h", "As Kd", "Ah Kc")  # b, c, a: c and a tie
    session = table("abc", decks=[deck], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert settled(events)["outcome"] == "split"
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:c", 8),
        ("pot", "seat:a", 7),
        ("seat:b", "pot", 15),
    ]


def test_d_gen_01_odd_chip_to_dealers_left() -> None:
    deck = stack_deck("As Kd", "2c 7h", "Ah Kc")  # b, c, a: b and a tie, b is dealer's left
    session = table("abc", decks=[deck], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED))[:2] == [("pot", "seat:b", 8), ("pot", "seat:a", 7)]


def test_g2_15_all_in_players_tie_and_the_pot_is_emptied() -> None:
    session = table("ab", decks=[stack_deck("As Kd", "Ah Kc")], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("a", "in"))
    assert settled(events)["outcome"] == "all_tied"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 5), ("pot", "seat:a", 5)]
    assert session.state.pot == 0
    assert one(events, GAME_ENDED).data == {"game_no": 1, "reason": "all_tied", "final": False}


def test_nsp_01_02_tied_best_neither_win_nor_pay_and_the_pot_stays() -> None:
    deck = stack_deck("2c 7h", "As Kd", "Ah Kc")
    session = table("abc", decks=[deck], ante=5, ties="no_split")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert settled(events)["outcome"] == "no_split"
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 15)]
    assert session.state.pot == 30


def test_q_nsp_01_all_tie_under_no_split_keeps_the_pot() -> None:
    session = table("ab", decks=[stack_deck("As Kd", "Ah Kc")], ante=5, ties="no_split")
    start(session)
    events = session.declare(1, ("b", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == []
    assert session.state.pot == 10
    assert not of_type(events, GAME_ENDED)


def test_ex_02_reserve_sequence() -> None:  # RES-01, RES-02, RES-03, D-RES-01, D-RES-02
    session = table(decks=[DECK], ante=20, pot_limit=100)
    start(session)
    assert session.state.pot == 80
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 80),
        ("seat:c", "pot", 80),
        ("seat:d", "pot", 80),
        ("seat:a", "pot", 80),
        ("pot", "reserve", 140),
    ]
    assert (session.state.pot, session.state.reserve) == (100, 140)
    start(session)  # dealer b; c alone is in
    events = session.declare(2, ("c", "in"), ("d", "out"), ("a", "out"), ("b", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 100), ("reserve", "pot", 100)]
    assert (session.state.pot, session.state.reserve) == (100, 40)
    start(session)  # dealer c; d alone is in
    events = session.declare(3, ("d", "in"), ("a", "out"), ("b", "out"), ("c", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:d", 100), ("reserve", "pot", 40)]
    assert (session.state.pot, session.state.reserve) == (40, 0)
    assert settled(events)["pot"] == 40
    assert settled(events)["reserve"] == 0


def test_d_res_01_losers_payments_pool_with_the_reserve_after_a_contested_win() -> None:
    session = table(decks=[DECK], ante=20, pot_limit=100)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))  # pot 100, reserve 140
    start(session)  # dealer b: the same stacked deck gives c As Ks this time
    events = session.declare(2, ("c", "in"), ("d", "in"), ("a", "in"), ("b", "out"))
    # losers pay 2 x 100; pooled with the reserve 140: pot 100 (the limit), reserve 240
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:c", 100),
        ("seat:d", "pot", 100),
        ("seat:a", "pot", 100),
        ("pot", "reserve", 100),
    ]
    assert (session.state.pot, session.state.reserve) == (100, 240)


def test_res_01_antes_above_the_limit_go_to_the_reserve() -> None:
    session = table(decks=[DECK], ante=30, pot_limit=100)
    events = start(session)
    assert transfers(events)[-1] == ("pot", "reserve", 20)
    assert (session.state.pot, session.state.reserve) == (100, 20)


def test_cap_01_pay_limit_only_losers_pay_at_most_the_limit() -> None:
    session = table(decks=[DECK], ante=10, pot_limit=30, cap_rule="pay_limit_only")
    start(session)
    assert session.state.pot == 40  # no reserve under pay_limit_only
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:c", "pot", 30)]
    assert session.state.reserve == 0


def test_cap_02_max_loss_caps_each_payment() -> None:
    session = table(decks=[DECK], ante=10, max_loss=25)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 25),
        ("seat:d", "pot", 25),
    ]


def short_table(**options: object) -> Session:
    """Three players with 100 each, ante 40: the pot is 120 and every stack 60 after antes."""
    return table(
        "abc", decks=[stack_deck("As Ks", "Qd Jd", "2c 7h")], ante=40, buy_in=100, min_buy_in=40, **options
    )


def test_d_gen_06_declaring_in_needs_a_stack_covering_the_pot() -> None:
    session = short_table()
    start(session)
    assert session.fails(Declare("b", 1, "in")) == "insufficient_stack"
    session.do(Declare("b", 1, "out"))  # "out" is always allowed
    assert session.fails(Declare("c", 1, "in")) == "insufficient_stack"


def test_d_gen_06_pay_what_you_have() -> None:
    session = short_table(stack_policy="pay_what_you_have")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 120), ("seat:c", "pot", 60)]
    assert session.stack("c") == 0


def test_d_gen_06_allow_debt() -> None:
    session = short_table(stack_policy="allow_debt")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 120), ("seat:c", "pot", 120)]
    assert session.stack("c") == -60


def all_out(rule: str, deck: list[str] = DECK, players: str = "abcd") -> tuple[Session, list]:
    session = table(players, decks=[deck], ante=5, declare_mode="simultaneous", all_out=rule)
    start(session)
    order = session.state.live.order
    return session, session.declare(1, *((p, "out") for p in order))


def test_ao_01_all_out_carry() -> None:
    session, events = all_out("carry")
    assert transfers(of_type(events, POT_SETTLED)) == []
    assert one(events, SHOWDOWN_HELD).data["hands"] == []
    assert session.state.pot == 20
    assert not of_type(events, GAME_ENDED)


def test_ao_02_all_out_extra_ante() -> None:
    session, events = all_out("extra_ante")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("seat:b", "pot", 5),
        ("seat:c", "pot", 5),
        ("seat:d", "pot", 5),
        ("seat:a", "pot", 5),
    ]
    assert session.state.pot == 40


def test_ao_03_wimp_all_best_hand_pays_n_antes() -> None:
    _session, events = all_out("wimp_all")
    assert len(one(events, SHOWDOWN_HELD).data["hands"]) == 4
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 20)]
    assert settled(events)["matchers"] == ["b"]


def test_ao_04_wimp_others_best_hand_pays_n_minus_one_antes() -> None:
    _, events = all_out("wimp_others")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 15)]


def test_ao_05_best_matches_the_pot() -> None:
    session, events = all_out("best_matches")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 20)]
    assert session.state.pot == 40


def test_ao_03_tied_best_hands_share_the_wimp_payment_d_gen_01() -> None:
    _, events = all_out("wimp_all", stack_deck("As Kd", "Ah Kc", "2c 7h"), "abc")
    # 3 antes = 15 shared by b and c; b, nearest the dealer's left, pays the odd chip
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 8), ("seat:c", "pot", 7)]


def test_d_gen_08_game_ends_when_the_pot_empties_and_the_next_deal_antes() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("d", "out"), ("a", "out"))
    assert one(events, GAME_ENDED).data == {"game_no": 1, "reason": "uncontested", "final": False}
    started = start(session)
    assert started[0].data["game_no"] == 2
    assert len(transfers(started)) == 4  # G2-05: new antes


def test_d_gen_08_end_on_empty_pot_closes_the_table() -> None:
    session = table("ab", decks=[DECK], ante=5, end_on_empty_pot=True)
    start(session)
    events = session.declare(1, ("b", "in"), ("a", "out"))
    assert types(events)[-3:] == [DEAL_ENDED, GAME_ENDED, TABLE_CLOSED]
    assert one(events, GAME_ENDED).data["final"] is True
    assert transfers(of_type(events, TABLE_CLOSED)) == [
        ("seat:b", "player:b", 1005),
        ("seat:a", "player:a", 995),
    ]
    assert session.state.status == "closed"
    assert session.fails(SitDown("c", 100)) == "table_closed"


@pytest.mark.parametrize(
    ("ranking", "winner"),
    [
        ("guts3_sf_high", "b"),  # D-3C-01: straight flush > three of a kind
        ("guts3_trips_high", "c"),  # 3C_RANK_TRIPS_HIGH
    ],
)
def test_3c_04_ranking_preset_decides_the_showdown(ranking: str, winner: str) -> None:
    deck = stack_deck("5h 6h 7h", "Qs Qd Qc", "2c 9d 4s")
    session = table("abc", variant="guts3", decks=[deck], ante=5, ranking=ranking)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert settled(events)["winners"] == [winner]


def test_3c_06_classic_ranking_ignores_flushes() -> None:
    deck = stack_deck("2h 7h 9h", "As Kd 3c", "2c 9d 4s")
    for ranking, winner in (("guts3_sf_high", "b"), ("guts3_classic", "c")):
        session = table("abc", variant="guts3", decks=[deck], ante=5, ranking=ranking)
        start(session)
        events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
        assert settled(events)["winners"] == [winner], ranking


def test_d_gen_04_ace_low_option() -> None:
    deck = stack_deck("Ah 2c 3d", "Ks Kd 4c", "2h 9d 5s")
    for ace_low, winner in ((True, "b"), (False, "c")):
        session = table("abc", variant="guts3", decks=[deck], ante=5, ace_low=ace_low)
        start(session)
        events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
        assert settled(events)["winners"] == [winner], ace_low


def test_3c_02_three_card_guts_settles_like_two_card_guts() -> None:
    deck = stack_deck("Qs Qd Qc", "5h 6c 8d", "2c 9d 4s")
    session = table("abc", variant="guts3", decks=[deck], ante=5)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 15),
        ("seat:c", "pot", 15),
        ("seat:a", "pot", 15),
    ]
    assert one(events, SHOWDOWN_HELD).data["hands"][0]["category"] == "three_of_a_kind"


def test_ao_07_extra_card_then_a_new_declare_best_hand_of_all_cards_held() -> None:  # D-AO
    deck = ["2c", "3c", "7d", "4d", "As", "4h"]  # b: 2c 7d + As, a: 3c 4d + 4h
    session = table("ab", decks=[deck], ante=5, declare_mode="simultaneous", all_out="extra_card")
    start(session)
    events = session.declare(1, ("b", "out"), ("a", "out"))
    extra = of_type(events, CARDS_DEALT)
    assert [(e.data["player"], e.data["cards"], e.data["extra"]) for e in extra] == [
        ("b", ["2c", "7d", "As"], True),
        ("a", ["3c", "4d", "4h"], True),
    ]
    assert types(events)[-1] == DECLARE_OPENED  # everyone declares again
    assert not of_type(events, POT_SETTLED)
    events = session.declare(1, ("b", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["winners"] == ["a"]  # pair of fours beats ace-seven
    assert showdown["hands"][1]["category"] == "pair"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:a", 10), ("seat:b", "pot", 10)]


def test_ao_07_extra_card_carries_the_pot_when_the_pack_cannot_serve_a_round() -> None:
    session = table(
        "ab" + "cdefghijklmnopqrstuvwxyz",
        decks=[DECK],
        ante=1,
        declare_mode="simultaneous",
        all_out="extra_card",
        seats=26,
    )
    start(session)  # 26 players x 2 cards = 52
    events = session.declare(1, *((p, "out") for p in session.state.live.order))
    assert one(events, POT_SETTLED).data["outcome"] == "all_out_carry"
    assert session.state.pot == 26
