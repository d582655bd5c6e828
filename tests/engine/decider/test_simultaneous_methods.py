"""SIM-01..05: the table ways of declaring at once are one sealed window here.

SIM-02 (drop), SIM-04 (chips in a fist) and SIM-05 (a coin in a fist) are ways players at a real
table hide their choice until all have chosen; the backend's sealed window does that for every one
of them, so none is a separate procedure. SIM-03's drawback of the drop (a late drop after seeing
the others) cannot happen: nobody sees any choice before the reveal, and a choice cannot change.
"""

from __future__ import annotations

import json

from tables.engine.decider.commands import Declare
from tables.engine.decider.events import DECLARES_REVEALED
from tables.engine.decider.view import Viewer, redact_event, table_view

from .helpers import T0, facts, one, stack_deck, start, table

DECK = stack_deck("As Ad", "Ks Kd", "Qs Qd")


def test_sim_02_03_04_nobody_sees_a_choice_before_all_have_chosen() -> None:
    session = table("abc", decks=[DECK], ante=5, declare_mode="simultaneous")
    start(session)
    first = session.do(Declare("b", 1, "in"))
    for viewer in (Viewer("c"), Viewer("a"), Viewer(None, "admin"), Viewer(None, "auditor")):
        seen = redact_event(first[0].type, first[0].data, viewer, deal_over=False)
        assert seen["choice"] is None  # SIM-03: no late drop
        players = table_view(session.state, viewer, T0)["deal"]["players"]
        assert {p["player"]: p["declared"] for p in players}["b"] == "sealed"
        assert '"in"' not in json.dumps(table_view(session.state, viewer, T0)["deal"]["players"])


def test_sim_03_a_choice_once_made_cannot_be_changed_after_seeing_others() -> None:
    session = table("abc", decks=[DECK], ante=5, declare_mode="simultaneous")
    start(session)
    session.do(Declare("b", 1, "out"))
    assert session.fails(Declare("b", 1, "in")) == "already_declared"


def test_sim_01_04_05_all_choices_are_revealed_together() -> None:
    session = table("abc", decks=[DECK], ante=5, declare_mode="simultaneous")
    start(session)
    session.declare(1, ("b", "in"), ("c", "out"))
    last = session.do(Declare("a", 1, "in"))
    assert facts(last)[:2] == ["Declared", DECLARES_REVEALED]
    assert one(last, DECLARES_REVEALED).data["choices"] == {"b": "in", "c": "out", "a": "in"}
