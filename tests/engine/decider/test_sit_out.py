"""Timeouts that sit a player out (option sit_out_after, DESIGN §2.8) and sitting out or in on
request. The clock is explicit: a timeout is ExpireDeclare at or after the turn's deadline.

Seats a, b, c. Deal 1: dealer a, declare order b, c, a. Deal 2: dealer b, order c, a, b.
"""

from __future__ import annotations

from tables.engine.decider.commands import Declare, ExpireDeclare, SitIn, SitOut
from tables.engine.decider.events import DEAL_STARTED, DECLARE_TIMED_OUT, PLAYER_SAT_OUT
from tables.engine.decider.evolve import fold

from .helpers import later, of_type, one, roundtrip, start, table, types


def test_k_consecutive_timeouts_sit_the_player_out() -> None:
    session = table("abc", sit_out_after=2, declare_timeout=30)
    start(session, later(0))
    session.do(ExpireDeclare(1), later(30))  # b times out
    session.do(ExpireDeclare(1), later(61))  # c times out; a forced in (G2-10)
    assert session.state.live is None
    assert [session.state.seat_of(p).timeouts for p in "abc"] == [0, 1, 1]

    start(session, later(100))  # deal 2: c first
    events = session.do(ExpireDeclare(2), later(131))
    assert one(events, PLAYER_SAT_OUT).data == {"player": "c", "reason": "timeouts", "timeouts": 2}
    assert session.state.seat_of("c").sitting_out
    session.do(ExpireDeclare(2), later(162))  # a times out once; b forced in
    assert not session.state.seat_of("a").sitting_out

    participants = one(start(session, later(200)), DEAL_STARTED).data["participants"]
    assert "c" not in participants


def test_a_declare_of_his_own_resets_the_count() -> None:
    session = table("abc", sit_out_after=2)
    start(session, later(0))
    session.do(ExpireDeclare(1), later(30))  # b: 1
    session.do(Declare("c", 1, "out"), later(31))  # a forced in, deal over
    start(session, later(100))  # order c, a, b
    session.do(Declare("c", 2, "out"), later(101))
    session.do(Declare("a", 2, "out"), later(102))  # b forced in
    start(session, later(200))  # dealer c: order a, b, c
    session.do(Declare("a", 3, "out"), later(201))
    session.do(Declare("b", 3, "in"), later(202))  # b's own declare resets his count
    assert session.state.seat_of("b").timeouts == 0


def test_forced_in_does_not_reset_the_count() -> None:
    session = table("abc", sit_out_after=3)
    start(session, later(0))
    session.do(ExpireDeclare(1), later(30))  # b: 1
    session.do(Declare("c", 1, "out"), later(31))
    start(session, later(100))
    session.do(Declare("c", 2, "out"), later(101))
    session.do(Declare("a", 2, "out"), later(102))  # b forced in: not a declare of his own
    assert session.state.seat_of("b").timeouts == 1


def test_sitting_out_players_are_not_dealt_in_until_they_sit_in() -> None:
    session = table("abc")
    session.do(SitOut("a"))
    assert session.fails(SitOut("a")) == "already_sitting_out"
    assert session.fails(SitIn("b")) == "not_sitting_out"
    started = one(start(session), DEAL_STARTED).data
    assert "a" not in started["participants"]
    assert "a" in started["sat_out"]


def test_sit_in_returns_the_player_to_the_next_deal() -> None:
    session = table("abc")
    session.do(SitOut("a"))
    session.do(SitIn("a"))
    assert "a" in one(start(session), DEAL_STARTED).data["participants"]


def test_option_off_by_default_never_sits_anyone_out() -> None:
    session = table("abc")
    start(session)
    for clock in (30, 61):
        events = session.do(ExpireDeclare(1), later(clock))
        assert DECLARE_TIMED_OUT in types(events)
        assert not of_type(events, PLAYER_SAT_OUT)


def test_sit_out_state_survives_the_json_round_trip() -> None:
    session = table("abc", sit_out_after=1)
    start(session)
    session.do(ExpireDeclare(1), later(30))
    assert session.state.seat_of("b").sitting_out
    assert fold(roundtrip(session.events)) == session.state
