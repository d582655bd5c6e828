"""Single loser, ante on all deals (SL-01..04, D-MC-01): option loser_rule=single_loser of two-
and three-card Guts, the settlement rule `single_loser`."""

from __future__ import annotations

import pytest

from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import ANTES_POSTED, POT_SETTLED, SHOWDOWN_HELD
from tables.engine.decider.variants import validate_options

from .helpers import Session, of_type, one, stack_deck, start, table, transfers

# Deal 1: dealer a, order b c d a: b best, c second, a third, d worst.
DEAL1 = stack_deck("As Ks", "Qd Jd", "7h 2c", "9c 8c")
# Deal 2: dealer b, order c d a b: c best, b worst.
DEAL2 = stack_deck("Ah Ad", "Kc Qc", "Jh Th", "4d 2s")


def single_loser(decks: list[list[str]] | None = None, players: str = "abcd", **options: object) -> Session:
    """Given a table of four, antes 10, under the single-loser rule."""
    options.setdefault("ante", 10)
    session = table(players, decks=decks or [DEAL1, DEAL2], loser_rule="single_loser", **options)
    start(session)
    return session


def settled(events: list) -> dict:
    return one(events, POT_SETTLED).data


def test_sl_01_only_the_worst_in_hand_matches_the_pot() -> None:
    session = single_loser()
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["winners"] == ["b"]
    assert showdown["worst"] == ["d"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:d", "pot", 40)]
    assert settled(events)["matchers"] == ["d"]  # c and a lost but pay nothing
    assert session.state.pot == 40
    assert session.stack("c") == session.stack("a") == 990  # only their antes


def test_sl_01_with_two_in_the_loser_is_the_worst_hand() -> None:
    session = single_loser()
    events = session.declare(1, ("b", "out"), ("c", "in"), ("d", "out"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 40), ("seat:a", "pot", 40)]


def test_sl_02_tied_worst_hands_each_match_the_pot_in_full() -> None:
    deck = stack_deck("As Ks", "7h 2c", "7d 2s", "9c 8c")  # c and d: identical worst hands
    session = single_loser([deck])
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert one(events, SHOWDOWN_HELD).data["worst"] == ["c", "d"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 40),
        ("seat:d", "pot", 40),
    ]
    assert settled(events)["matchers"] == ["c", "d"]
    assert settled(events)["ante_exempt"] == ["c", "d"]


def test_sl_02_every_in_hand_tied_nobody_matches_g2_15() -> None:
    deck = stack_deck("As Ks", "Ad Kd", "7h 2c", "9c 8c")
    session = single_loser([deck])
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert settled(events)["outcome"] == "all_tied"
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 20), ("pot", "seat:c", 20)]
    assert settled(events)["matchers"] == []
    assert "ante_exempt" not in settled(events)


def test_sl_03_every_player_antes_every_deal() -> None:
    """SL-03: the pot is not empty after deal 1, yet deal 2 antes (everyone but the matcher)."""
    session = single_loser()
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert session.state.opts["ante_rule"] == "every_deal"
    antes = one(start(session), ANTES_POSTED)
    assert antes.data["due"] is True
    assert antes.data["paid"] == ["c", "a", "b"]
    assert transfers([antes]) == [("seat:c", "pot", 10), ("seat:a", "pot", 10), ("seat:b", "pot", 10)]
    assert session.state.pot == 70


def test_sl_04_the_matcher_skips_the_next_deals_ante() -> None:
    session = single_loser()
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert settled(events)["ante_exempt"] == ["d"]
    assert session.state.ante_exempt == ("d",)
    antes = one(start(session), ANTES_POSTED).data
    assert antes["exempt"] == ["d"]
    assert "d" not in antes["paid"]


def test_sl_04_d_mc_01_the_exemption_is_for_the_next_deal_only() -> None:
    session = single_loser()
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))  # d matches
    start(session)  # d skips this ante
    events = session.declare(2, ("c", "in"), ("d", "out"), ("a", "out"), ("b", "in"))
    assert settled(events)["matchers"] == ["b"]  # b's 4-2 is worst
    antes = one(start(session), ANTES_POSTED).data  # deal 3
    assert "d" in antes["paid"]
    assert antes["exempt"] == ["b"]


def test_sl_04_an_uncontested_win_excuses_nobody() -> None:
    session = single_loser()
    events = session.declare(1, ("b", "in"), ("c", "out"), ("d", "out"), ("a", "out"))
    assert settled(events)["outcome"] == "uncontested"
    assert "ante_exempt" not in settled(events)
    assert len(one(start(session), ANTES_POSTED).data["paid"]) == 4


def test_sl_nsp_tied_best_hands_neither_win_nor_pay_the_worst_still_matches() -> None:
    """SL-01 with NSP-01/02: b and c tie for best and take nothing; d, the worst, matches; the
    pot stays and grows by his payment."""
    deck = stack_deck("As Ks", "Ad Kd", "7h 2c", "9c 8c")
    session = single_loser([deck], ties="no_split")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "out"))
    assert settled(events)["outcome"] == "no_split"
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:d", "pot", 40)]
    assert session.state.pot == 80


def test_sl_3c_05_three_card_guts_single_loser() -> None:
    deck = stack_deck("Qs Qd Qc", "5h 6c 8d", "2c 9d 4s")  # b trips, c eight high, a nine high
    session = single_loser([deck], players="abc", variant="guts3")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]


@pytest.mark.parametrize(
    ("rule", "exempt"),
    [
        ("best_matches", ["b"]),  # AO-05: the best hand matched the pot (SL-04)
        ("wimp_all", ["b", "c", "d", "a"]),  # D-AO-02: the wimp's antes stand in for all
        ("carry", None),
    ],
)
def test_sl_04_all_out_under_single_loser(rule: str, exempt: list[str] | None) -> None:
    session = single_loser(declare_mode="simultaneous", all_out=rule)
    events = session.declare(1, *((p, "out") for p in "bcda"))
    assert settled(events).get("ante_exempt") == exempt


def test_sl_worst_is_not_written_under_match_pot_each() -> None:
    session = table(decks=[DEAL1], ante=10)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    assert "worst" not in one(events, SHOWDOWN_HELD).data
    assert settled(events)["matchers"] == ["c", "d", "a"]


def test_sl_03_single_loser_implies_antes_every_deal() -> None:
    assert validate_options("guts2", {"loser_rule": "single_loser"})["ante_rule"] == "every_deal"
    assert (
        validate_options("guts3", {"loser_rule": "single_loser", "ante_rule": "every_deal"})["ante_rule"]
        == "every_deal"
    )
    assert validate_options("guts2", {})["loser_rule"] == "match_pot_each"


def test_sl_03_single_loser_with_antes_only_on_an_empty_pot_is_refused() -> None:
    with pytest.raises(DomainError) as error:
        validate_options("guts2", {"loser_rule": "single_loser", "ante_rule": "pot_empty"})
    assert error.value.code == "invalid_option"
    assert error.value.detail["option"] == "ante_rule"
    assert error.value.detail["conflict"] == "loser_rule"


def test_sl_01_gh_05_the_ghost_beat_everyone_every_in_player_matches() -> None:
    """GH-05 over SL-01: when nobody beat the ghost, every "in" player matches (and skips the
    next ante, SL-04); the pot stays."""
    deck = stack_deck("Qs Jd", "7h 2c", "9c 8c", "As Ks")  # b, c, a, then the ghost
    session = single_loser([deck], players="abc", ghost="always")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert settled(events)["outcome"] == "ghost_won"
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 30), ("seat:c", "pot", 30)]
    assert settled(events)["ante_exempt"] == ["b", "c"]


def test_sl_01_with_a_ghost_beaten_only_the_worst_player_matches() -> None:
    deck = stack_deck("As Ks", "7h 2c", "9c 8c", "Qs Jd")  # b beats the ghost; c is worst
    session = single_loser([deck], players="abc", ghost="always")
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 30), ("seat:c", "pot", 30)]
    assert settled(events)["matchers"] == ["c"]
