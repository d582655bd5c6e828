"""Logs written before the interpreter: stored JSON stays exactly as it was,
and today's decider folds it to the state the old one had.

fixtures/legacy_guts_logs.json was written by the decider of commit d068c6f
(fixtures/make_legacy_guts_logs.py): Two- and Three-card Guts sessions with their events as the
store keeps them (type and data through JSON), the old `state_to_json` after each, and for the
sessions that end with a deal in progress, the commands that finish it and what the old decider
answered. Those deals have no StageStarted/StepStarted: `decider.legacy` walks them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import fold
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.state import TableState
from tests.engine.decider.helpers import Session, data_of, facts, later, start, transfers

FIXTURE = Path(__file__).parent / "fixtures" / "legacy_guts_logs.json"
SESSIONS: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["sessions"]
LIVE = [s for s in SESSIONS if s["continue"] is not None]
SEEDS = {n: f"{n:02x}" * 32 for n in range(1, 10)}

# Fields that exist in both states and mean the same (the old `step` indexed a flat program).
TABLE_FIELDS = (
    "status",
    "table_id",
    "variant",
    "options",
    "stacked_decks",
    "pot",
    "reserve",
    "deal_no",
    "game_no",
    "game_open",
    "button",
)
DEAL_FIELDS = (
    "deal_no",
    "game_no",
    "dealer",
    "order",
    "hands",
    "choices",
    "sealed",
    "awaiting",
    "deadline",
    "timed_out",
    "forced",
    "shown",
    "winners",
    "losers",
    "outcome",
    "seed",
    "commitment",
    "stacked",
    "over",
    "passing",
    "passed",
)


def parsed(stored: list[dict[str, Any]]) -> list[ev.Event]:
    return [ev.parse(e["type"], e["data"]) for e in stored]


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The old snapshot's fields, from an old or a new snapshot (seats without legs)."""
    deal = snapshot["deal"]
    return {
        **{name: snapshot[name] for name in TABLE_FIELDS},
        "seats": [seat[:5] for seat in snapshot["seats"]],
        "deal": None if deal is None else {name: deal[name] for name in DEAL_FIELDS},
    }


def chips(state: TableState) -> int:
    return sum(s.stack for s in state.seats) + state.pot + state.reserve


def command(step: list[Any]) -> cmd.Command:
    """A step of the fixture's `continue` list as a command (see make_legacy_guts_logs.py)."""
    name, *args, _seconds = step
    if name == "declare":
        return cmd.Declare(args[0], args[1], args[2])
    if name == "pass":
        return cmd.PassCard(args[0], args[1], args[2])
    if name == "expire":
        return cmd.ExpireDeclare(args[0])
    raise ValueError(name)


def finished(session: dict[str, Any]) -> tuple[Session, list[ev.Event], int]:
    """The legacy session's live deal played to its end by today's decider: (session, the new
    events, the chips at the table before)."""
    table = Session(parsed(session["events"]))
    before = chips(table.state)
    new: list[ev.Event] = []
    for step in session["continue"]["commands"]:
        new += table.do(command(step), later(step[-1]))
    return table, new, before


@pytest.mark.parametrize("session", SESSIONS, ids=[s["name"] for s in SESSIONS])
def test_stored_events_round_trip_exactly(session: dict[str, Any]) -> None:
    """Item 4: every stored event parses to its typed event, whose JSON is the stored data."""
    stored = session["events"] + (session["continue"] or {}).get("events", [])
    for event, raw in zip(parsed(stored), stored, strict=True):
        assert not isinstance(event, ev.Unknown), raw["type"]
        assert event.type == raw["type"]
        assert event.to_json() == raw["data"]
        assert json.loads(json.dumps(event.to_json())) == raw["data"]


@pytest.mark.parametrize("session", SESSIONS, ids=[s["name"] for s in SESSIONS])
def test_legacy_log_folds_to_the_old_state(session: dict[str, Any]) -> None:
    """Item 4: the fold of an old log equals the old fold on every field both states have."""
    state = fold(parsed(session["events"]))
    assert comparable(state_to_json(state)) == comparable(session["state"])
    assert all(seat.legs == 0 for seat in state.seats)


@pytest.mark.parametrize("session", SESSIONS, ids=[s["name"] for s in SESSIONS])
def test_old_snapshot_loads_to_the_same_state(session: dict[str, Any]) -> None:
    """Snapshots the old code stored (at deal boundaries) load with today's reader; the fields it
    did not have take their defaults."""
    snapshot = (session["continue"] or session)["state"]
    state = state_from_json(snapshot)
    assert comparable(state_to_json(state)) == comparable(snapshot)
    assert state.last_in == ()
    assert state.opts["loser_rule"] == "match_pot_each"  # added since: its default


def test_old_snapshot_then_a_new_deal() -> None:
    """After an old snapshot, today's decider deals on, with explicit positions."""
    session = next(s for s in LIVE if s["name"] == "guts3_simultaneous_seeded")
    table = Session()
    table.state = state_from_json(session["continue"]["state"])
    before = chips(table.state)
    new = start(table, later(100))
    assert [e.type for e in new][:2] == ["DealStarted", "AntesPosted"]
    assert new[1].at_step == [1, 0]  # the ante step, first of stage 1
    deal = table.state.live
    assert deal is not None
    assert deal.deal_no == 4
    for player in deal.order:
        new += table.do(cmd.Declare(player, 4, "in"), later(101))
    assert ev.SHOWDOWN_HELD in facts(new)
    assert table.state.live is None
    assert chips(table.state) == before


def _one_event_per_turn(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The old decider's facts as today's records them: a sequential Declared then opens the next
    turn itself (`turn`, `deadline`) instead of a DeclareOpened after it."""
    out: list[dict[str, Any]] = []
    for event in events:
        data, last = event["data"], out[-1] if out else None
        if (
            event["type"] == ev.DECLARE_OPENED
            and data["mode"] == "sequential"
            and last is not None
            and last["type"] == ev.DECLARED
            and not last["data"]["sealed"]
        ):
            turn = {"turn": data["players"][0], "deadline": data["deadline"]}
            out[-1] = {**last, "data": {**last["data"], **turn}}
            continue
        out.append(event)
    return out


@pytest.mark.parametrize("session", LIVE, ids=[s["name"] for s in LIVE])
def test_live_legacy_deal_plays_on_as_the_old_decider_played_it(session: dict[str, Any]) -> None:
    """A deal logged by the old decider and finished by today's: the same facts, the same state
    (today's adds only the program's positions, `at_step`), no chip made or lost."""
    table, new, before = finished(session)
    old = session["continue"]
    played = _one_event_per_turn(old["events"])
    assert facts(new) == [e["type"] for e in played]
    assert [data_of(e) for e in new if e.type not in ev.PROGRESS] == [e["data"] for e in played]
    assert comparable(state_to_json(table.state)) == comparable(old["state"])
    assert table.state.live is None
    assert chips(table.state) == before


def _live(name: str) -> tuple[Session, list[ev.Event], int]:
    return finished(next(s for s in LIVE if s["name"] == name))


def test_g2_13_live_sequential_deal_losers_each_match_the_pot() -> None:
    """G2-12, G2-13: tens beat nines and ace-king; both losers pay the pot of 9 into it."""
    table, new, before = _live("guts2_live_sequential")
    assert [e.data["winners"] for e in new if isinstance(e, ev.ShowdownHeld)] == [["b"]]
    assert transfers(new) == [("pot", "seat:b", 9), ("seat:c", "pot", 9), ("seat:a", "pot", 9)]
    assert table.state.pot == 18
    assert chips(table.state) == before


def test_sim_04_live_simultaneous_deal_reveals_then_settles() -> None:
    """SIM-04: the sealed declares of the live window are revealed together, then settled; the
    pot is conserved whoever wins."""
    table, new, before = _live("guts3_simultaneous_seeded")
    revealed = [e for e in new if isinstance(e, ev.DeclaresRevealed)]
    assert [e.choices for e in revealed] == [{"a": "out", "b": "in", "c": "out", "d": "in"}]
    showdown = next(e for e in new if isinstance(e, ev.ShowdownHeld))
    settled = next(e for e in new if isinstance(e, ev.PotSettled))
    assert showdown.reason == "contested"
    assert settled.winners == showdown.winners
    assert chips(table.state) == before


def test_ao_06_live_pass_window_exchanges_then_redeclares() -> None:
    """AO-06, D-AO: the window opened by the old decider closes under today's: each gets the card
    from his left, a new declare follows; jack-five beats ten-seven, b matches the pot of 30."""
    table, new, before = _live("guts2_pass_right")
    exchanged = {e.player: e.cards for e in new if isinstance(e, ev.CardsExchanged)}
    assert exchanged == {"c": ["5c", "Jh"], "a": ["4s", "3h"], "b": ["Tc", "7d"]}
    assert transfers(new) == [("pot", "seat:c", 30), ("seat:b", "pot", 30)]
    assert chips(table.state) == before


def test_ao_07_live_declare_all_out_gets_an_extra_card_and_redeclares() -> None:
    """AO-07, D-AO: everyone out in a deal the old decider opened: one more card each, a new
    declare, the best three of four; c's ace-king-queen of hearts beats a's, a matches 30."""
    table, new, before = _live("guts3_extra_card")
    extra = [e for e in new if isinstance(e, ev.CardsDealt)]
    assert [(e.player, e.cards[-1], e.extra) for e in extra] == [
        ("c", "5s", True),
        ("a", "6c", True),
        ("b", "7c", True),
    ]
    assert transfers(new) == [("pot", "seat:c", 30), ("seat:a", "pot", 30)]
    assert chips(table.state) == before
