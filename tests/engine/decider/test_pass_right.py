"""AO-06 / D-AO `pass_right`: when everyone is out, each player passes one card to the player on
his right (chosen before seeing what he receives), then a new declare; repeated until someone is in.

Seats a, b, c clockwise; deal 1: dealer a, order b, c, a. The player on b's right is a, on c's
right b, on a's right c.
"""

from __future__ import annotations

from tables.engine.decider.commands import Declare, ExpireDeclare, PassCard
from tables.engine.decider.events import (
    CARD_PASSED,
    CARDS_EXCHANGED,
    DECLARE_OPENED,
    PASS_OPENED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.evolve import fold
from tables.engine.decider.view import Viewer, legal_actions, redact_event

from .helpers import later, of_type, one, roundtrip, stack_deck, start, table, types

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h")  # b, c, a


def all_out_table():
    session = table("abc", decks=[DECK], declare_mode="simultaneous", all_out="pass_right", ante=5)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))
    return session, events


def test_ao_06_everyone_out_opens_a_pass_window() -> None:
    session, events = all_out_table()
    assert one(events, PASS_OPENED).data["players"] == ["b", "c", "a"]
    assert SHOWDOWN_HELD not in types(events)
    assert legal_actions(session.state, "b", later(1))[0] == {
        "action": "pass",
        "deal_no": 1,
        "choices": ["As", "Ks"],
        "deadline": one(events, PASS_OPENED).data["deadline"],
        "overdue": False,
    }


def test_ao_06_each_passes_one_card_right_then_a_new_declare() -> None:
    session, _ = all_out_table()
    session.do(PassCard("b", 1, "Ks"))
    session.do(PassCard("c", 1, "jd"))  # any spelling of a card in hand
    events = session.do(PassCard("a", 1, "7h"))
    exchanged = {e.data["player"]: e.data for e in of_type(events, CARDS_EXCHANGED)}
    assert exchanged["b"] == {
        "deal_no": 1,
        "player": "b",
        "gave": "Ks",
        "received": "Jd",
        "cards": ["As", "Jd"],
    }
    assert exchanged["c"]["cards"] == ["Qd", "7h"]
    assert exchanged["a"]["cards"] == ["2c", "Ks"]
    assert one(events, DECLARE_OPENED).data["players"] == ["b", "c", "a"]
    settled = session.declare(1, ("b", "in"), ("c", "out"), ("a", "out"))
    assert one(settled, SHOWDOWN_HELD).data["winners"] == ["b"]  # G2-11: b alone is in


def test_ao_06_pass_guards() -> None:
    session, _ = all_out_table()
    assert session.fails(PassCard("b", 1, "Qd")) == "invalid_card"  # not his card
    assert session.fails(PassCard("b", 1, "1x")) == "invalid_card"
    assert session.fails(PassCard("b", 2, "As")) == "wrong_deal"
    session.do(PassCard("b", 1, "As"))
    assert session.fails(PassCard("b", 1, "Ks")) == "already_passed"
    assert session.fails(Declare("c", 1, "in")) in ("already_declared", "not_your_turn")


def test_ao_06_a_timeout_passes_the_first_card() -> None:
    session, _ = all_out_table()
    session.do(PassCard("b", 1, "Ks"))
    assert session.do(ExpireDeclare(1), later(1)) == []  # not due yet
    timed_out = session.do(ExpireDeclare(1), later(31))
    passed = {e.data["player"]: e.data for e in of_type(timed_out, CARD_PASSED)}
    assert passed == {
        "c": {"deal_no": 1, "player": "c", "card": "Qd", "timed_out": True},
        "a": {"deal_no": 1, "player": "a", "card": "2c", "timed_out": True},
    }
    assert of_type(timed_out, CARDS_EXCHANGED)


def test_ao_06_passed_cards_are_secret() -> None:  # DESIGN §2.6
    session, _ = all_out_table()
    passed = session.do(PassCard("b", 1, "Ks"))[0]
    assert redact_event(passed.type, passed.data, Viewer("b"), deal_over=False)["card"] == "Ks"
    for viewer in (Viewer("c"), Viewer(None, "admin"), Viewer(None, "auditor")):
        assert redact_event(passed.type, passed.data, viewer, deal_over=False)["card"] is None
    assert redact_event(passed.type, passed.data, Viewer(None, "auditor"), deal_over=True)["card"] == "Ks"
    session.do(PassCard("c", 1, "Jd"))
    exchanged = of_type(session.do(PassCard("a", 1, "7h")), CARDS_EXCHANGED)
    seen_by_c = [redact_event(e.type, e.data, Viewer("c"), deal_over=False) for e in exchanged]
    assert [s["cards"] for s in seen_by_c] == [None, ["Qd", "7h"], None]


def test_ao_06_state_survives_the_json_round_trip() -> None:
    session, _ = all_out_table()
    session.do(PassCard("b", 1, "Ks"))
    assert fold(roundtrip(session.events)) == session.state
