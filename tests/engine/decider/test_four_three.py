"""Four-Three (RULES.md §13): 43-01..07, Q-43-01 and D-43-01 (43-07's betting round by D-BET),
given/when/then on the pure decider with stacked decks.

Players "abc" (or "abcd") sit in seats 0..; the first dealer is a, so cards go b, c, a. Each hand
is written as seven cards: the four dealt first, then the three more an "in" player receives.
"""

from __future__ import annotations

from tables.engine.decider.commands import Bet, Declare, ExpireDeclare
from tables.engine.decider.events import (
    ANTES_POSTED,
    BET_TURN_OPENED,
    BETS_AWARDED,
    CARDS_DEALT,
    DECLARE_OPENED,
    DECLARE_TIMED_OUT,
    DECLARED,
    DECLARES_REVEALED,
    POT_SETTLED,
    SHOWDOWN_HELD,
)
from tables.engine.decider.money import TERMS, Round
from tables.engine.decider.settlement import RULES, half_shares
from tables.engine.decider.steps.escalation import Escalate
from tables.engine.decider.view import Viewer, legal_actions, redact_event, table_view
from tables.engine.variants import get_variant, validate_options

from .helpers import T0, Session, later, of_type, one, stack_deck, start, table, transfers


def seven(*hands: str, ins: str | None = None) -> list[str]:
    """Four cards each in deal order, then three more each for the hands named "in" (all of them
    unless `ins` gives their indices, e.g. "02"), in deal order (43-02)."""
    split = [h.split() for h in hands]
    chosen = [split[int(i)] for i in ins] if ins is not None else split
    return [*stack_deck(*(" ".join(h[:4]) for h in split)), *stack_deck(*(" ".join(h[4:]) for h in chosen))]


def game(*decks: list[str], players: str = "abc", **options: object) -> Session:
    options.setdefault("ante", 2)
    return table(players, decks=decks, variant="four_three", buy_in=200, **options)


def sides(session: Session, deal_no: int, **choices: str) -> list:
    """The sealed High/Low/Both declare (43-03), in any order."""
    return session.declare(deal_no, *choices.items())


# b: a straight 5-9 high but also 9-7-6-5-3 low; c: aces full, no low under a pair; a: A-2-3-4-6
HIGH_B = "5h 6d 7c 3s 8h 9d 2c"  # high: 9-high straight; low: 6-5-3-2... (7 cards)
HIGH_C = "As Ad Ac Kd Ks 9c Qh"  # high: aces full
LOW_A = "Ah 2d 3c 4s 6h Jd Qs"  # low: 6-4-3-2-A; high: ace high


# --- 43-01, 43-02, D-43-01: the deal -------------------------------------------------------------


def test_43_01_everybody_antes_every_deal() -> None:  # CZV-02, Q-CZV-01
    session = game(seven(HIGH_B, HIGH_C, LOW_A), seven(HIGH_B, HIGH_C, LOW_A), dealer_forced_in=False)
    antes = one(start(session), ANTES_POSTED).data
    assert sorted(antes["paid"]) == ["a", "b", "c"]
    session.declare(1, ("b", "out"), ("c", "out"), ("a", "out"))  # all out: the pot carries
    assert session.state.pot == 6
    antes = one(start(session), ANTES_POSTED).data
    assert sorted(antes["paid"]) == ["a", "b", "c"]  # again, on a full pot
    assert session.state.pot == 12


def test_d_43_01_four_cards_first_then_three_more_for_the_in_players() -> None:  # 43-02
    session = game(seven(HIGH_B, HIGH_C, LOW_A, ins="02"))
    dealt = of_type(start(session), CARDS_DEALT)
    assert [(e.data["player"], len(e.data["cards"])) for e in dealt] == [("b", 4), ("c", 4), ("a", 4)]
    new = session.declare(1, ("b", "in"), ("c", "out"), ("a", "in"))
    assert [(e.data["player"], len(e.data["cards"])) for e in of_type(new, CARDS_DEALT)] == [
        ("b", 7),
        ("a", 7),
    ]
    assert get_variant("four_three").max_seats == 7  # D-GEN-02: 7 cards each


def test_43_the_first_declare_is_sequential_and_a_lone_in_takes_the_pot() -> None:  # G2-08, G2-11
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    opened = one(start(session), DECLARE_OPENED).data
    assert (opened["mode"], opened["players"]) == ("sequential", ["b"])
    new = session.declare(1, ("b", "out"), ("c", "in"), ("a", "out"))
    assert transfers(of_type(new, POT_SETTLED)) == [("pot", "seat:c", 6)]
    assert not of_type(new, CARDS_DEALT)


# --- 43-03, D-43-01: the sealed High/Low/Both declare --------------------------------------------


def test_43_03_high_low_or_both_is_declared_at_once_and_sealed() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    new = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    opened = of_type(new, DECLARE_OPENED)[-1].data
    assert (opened["mode"], opened["players"]) == ("simultaneous", ["b", "c", "a"])
    assert session.state.deal is not None
    assert session.state.deal.stage == 2
    action = next(x for x in legal_actions(session.state, "b", T0) if x["action"] == "declare")
    assert (action["choices"], action["stage"]) == (["high", "low", "both"], 2)
    assert session.fails(Declare("b", 1, "in")) == "invalid_choice"
    assert session.fails(Declare("b", 1, "out")) == "invalid_choice"
    assert session.fails(Declare("b", 1, "high", stage=1)) == "wrong_stage"
    first = one(session.do(Declare("a", 1, "low")), DECLARED)
    assert first.data["sealed"] is True
    for viewer in (Viewer("b"), Viewer("c"), Viewer(None, "auditor"), Viewer(None, "admin")):
        assert redact_event(first.type, first.data, viewer, deal_over=False)["choice"] is None
    assert redact_event(first.type, first.data, Viewer("a"), deal_over=False)["choice"] == "low"
    seen = {p["player"]: p["declared"] for p in table_view(session.state, Viewer("b"), T0)["deal"]["players"]}
    assert seen == {"b": None, "c": None, "a": "sealed"}
    assert session.fails(Declare("a", 1, "high")) == "already_declared"


def test_43_03_the_choices_are_revealed_together() -> None:  # SIM-04
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, a="low", c="high", b="both")
    assert one(new, DECLARES_REVEALED).data["choices"] == {"b": "both", "c": "high", "a": "low"}


def test_43_03_a_timed_out_player_plays_high() -> None:  # interpretation: no "out" to fall back on
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    sides(session, 1, a="low", c="high")
    new = session.do(ExpireDeclare(1), later(31))
    assert one(new, DECLARE_TIMED_OUT).data == {"deal_no": 1, "players": ["b"], "effect": "high"}
    assert one(new, DECLARES_REVEALED).data["choices"]["b"] == "high"


# --- 43-04, 43-05, 43-06, D-43-01: the showdown and the halves ----------------------------------------


def test_43_04_43_05_best_five_of_seven_each_way_and_the_pot_in_halves() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A), ante=5)  # pot 15: halves 8 and 7
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, b="high", c="high", a="low")
    shown = one(new, SHOWDOWN_HELD).data
    assert shown["sides"] == {"high": ["c"], "low": ["a"], "both_failed": []}
    hands = {h["player"]: h for h in shown["hands"]}
    assert hands["c"]["high"]["category"] == "full_house"
    assert hands["a"]["low"]["category"] == "high_card"
    assert "6" in hands["a"]["low"]["value"]
    # D-GEN-01: the odd chip to the half whose winner sits nearest the dealer's left (c before a)
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 8),
        ("pot", "seat:a", 7),
        ("seat:b", "pot", 15),
    ]  # 43-06: b matches


def test_d_43_01_low_is_ace_to_five_straights_and_flushes_do_not_count() -> None:
    # b's A-2-3-4-5 is a straight for High yet the best Low (the wheel)
    session = game(seven("Ah 2h 3h 4h 5h Kd Kc", "As 2d 3c 4s 7h Jd Qs", "9s 9d 9c Ks Qd Jh Th"))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, b="low", c="low", a="high")
    assert one(new, SHOWDOWN_HELD).data["sides"]["low"] == ["b"]


def test_d_43_01_a_both_player_who_wins_both_takes_the_whole_pot() -> None:
    # b: A-2-3-4-5 of hearts: a straight flush for High and the wheel for Low
    session = game(seven("Ah 2h 3h 4h 5h Kd Kc", "As Ad Ac Kh Ks 9c Qh", "7s 2d 3c 4s 8h Jd Qs"))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, b="both", c="high", a="low")
    assert one(new, SHOWDOWN_HELD).data["sides"] == {"high": ["b"], "low": ["b"], "both_failed": []}
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:b", 6),
        ("seat:c", "pot", 6),
        ("seat:a", "pot", 6),
    ]


def test_d_43_01_a_both_player_who_loses_one_half_wins_nothing() -> None:
    # b both: best High (straight) but a's low beats his: b is struck, c then takes High
    session = game(seven(HIGH_B, HIGH_C.replace("Ac", "5c").replace("Kd", "Jc"), LOW_A))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, b="both", c="high", a="low")
    shown = one(new, SHOWDOWN_HELD).data
    assert shown["sides"] == {"high": ["c"], "low": ["a"], "both_failed": ["b"]}
    assert shown["losers"] == ["b"]
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 3),
        ("pot", "seat:a", 3),
        ("seat:b", "pot", 6),
    ]


def test_d_43_01_with_nobody_on_one_side_the_other_side_takes_the_whole_pot() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    new = sides(session, 1, b="high", c="high", a="high")
    assert one(new, SHOWDOWN_HELD).data["sides"] == {"high": ["c"], "low": [], "both_failed": []}
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 6),
        ("seat:b", "pot", 6),
        ("seat:a", "pot", 6),
    ]


def test_43_06_each_in_player_who_wins_nothing_matches_the_pot() -> None:  # D-43-01, G2-13
    session = game(seven(HIGH_B, HIGH_C, "Kh Qc Jh 9s 8d 7h 2h", LOW_A), players="abcd")  # b c d a
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("d", "in"), ("a", "in"))
    new = sides(session, 1, b="high", c="high", d="low", a="low")
    settled = one(new, POT_SETTLED).data
    assert settled["winners"] == ["c", "a"]
    assert settled["matchers"] == ["b", "d"]
    assert session.state.pot == 16  # b and d match the pot of 8


def test_d_43_01_tied_halves_share_by_d_gen_01() -> None:
    shares = half_shares(7, [["b", "c"], ["a"]], ("b", "c", "a"))
    assert shares == {"b": 2, "c": 2, "a": 3}  # halves 4 (b first) and 3; 4 = 2 + 2
    assert half_shares(7, [["a"], ["c"]], ("b", "c", "a")) == {"c": 4, "a": 3}
    assert half_shares(7, [["b"], []], ("b", "c", "a")) == {"b": 7}
    assert half_shares(7, [[], []], ("b", "c", "a")) == {}


def test_d_43_01_when_every_both_player_is_struck_nobody_wins_and_all_match() -> None:
    terms = dict(TERMS)
    r = Round(
        table="t1",
        order=("b", "c"),
        choices=("both", "both"),
        winners=(),
        pot=10,
        reserve=0,
        stacks={"b": 100, "c": 100},
        terms=terms,
        sides=((), ()),
    )
    result = RULES["high_low"](r)
    assert result.outcome == "nobody_won"
    assert result.pot == 30


def test_43_no_escalation_here() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    assert session.fails(Escalate("b", 1, "single")) == "not_your_turn"


def test_43_options() -> None:
    options = validate_options("four_three", {})
    assert options["declare_mode"] == "sequential"
    assert get_variant("four_three").capacity(options) == 7


# --- 43-07, D-BET: the optional betting round ------------------------------------------------------


def test_43_07_no_betting_round_by_default() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A))
    start(session)
    new = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert not of_type(new, BET_TURN_OPENED)
    assert validate_options("four_three", {})["betting"] is False


def test_43_07_a_betting_round_after_the_three_more_cards_before_the_high_low_declare() -> None:
    session = game(seven(HIGH_B, HIGH_C, LOW_A), betting=True)  # ante 2: pot 6, unit 2
    start(session)
    new = session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    assert one(new, BET_TURN_OPENED).data["player"] == "b"  # D-BET: the dealer's left
    assert all(e.data["mode"] == "sequential" for e in of_type(new, DECLARE_OPENED))  # no High/Low yet
    session.do(Bet("b", 1, "bet"))
    session.do(Bet("c", 1, "raise"))
    session.do(Bet("a", 1, "fold"))  # a folds: stays liable
    new = session.do(Bet("b", 1, "call"))
    opened = of_type(new, DECLARE_OPENED)[-1].data
    assert opened["players"] == ["b", "c"]  # a does not declare
    assert (session.state.bets, session.state.pot) == (8, 6)  # b 2 + 2, c 4: apart from the pot
    new = sides(session, 1, b="high", c="high")
    shown = one(new, SHOWDOWN_HELD).data
    assert [h["player"] for h in shown["hands"]] == ["b", "c"]  # the folder is not shown
    # 43-05 with nobody on Low: c takes the pot of 6; b and the folder a match it at its
    # pre-betting size (JP-12, D-BET); the bets (8) go to c (D-BET).
    assert transfers(of_type(new, POT_SETTLED)) == [
        ("pot", "seat:c", 6),
        ("seat:b", "pot", 6),
        ("seat:a", "pot", 6),
    ]
    awarded = one(new, BETS_AWARDED).data
    assert (awarded["winners"], awarded["amount"]) == (["c"], 8)
    assert (session.state.bets, session.state.pot) == (0, 12)


def test_43_07_with_one_left_in_the_betting_he_takes_the_pot_and_the_bets() -> None:  # D-BET
    session = game(seven(HIGH_B, HIGH_C, LOW_A), betting=True)
    start(session)
    session.declare(1, ("b", "in"), ("c", "in"), ("a", "in"))
    session.do(Bet("b", 1, "bet"))
    session.do(Bet("c", 1, "fold"))
    new = session.do(Bet("a", 1, "fold"))
    assert of_type(new, DECLARE_OPENED)[-1].data["players"] == ["b"]
    new = sides(session, 1, b="low")
    settled = one(new, POT_SETTLED).data
    assert (settled["winners"], settled["matchers"]) == (["b"], ["c", "a"])
    assert one(new, BETS_AWARDED).data["amount"] == 2
