"""Survivor Guts (RULES.md §9): SV-01..03 with the shared MC rules, D-MC-01, D-CAP, D-GEN-01,
given/when/then on the pure decider.

Players "abcd", first dealer a: deal 1 goes b, c, d, a. Ante 10, buy-in 1000 = 100 antes (MC-08).
Figures are derived from the rules (§9 has no worked example).
"""

from __future__ import annotations

from typing import Any

import pytest

from tables.engine.decider.commands import SitDown
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    ANTES_POSTED,
    DEAL_STARTED,
    DECK_COMPARED,
    DECLARE_OPENED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.variants import get_variant, validate_options

from .helpers import Session, of_type, one, stack_deck, start, table, transfers, types

ANTE, BUY_IN = 10, 1000
# b: pair of aces, c: pair of kings, d: queen high, a: five high (deal 1 order b, c, d, a)
HANDS = ("Ah Ad 9c", "Kh Kd 8c", "Qh Jd 7c", "5s 4h 2c")


def game(*then: str, hands: tuple[str, ...] = HANDS, players: str = "abcd", **options: Any) -> Session:
    options.setdefault("ante", ANTE)
    options.setdefault("min_buy_in", BUY_IN)
    return table(players, decks=[[*stack_deck(*hands), *then]], variant="survivor", buy_in=BUY_IN, **options)


def declare_all(session: Session, deal_no: int, **choices: str) -> list:
    return session.declare(deal_no, *choices.items())


def settled(events: list) -> dict[str, Any]:
    return one(events, POT_SETTLED).data


def test_sv_01_survivor_shares_the_monte_carlo_rules_but_mc_12() -> None:
    survivor, monte_carlo = get_variant("survivor"), get_variant("monte_carlo")
    assert survivor.options == monte_carlo.options
    assert (survivor.game_ends, survivor.new_players_wait, survivor.min_buy_in_antes) == (
        "round_over",
        True,
        100,
    )
    settles = [s.param("rule", survivor.defaults) for s in survivor.program if s.kind == "settle"]
    assert settles == ["worst_replenishes"]  # not losers_share (MC-12)
    session = game()
    events = start(session)
    assert one(events, ANTES_POSTED).data["paid"] == ["b", "c", "d", "a"]  # MC-09
    assert one(events, DECLARE_OPENED).data["mode"] == "simultaneous"  # MC-10
    with pytest.raises(DomainError):
        validate_options("survivor", {"ante": 5, "min_buy_in": 400})  # MC-08


def test_sv_02_only_the_worst_shown_hand_replenishes_the_pot() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["winners"], showdown["worst"]) == (["b"], ["d"])
    assert settled(events)["matchers"] == ["d"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:d", "pot", 40)]
    assert session.stack("c") == 990  # c lost, pays nothing
    assert session.state.pot == 40
    assert GAME_ENDED not in types(events)  # d replenished: round on


def test_sv_02_the_worst_hand_is_the_worst_shown_not_the_worst_dealt() -> None:
    session = game()
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="out", a="out")  # a (5 high) is out
    assert one(events, SHOWDOWN_HELD).data["worst"] == ["c"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:c", "pot", 40)]


def test_sv_03_identical_worst_hands_replenish_in_equal_shares() -> None:
    """Unlike SL-02 (each tied worst hand matches in full): c and d share one pot amount."""
    hands = ("Ah Ad 9c", "Qh Jd 7c", "Qs Jc 7d", "5s 4h 2c")
    session = game(hands=hands)
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert one(events, SHOWDOWN_HELD).data["worst"] == ["c", "d"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 40),
        ("seat:c", "pot", 20),
        ("seat:d", "pot", 20),
    ]


def test_sv_03_d_gen_01_the_worst_nearest_the_dealers_left_pays_the_odd_chip() -> None:
    hands = ("Ah Ad 9c", "Qh Jd 7c", "Qs Jc 7d", "5s 4h 2c", "6s 6h 2d")  # b, c, d, e, a
    session = game(hands=hands, players="abcde", ante=9, min_buy_in=900)
    start(session)  # pot 45
    events = declare_all(session, 1, b="in", c="in", d="in", e="out", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 45),
        ("seat:c", "pot", 23),
        ("seat:d", "pot", 22),
    ]


def test_sv_d_mc_01_the_worst_hand_skips_the_next_ante() -> None:
    session = game()
    start(session)
    declare_all(session, 1, b="in", c="in", d="in", a="out")  # d replenishes
    second = start(session)  # order c, d, a, b
    assert one(second, ANTES_POSTED).data["paid"] == ["c", "a", "b"]


def test_sv_mc_04_identical_best_hands_split_and_the_worst_still_replenishes() -> None:
    hands = ("Ah Kd 9c", "Ad Kh 9s", "Qh Jd 7c", "5s 4h 2c")
    session = game(hands=hands)
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="in")
    assert settled(events)["outcome"] == "split"
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 20),
        ("pot", "seat:c", 20),
        ("seat:a", "pot", 40),
    ]


def test_sv_q_mc_02_a_round_ends_on_an_uncontested_win_or_an_all_tie() -> None:
    session = game()
    start(session)
    first = declare_all(session, 1, b="in", c="in", d="out", a="out")
    assert GAME_ENDED not in types(first)
    session.do(SitDown("e", BUY_IN))  # MC-07: waits
    assert "e" not in one(start(session), DEAL_STARTED).data["participants"]
    second = declare_all(session, 2, c="out", d="out", a="out", b="in")
    assert one(second, GAME_ENDED).data["reason"] == "uncontested"
    assert "e" in one(start(session), DEAL_STARTED).data["participants"]


def test_sv_mc_13_the_worst_hand_replenishes_at_most_the_cap() -> None:
    session = game(replenish_cap=2)
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 40), ("seat:d", "pot", 20)]


def test_sv_mca_02_a_lone_in_against_the_deck() -> None:
    session = game("2h", "2s", lone_in="vs_deck")
    start(session)
    events = declare_all(session, 1, b="out", c="out", d="in", a="out")
    assert one(events, DECK_COMPARED).data["winner"] == "deck"
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:d", "pot", 40)]


def test_sv_mca_05_when_the_open_hand_wins_only_the_worst_in_hand_replenishes() -> None:
    session = game(hands=(*HANDS, "7s 7h 7d"), open_hand="face_up")
    start(session)
    events = declare_all(session, 1, b="in", c="in", d="in", a="out")
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["winners"], showdown["worst"], showdown["ghost"]["won"]) == ([], ["d"], True)
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:d", "pot", 40)]
    assert session.state.pot == 80
