"""The read side: redaction (DESIGN §2.6), the table view and legal actions."""

from __future__ import annotations

import json

from tables.engine.decider.commands import Declare
from tables.engine.decider.events import CARDS_DEALT, DEAL_STARTED, DECLARED
from tables.engine.decider.view import Viewer, deal_is_over, legal_actions, redact_event, table_view

from .helpers import SEED, T0, later, of_type, one, stack_deck, start, table

DECK = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")  # b, c, d, a (dealer a)
ANN, BOB = Viewer("a"), Viewer("b")
ADMIN, AUDITOR, PUBLIC = Viewer(None, "admin"), Viewer(None, "auditor"), Viewer(None)


def cards_dealt_to(events: list, player: str) -> dict:
    return next(e.data for e in of_type(events, CARDS_DEALT) if e.data["player"] == player)


def test_g2_07_design_2_6_a_player_sees_only_his_own_cards() -> None:
    events = start(table(decks=[DECK]))
    bobs = cards_dealt_to(events, "b")
    assert redact_event(CARDS_DEALT, bobs, BOB, deal_over=False)["cards"] == ["As", "Ks"]
    for viewer in (ANN, ADMIN, PUBLIC, AUDITOR):
        hidden = redact_event(CARDS_DEALT, bobs, viewer, deal_over=False)
        assert hidden["cards"] is None
        assert set(hidden) == set(bobs)  # nothing added: the chain form stays exact
    assert bobs["cards"] == ["As", "Ks"]  # the input is not changed


def test_design_2_6_auditors_see_all_cards_once_the_deal_is_over() -> None:
    bobs = cards_dealt_to(start(table(decks=[DECK])), "b")
    assert redact_event(CARDS_DEALT, bobs, AUDITOR, deal_over=True)["cards"] == ["As", "Ks"]
    assert redact_event(CARDS_DEALT, bobs, ADMIN, deal_over=True)["cards"] is None
    assert redact_event(CARDS_DEALT, bobs, ANN, deal_over=True)["cards"] is None


def test_sim_sealed_declares_are_hidden_from_everyone_but_the_declarer() -> None:
    session = table(decks=[DECK], declare_mode="simultaneous")
    start(session)
    declared = session.do(Declare("b", 1, "in"))[0].data
    for viewer in (ANN, ADMIN, AUDITOR, PUBLIC):
        assert redact_event(DECLARED, declared, viewer, deal_over=False)["choice"] is None
    assert redact_event(DECLARED, declared, BOB, deal_over=False)["choice"] == "in"
    assert redact_event(DECLARED, declared, ANN, deal_over=True)["choice"] == "in"


def test_sequential_declares_are_public() -> None:
    session = table(decks=[DECK])
    start(session)
    declared = session.do(Declare("b", 1, "in"))[0].data
    assert redact_event(DECLARED, declared, ANN, deal_over=False)["choice"] == "in"


def test_design_2_7_the_seed_never_leaks_before_deal_ended() -> None:
    session = table()
    started = one(start(session), DEAL_STARTED).data
    assert started["seed"] == SEED  # stored, server-side
    for viewer in (ANN, ADMIN, AUDITOR):
        assert redact_event(DEAL_STARTED, started, viewer, deal_over=False)["seed"] is None
        assert redact_event(DEAL_STARTED, started, viewer, deal_over=True)["seed"] == SEED  # as DealEnded
    assert SEED not in json.dumps(table_view(session.state, AUDITOR, T0))


def test_table_view_shows_own_cards_and_hides_the_others() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    view = json.loads(json.dumps(table_view(session.state, BOB, T0)))
    assert view["pot"] == 20
    assert view["dealer"] == "a"
    assert view["phase"] == "declare"
    assert view["deal"]["turn"] == ["b"]
    assert view["deal"]["deadline"] == "2026-11-29T12:00:30.000000Z"
    players = {p["player"]: p for p in view["deal"]["players"]}
    assert players["b"]["cards"] == ["As", "Ks"]
    assert all(players[p]["cards"] is None for p in "acd")
    text = json.dumps(view)
    for card in ("Qd", "Jd", "2c", "7h", "3c", "8h"):
        assert card not in text
    assert view["legal_actions"] == [
        {
            "action": "declare",
            "deal_no": 1,
            "stage": 1,
            "choices": ["in", "out"],
            "in_cost": 20,
            "deadline": "2026-11-29T12:00:30.000000Z",
            "overdue": False,
        },
        {"action": "sit_out"},
    ]


def test_table_view_after_the_showdown_shows_the_shown_hands_only() -> None:
    session = table(decks=[DECK], ante=5)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    view = table_view(session.state, ANN, T0)
    players = {p["player"]: p for p in view["deal"]["players"]}
    assert players["b"]["cards"] == ["As", "Ks"]
    assert players["c"]["cards"] == ["Qd", "Jd"]
    assert players["d"]["cards"] is None  # out: never shown
    assert view["deal"]["seed"] is None  # stacked deal: no seed
    audited = {p["player"]: p for p in table_view(session.state, AUDITOR, T0)["deal"]["players"]}
    assert audited["d"]["cards"] == ["2c", "7h"]  # auditor, deal over


def test_table_view_marks_sealed_declares() -> None:
    session = table(decks=[DECK], declare_mode="simultaneous")
    start(session)
    session.do(Declare("b", 1, "in"))
    for viewer, expected in ((ANN, "sealed"), (AUDITOR, "sealed"), (BOB, "in")):
        players = {p["player"]: p for p in table_view(session.state, viewer, T0)["deal"]["players"]}
        assert players["b"]["declared"] == expected
        assert players["c"]["declared"] is None


def test_legal_actions_between_deals() -> None:
    session = table(decks=[DECK], buy_in=300, max_buy_in=500)
    assert legal_actions(session.state, "a", T0) == [
        {"action": "start_deal"},
        {"action": "top_up", "min": 1, "max": 200},
        {"action": "sit_out"},
        {"action": "leave", "cash_out": 300},
    ]
    assert legal_actions(session.state, "zed", T0) == [{"action": "sit_down", "min": 100, "max": 500}]
    assert legal_actions(session.state, None, T0) == []


def test_legal_actions_during_a_deal() -> None:
    session = table("abcde", decks=[DECK], ante=5)
    start(session)
    assert legal_actions(session.state, "c", T0) == [{"action": "sit_out"}]  # not his turn
    assert legal_actions(session.state, "b", later(31))[0]["overdue"] is True


def test_legal_actions_offer_only_out_to_a_short_stack() -> None:  # D-GEN-06
    session = table("abc", decks=[DECK], ante=40, buy_in=100, min_buy_in=40)
    start(session)
    assert legal_actions(session.state, "b", T0)[0]["choices"] == ["out"]


def test_deal_is_over_for_redaction() -> None:
    session = table(decks=[DECK])
    start(session)
    assert not deal_is_over(session.state, 1)
    assert deal_is_over(session.state, None)
    session.declare(1, ("b", "out"), ("c", "out"), ("d", "out"))
    assert deal_is_over(session.state, 1)
    start(session)
    assert deal_is_over(session.state, 1)
    assert not deal_is_over(session.state, 2)


def test_stacked_decks_are_never_read_back_from_the_opening_event() -> None:  # DESIGN §2.6
    session = table(decks=[DECK])
    opened = session.events[0]
    for viewer in (ANN, BOB, ADMIN, AUDITOR):
        for over in (False, True):
            seen = redact_event(opened.type, opened.data, viewer, deal_over=over)
            assert seen["stacked_decks"] is None
            assert not any(card in json.dumps(seen) for card in DECK)
