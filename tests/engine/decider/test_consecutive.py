"""Consecutive and Alternating Guts (RULES.md §13: CONS-01..05, EX-06, ALT-01..02, EX-07,
D-CONS-01), given/when/then on the pure decider.

Players "abc": the first dealer is a, so cards go b, c, a, five each. Ante 10: the pot is 30.
"""

from __future__ import annotations

import pytest

from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import (
    CARDS_DEALT,
    DECLARE_OPENED,
    GAME_ENDED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.variants import get_variant, validate_options

from .helpers import Session, of_type, one, stack_deck, start, table, transfers

ANTE = 10
EX_06 = "8h Qd 3c 7s Qs"  # b: 8-7 make a wild, three queens
PAIR_OF_KINGS = "Kc Kd 9c 5s 2d"  # c: no adjacent ranks apart from the kings
HIGH_CARD = "Ts 8d 6h 4h 2c"  # a: T-8-6-4-2, no two ranks adjacent


def game(*hands: str, variant: str = "consecutive", players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", ANTE)
    return table(players, decks=[stack_deck(*hands)], variant=variant, **options)


def test_cons_01_five_cards_each_then_the_declare() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD)
    events = start(session)
    assert [
        (e.data["player"], e.data["face"], len(e.data["cards"])) for e in of_type(events, CARDS_DEALT)
    ] == [("b", "down", 5), ("c", "down", 5), ("a", "down", 5)]
    assert session.state.pot == 3 * ANTE


def test_d_cons_01_the_declare_is_sequential_from_the_dealers_left() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD)
    events = start(session)
    opened = one(events, DECLARE_OPENED).data
    assert (opened["mode"], opened["players"]) == ("sequential", ["b"])


def test_cons_01_ex_06_the_best_hand_takes_the_pot_and_the_others_match_it() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert {h["player"]: h["value"] for h in showdown["hands"]}["b"] == "Three queens"  # EX-06
    assert showdown["winners"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 30),
        ("seat:a", "pot", 30),
    ]
    assert session.state.pot == 60


def test_cons_02_the_best_three_of_five_count() -> None:
    session = game("Kh Kd 9c 5s 2d", "Qh Qd Tc 9h 2h", HIGH_CARD)  # T-9 make a wild: three queens
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["value"] for h in showdown["hands"]] == ["Pair of kings, nine kicker", "Three queens"]
    assert showdown["winners"] == ["c"]


def test_cons_03_two_consecutive_cards_make_one_wild() -> None:
    session = game("Ah 8c 7c 5c 4d", PAIR_OF_KINGS, HIGH_CARD)  # D-CONS-01: 8-7 and 5-4
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert one(events, SHOWDOWN_HELD).data["hands"][0]["value"] == "Three aces"


def test_cons_04_no_straights_or_flushes() -> None:
    """A five-card diamond flush with no adjacent ranks is only a high card; a pair beats it."""
    session = game("Ad Jd 9d 6d 3d", "2h 2s 9c Qs 6s", HIGH_CARD)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [h["category"] for h in showdown["hands"]] == ["high_card", "pair"]
    assert showdown["winners"] == ["c"]


def test_d_cons_01_the_ace_is_next_to_the_king_and_the_two() -> None:
    session = game("Ah Kd 9c 9s 4d", "Kh 2d Jc Js 6d", HIGH_CARD)  # A-K: three nines; K-2 not
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert [h["value"] for h in one(events, SHOWDOWN_HELD).data["hands"]] == [
        "Three nines",
        "Pair of jacks, king kicker",
    ]


def test_cons_05_the_game_ends_on_a_lone_in() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD, dealer_forced_in=False)
    start(session)
    events = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert (showdown["reason"], showdown["hands"]) == ("uncontested", [])  # G2-11: not shown
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:c", 30)]
    assert one(events, GAME_ENDED).data["reason"] == "uncontested"


def test_cons_05_the_game_goes_on_while_two_or_more_are_in() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    assert not of_type(events, GAME_ENDED)


def test_cons_01_classic_settlement_with_the_pot_limit_and_reserve() -> None:
    """CAP-01, RES-01, D-RES-01: the matches above the table's pot limit wait in the reserve."""
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD, pot_limit=40)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    settled = one(events, POT_SETTLED).data
    assert (settled["pot"], settled["reserve"]) == (40, 20)
    assert (session.state.pot, session.state.reserve) == (40, 20)


def test_cons_01_max_loss_caps_each_match() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD, max_loss=12)
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert transfers(of_type(events, POT_SETTLED)) == [
        ("pot", "seat:b", 30),
        ("seat:c", "pot", 12),
        ("seat:a", "pot", 12),
    ]


def test_alt_02_ex_07_a_gap_of_one_rank_makes_the_wild() -> None:
    session = game("Ah Ad 8c Js 6s", PAIR_OF_KINGS, HIGH_CARD, variant="alternating")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["hands"][0]["value"] == "Three aces"  # EX-07: 8 and 6
    assert showdown["winners"] == ["b"]


def test_alt_01_consecutive_cards_are_no_wild_in_alternating() -> None:
    session = game(EX_06, PAIR_OF_KINGS, HIGH_CARD, variant="alternating")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "out"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["hands"][0]["value"].startswith("Pair of queens")  # 8-7 is no gap
    assert showdown["winners"] == ["c"]


def test_d_cons_01_alternating_bridges_the_ace_q_a_and_a_3() -> None:
    session = game("Qh Ad 9c 9s 5d", "Ah 3d Jc Js 6d", "Kh Kd 7c 4s 2d", variant="alternating")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    values = {h["player"]: h["value"] for h in one(events, SHOWDOWN_HELD).data["hands"]}
    assert values["b"] == "Three nines"
    assert values["c"] == "Three jacks"
    assert values["a"] == "Three kings"  # K-2: the ace between


def test_cons_variants_are_data() -> None:
    for name in ("consecutive", "alternating"):
        variant = get_variant(name)
        assert [s.kind for s in variant.program] == [
            "ante",
            "deal",
            "declare",
            "all_out",
            "showdown",
            "settle",
        ]
        assert variant.cards_per_player == 5
        assert variant.max_seats == 10  # D-GEN-02
        assert variant.game_ends == "lone_in_wins"
    with pytest.raises(DomainError):
        validate_options("consecutive", {"seats": 11})
