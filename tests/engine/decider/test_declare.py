"""Declaring: in turn (G2-08..10), simultaneously (SIM), timeouts (DESIGN §2.8), the guards."""

from __future__ import annotations

from tables.engine.decider.commands import Declare, ExpireDeclare
from tables.engine.decider.events import (
    DEAL_ENDED,
    DECLARE_OPENED,
    DECLARE_TIMED_OUT,
    DECLARED,
    DECLARES_REVEALED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)

from .helpers import facts, later, of_type, one, stack_deck, start, table, transfers, turns, types

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")  # b, c, d, a (dealer a)


def test_g2_08_sequential_declare_from_the_dealers_left() -> None:
    session = table(decks=[DECK])
    opened = one(start(session), DECLARE_OPENED).data
    assert opened["players"] == ["b"]
    assert opened["mode"] == "sequential"
    assert opened["deadline"] == "2026-11-29T12:00:30.000000Z"
    assert session.fails(Declare("c", 1, "in")) == "not_your_turn"
    events = session.do(Declare("b", 1, "in"), later(5))
    assert types(events) == [DECLARED]  # which opens c's turn
    assert events[0].data["turn"] == "c"
    assert events[0].data["deadline"] == "2026-11-29T12:00:35.000000Z"  # a deadline per turn
    assert session.fails(Declare("b", 1, "out")) == "already_declared"


def test_g2_09_out_cannot_win_and_pays_nothing() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("d", "in"), ("a", "out"))
    # b held the best cards but was out: c (Q-J) beats d (7-2) and takes the pot
    assert one(events, POT_SETTLED).data["winners"] == ["c"]
    assert session.stack("b") == 995
    assert session.stack("a") == 995


def test_g2_10_dealer_forced_in_when_all_others_out() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))
    forced = of_type(events, DECLARED)[-1].data
    assert forced == {"deal_no": 1, "player": "a", "choice": "in", "sealed": False, "forced": True}
    assert ["a"] not in turns(events)
    assert one(events, POT_SETTLED).data["outcome"] == "uncontested"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:a", 20)]
    assert session.stack("a") == 1015


def test_g2_10_not_forced_when_someone_else_is_in() -> None:
    session = table(decks=[DECK])
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "out"), ("d", "out"))
    assert turns(events)[-1] == ["a"]


def test_g2_10_option_off_lets_everyone_be_out() -> None:  # then AO-01 carries the pot
    session = table(decks=[DECK], ante=5, dealer_forced_in=False)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"), ("a", "out"))
    assert one(events, POT_SETTLED).data["outcome"] == "all_out_carry"
    assert session.state.pot == 20


def test_sim_01_sim_04_simultaneous_window_sealed_then_revealed_together() -> None:
    session = table(decks=[DECK], ante=5, declare_mode="simultaneous")
    opened = one(start(session), DECLARE_OPENED).data
    assert opened["players"] == ["b", "c", "d", "a"]
    assert opened["mode"] == "simultaneous"
    first = session.do(Declare("d", 1, "in"))  # any order inside the window
    assert types(first) == [DECLARED]
    assert first[0].data["sealed"] is True
    session.declare(1, ("a", "out"), ("b", "in"))
    last = session.do(Declare("c", 1, "out"))
    assert facts(last)[:3] == [DECLARED, DECLARES_REVEALED, SHOWDOWN_HELD]
    assert last[1].data["choices"] == {"b": "in", "c": "out", "d": "in", "a": "out"}
    assert one(last, POT_SETTLED).data["winners"] == ["b"]


def test_d_g2_05_no_forced_dealer_under_simultaneous_declare() -> None:
    session = table(decks=[DECK], ante=5, declare_mode="simultaneous")
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"), ("a", "out"))
    assert not [e for e in events if e.type == DECLARED and e.data["forced"]]
    assert one(events, POT_SETTLED).data["outcome"] == "all_out_carry"  # D-AO default


def test_expire_declare_before_the_deadline_does_nothing() -> None:
    session = table(decks=[DECK])
    start(session)
    assert session.do(ExpireDeclare(1), later(29.9)) == []


def test_expire_declare_times_the_turn_out_and_is_idempotent() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    events = session.do(ExpireDeclare(1), later(30))
    assert types(events) == [DECLARE_TIMED_OUT, DECLARE_OPENED]
    assert events[0].data == {"deal_no": 1, "players": ["b"], "effect": "out"}
    assert events[1].data["players"] == ["c"]
    assert events[1].data["deadline"] == "2026-11-29T12:01:00.000000Z"
    assert session.do(ExpireDeclare(1), later(30)) == []  # c's turn is not due yet
    assert session.do(ExpireDeclare(2), later(999)) == []  # no such deal: nothing


def test_expire_declare_after_the_deal_is_over_does_nothing() -> None:
    session = table(decks=[DECK])
    start(session)
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))
    assert session.do(ExpireDeclare(1), later(999)) == []


def test_sim_timeout_puts_the_silent_out_and_reveals() -> None:
    session = table(decks=[DECK], ante=5, declare_mode="simultaneous")
    start(session)
    session.declare(1, ("c", "in"), ("d", "in"))
    events = session.do(ExpireDeclare(1), later(31))
    assert facts(events)[:2] == [DECLARE_TIMED_OUT, DECLARES_REVEALED]
    assert events[0].data["players"] == ["b", "a"]
    assert events[1].data["choices"] == {"b": "out", "c": "in", "d": "in", "a": "out"}
    assert one(events, POT_SETTLED).data["winners"] == ["c"]
    assert types(events)[-1] == DEAL_ENDED


def test_a_late_declare_before_the_timer_fires_is_accepted() -> None:
    session = table(decks=[DECK])
    start(session)
    assert types(session.do(Declare("b", 1, "out"), later(45)))[0] == DECLARED


def test_declare_guards() -> None:
    session = table("abcde", decks=[DECK])
    assert session.fails(Declare("b", 1, "in")) == "no_deal"
    start(session)
    assert session.fails(Declare("b", 2, "in")) == "wrong_deal"
    assert session.fails(Declare("zed", 1, "in")) == "not_seated"
    assert session.fails(Declare("b", 1, "maybe")) == "invalid_choice"
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"), ("e", "out"))
    assert session.fails(Declare("b", 1, "in")) == "deal_over"
    start(session)
    assert session.fails(Declare("c", 1, "in")) == "deal_over"
