"""Seats, money in and out of the table, opening and closing (D-GEN-06, D-GEN-07)."""

from __future__ import annotations

import json

from tables.engine.decider.commands import CloseTable, Leave, OpenTable, SitDown, StartDeal, TopUp
from tables.engine.decider.events import PLAYER_LEFT, TABLE_CLOSED, TABLE_OPENED, parse
from tables.engine.decider.evolve import fold

from .helpers import Session, one, stack_deck, start, table, transfers

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")


def test_table_opened_records_variant_options_and_stacked_decks() -> None:
    session = table("", decks=[DECK])
    data = one(session.events, TABLE_OPENED).data
    assert data["variant"] == "guts2"
    assert data["options"]["declare_mode"] == "sequential"
    assert data["stacked"] is True
    assert data["stacked_decks"] == [DECK]


def test_stacked_decks_need_the_setting() -> None:
    assert (
        Session().fails(OpenTable("t1", "guts2", {}, [DECK], stacked_allowed=False))
        == "stacked_decks_not_allowed"
    )


def test_stacked_decks_must_be_cards() -> None:
    assert Session().fails(OpenTable("t1", "guts2", {}, [["As", "Zz"]], True)) == "invalid_card"
    assert Session().fails(OpenTable("t1", "guts2", {}, [["As", "As"]], True)) == "invalid_card"


def test_open_table_validates_options_and_variant() -> None:
    assert Session().fails(OpenTable("t1", "guts2", {"ante": -1})) == "invalid_option"
    assert Session().fails(OpenTable("t1", "poker9", {})) == "unknown_variant"
    assert table("").fails(OpenTable("t1", "guts2", {})) == "table_already_open"


def test_sit_down_buys_in_from_the_bankroll() -> None:
    session = table("", min_buy_in=50, max_buy_in=500)
    events = session.do(SitDown("a", 200))
    assert transfers(events) == [("player:a", "seat:a", 200)]
    assert events[0].data["seat"] == 0
    assert session.stack("a") == 200


def test_d_gen_06_buy_in_between_min_and_max() -> None:
    session = table("", min_buy_in=50, max_buy_in=500)
    assert session.fails(SitDown("a", 49)) == "invalid_amount"
    assert session.fails(SitDown("a", 501)) == "invalid_amount"
    assert session.fails(SitDown("a", 0)) == "invalid_amount"


def test_already_seated_and_table_full() -> None:
    session = table("ab", seats=2)
    assert session.fails(SitDown("a", 100)) == "already_seated"
    assert session.fails(SitDown("c", 100)) == "table_full"


def test_top_up_between_deals_within_max_buy_in() -> None:
    session = table("ab", decks=[DECK], buy_in=300, max_buy_in=500)
    assert transfers(session.do(TopUp("a", 200))) == [("player:a", "seat:a", 200)]
    assert session.fails(TopUp("a", 1)) == "invalid_amount"
    assert session.fails(TopUp("z", 1)) == "not_seated"
    start(session)
    assert session.fails(TopUp("b", 10)) == "deal_in_progress"


def test_leave_cashes_out_the_whole_stack() -> None:
    session = table("ab", buy_in=300)
    events = session.do(Leave("a"))
    assert transfers(events) == [("seat:a", "player:a", 300)]
    assert one(events, PLAYER_LEFT).data["cash_out"] == 300
    assert session.state.seat_of("a") is None
    assert session.fails(Leave("a")) == "not_seated"


def test_leave_refused_while_dealt_into_a_live_deal() -> None:
    session = table("abc", decks=[stack_deck("As Ks", "Qd Jd")], buy_in=300)
    session.do(StartDeal())
    assert session.fails(Leave("a")) == "liability_open"


def test_d_gen_07_close_shares_pot_and_reserve_with_odd_chips_from_dealers_left() -> None:
    session = table(
        "abc", decks=[stack_deck("As Ks", "Qd Jd", "2c 7h")], ante=5, buy_in=100, declare_mode="simultaneous"
    )
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))  # AO-01: pot 15 carries
    assert session.state.pot == 15
    session.do(Leave("c"))  # c leaves; a and b share
    events = session.do(CloseTable())
    closed = one(events, TABLE_CLOSED).data
    # dealer a, so b is nearest the dealer's left and gets the odd chip (D-GEN-01)
    assert closed["shares"] == {"b": 8, "a": 7}
    assert transfers(events) == [
        ("pot", "seat:b", 8),
        ("pot", "seat:a", 7),
        ("seat:b", "player:b", 103),
        ("seat:a", "player:a", 102),
    ]
    assert session.state.status == "closed"
    assert session.state.pot == 0
    assert session.fails(SitDown("d", 100)) == "table_closed"


def test_close_refused_during_a_deal() -> None:
    session = table("ab", decks=[DECK])
    start(session)
    assert session.fails(CloseTable()) == "deal_in_progress"


def test_d_gen_07_close_shares_the_reserve_too() -> None:
    session = table(decks=[stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")], ante=20, pot_limit=100)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))  # EX-02: 100 + 140
    events = session.do(CloseTable())
    closed = one(events, TABLE_CLOSED).data
    assert closed["shares"] == {"b": 60, "c": 60, "d": 60, "a": 60}
    assert transfers(events)[:5] == [
        ("pot", "seat:b", 60),
        ("pot", "seat:c", 40),
        ("reserve", "seat:c", 20),
        ("reserve", "seat:d", 60),
        ("reserve", "seat:a", 60),
    ]
    assert closed["cash_outs"] == {"b": 1120, "c": 960, "d": 960, "a": 960}
    assert (session.state.pot, session.state.reserve) == (0, 0)


def test_d_gen_06_leaving_with_a_debt_settles_it_from_the_bankroll() -> None:
    session = table(
        "abc",
        decks=[stack_deck("As Ks", "Qd Jd", "2c 7h")],
        ante=40,
        buy_in=100,
        min_buy_in=40,
        stack_policy="allow_debt",
    )
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))  # c owes 60
    events = session.do(Leave("c"))
    assert transfers(events) == [("player:c", "seat:c", 60)]
    assert one(events, PLAYER_LEFT).data["cash_out"] == -60


def test_state_from_stored_events_equals_state_from_memory() -> None:
    """The store gives JSON back with keys sorted; the folded state must not depend on key order."""
    session = table("abc")
    start(session)
    stored = [parse(e.type, json.loads(json.dumps(e.data, sort_keys=True))) for e in session.events]
    assert fold(stored) == session.state
