"""Compulsory first round (CFR-01, CFR-02, Q-CFR-01): option compulsory_first_round of two- and
three-card Guts. On the first deal of a game (of the session, or after the pot emptied, D-GEN-08)
every player is "in" without a declare: a `ForcedIn` event, no declare window."""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import Declare, OpenTable, SitDown
from tables.engine.decider.events import (
    ANTES_POSTED,
    DECLARE_OPENED,
    DECLARED,
    FORCED_IN,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
    parse,
)
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.view import Viewer, legal_actions, table_view

from .helpers import (
    T0,
    TABLE,
    Session,
    data_of,
    facts,
    of_type,
    one,
    roundtrip,
    stack_deck,
    start,
    table,
    transfers,
)

# Deal 1 (dealer a): b, c, d, a; b best. Deal 2 (dealer b): c, d, a, b. Deal 3 (dealer c): d, a, b, c.
DEAL1 = stack_deck("As Ks", "Qd Jd", "7h 2c", "9c 8c")
DEAL2 = stack_deck("Ah Ad", "9c 4d", "5s 6h", "8d 2s")
DEAL3 = stack_deck("Kh Kd", "Qc Js", "Tc 9h", "6d 4s")


def cfr_table(decks: list[list[str]] | None = None, **options: object) -> Session:
    options.setdefault("ante", 10)
    return table(decks=decks or [DEAL1, DEAL2, DEAL3], compulsory_first_round=True, **options)


def test_cfr_01_on_the_first_deal_everyone_is_in_without_a_declare() -> None:
    session = cfr_table()
    events = start(session)
    forced = data_of(one(events, FORCED_IN))
    assert forced == {"deal_no": 1, "players": ["b", "c", "d", "a"], "rule": "CFR-01"}
    assert not of_type(events, DECLARE_OPENED)
    assert not of_type(events, DECLARED)
    assert facts(events) == [
        "DealStarted",
        "AntesPosted",
        "CardsDealt",
        "CardsDealt",
        "CardsDealt",
        "CardsDealt",
        "ForcedIn",
        "ShowdownHeld",
        "PotSettled",
        "DealEnded",
    ]
    assert [h["player"] for h in one(events, SHOWDOWN_HELD).data["hands"]] == ["b", "c", "d", "a"]


def test_cfr_02_the_compulsory_round_builds_the_pot() -> None:
    """CFR-02: a winner and losers: b takes the 40 antes, the three others match 40 each."""
    session = cfr_table()
    events = start(session)
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 40),
        ("seat:d", "pot", 40),
        ("seat:a", "pot", 40),
    ]
    assert session.state.pot == 120
    assert not of_type(events, GAME_ENDED)


def test_cfr_01_the_next_deal_declares_as_usual() -> None:
    session = cfr_table()
    start(session)
    events = start(session)
    assert not of_type(events, FORCED_IN)
    assert one(events, DECLARE_OPENED).data["players"] == ["c"]
    assert session.fails(Declare("d", 2, "in")) == "not_your_turn"


def test_cfr_01_after_the_pot_emptied_the_next_deal_is_compulsory_again() -> None:
    """CFR-01: "when the pot was emptied on the previous deal": the game ended (D-GEN-08), the
    next deal opens a new game and everyone is in again."""
    session = cfr_table()
    start(session)
    start(session)
    ended = session.declare(2, ("c", "in"), ("d", "out"), ("a", "out"), ("b", "out"))
    assert one(ended, GAME_ENDED).data["reason"] == "uncontested"
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == ["d", "a", "b", "c"]  # G2-05
    assert one(events, FORCED_IN).data["players"] == ["d", "a", "b", "c"]
    assert one(events, POT_SETTLED).data["winners"] == ["d"]


def test_cfr_01_an_all_tied_compulsory_round_empties_the_pot_and_starts_over() -> None:
    """G2-15: every hand ties, the pot is shared and empties; the next deal is compulsory too."""
    tie = stack_deck("As Ks", "Ad Kd", "Ah Kh", "Ac Kc")
    session = cfr_table([tie, DEAL2])
    events = start(session)
    assert one(events, POT_SETTLED).data["outcome"] == "all_tied"
    assert one(events, GAME_ENDED)
    assert one(start(session), FORCED_IN)


def test_cfr_01_no_declare_is_offered_and_the_view_shows_who_was_forced_in() -> None:
    session = cfr_table()
    start(session)
    for player in "abcd":
        assert not [a for a in legal_actions(session.state, player, T0) if a["action"] == "declare"]
    players = table_view(session.state, Viewer("a"), T0)["deal"]["players"]
    assert all(p["forced_in"] and p["declared"] == "in" for p in players)


def test_cfr_01_simultaneous_declare_too() -> None:
    session = cfr_table(declare_mode="simultaneous")
    events = start(session)
    assert one(events, FORCED_IN)
    assert not of_type(events, DECLARE_OPENED)
    assert one(events, POT_SETTLED).data["winners"] == ["b"]


def test_cfr_01_three_card_guts() -> None:
    deck = stack_deck("Qs Qd Qc", "5h 6c 8d", "2c 9d 4s")
    session = table("abc", variant="guts3", decks=[deck], ante=10, compulsory_first_round=True)
    events = start(session)
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]


def test_cfr_01_off_by_default() -> None:
    session = table(decks=[DEAL1], ante=10)
    events = start(session)
    assert not of_type(events, FORCED_IN)
    assert session.state.opts["compulsory_first_round"] is False


def test_cfr_01_a_forced_player_short_of_the_pot_pays_his_stack() -> None:
    """D-GEN-06 meets CFR-01: nobody chose "in", so nobody was checked for the pot; like the dealer
    forced in (G2-10), a forced loser pays at most his stack and no stack goes below zero."""
    session = Session()
    session.do(
        OpenTable(
            TABLE,
            "guts2",
            {"ante": 50, "min_buy_in": 50, "compulsory_first_round": True},
            stacked_decks=[["As", "2c", "Ks", "7h"]],
            stacked_allowed=True,
        )
    )
    session.do(SitDown("a", 60))
    session.do(SitDown("b", 1000))
    events = start(session)  # b: As Ks, a: 2c 7h; pot 100
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 100), ("seat:a", "pot", 10)]
    assert session.stack("a") == 0


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_cfr_01_events_round_trip_and_snapshot(mode: str) -> None:
    session = cfr_table(declare_mode=mode)
    events = start(session)
    assert [parse(e.type, e.data) for e in roundtrip(events)] == events
    assert state_from_json(state_to_json(session.state)) == session.state
    assert session.state.deal is not None
    assert session.state.deal.opens_game
