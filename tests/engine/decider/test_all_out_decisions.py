"""The all-out corrections of D-AO-02 (a wimp payment stands in for the next deal's
antes) and D-AO-03 (extra card in two-card Guts: three cards ranked by the table's Table 3C preset)."""

from __future__ import annotations

import pytest

from tables.engine.decider.commands import SitDown
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import ANTES_POSTED, CARDS_DEALT, POT_SETTLED, SHOWDOWN_HELD
from tables.engine.decider.snapshot import state_from_json, state_to_json
from tables.engine.decider.variants import validate_options

from .helpers import Session, of_type, one, stack_deck, start, table, transfers

# Deal 1: dealer a, order b c d a; b holds the best hand.
DEAL1 = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")
# Deal 2: dealer b, order c d a b; c holds the best hand.
DEAL2 = stack_deck("Ah Ad", "9c 4d", "5s 6h", "8d 2s")


def wimp_deal(rule: str, ante_rule: str, decks: list[list[str]] | None = None) -> tuple[Session, list]:
    """Given four players antes 10, simultaneous declare; when all declare out in deal 1."""
    session = table(
        decks=decks or [DEAL1, DEAL2], ante=10, declare_mode="simultaneous", all_out=rule, ante_rule=ante_rule
    )
    start(session)
    return session, session.declare(1, *((p, "out") for p in session.state.live.order))


def test_d_ao_02_wimp_all_every_deal_nobody_antes_the_next_deal() -> None:
    """D-AO-02 (AO-03): the best hand pays N antes (4 x 10), which stand in for the next antes."""
    session, events = wimp_deal("wimp_all", "every_deal")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 40)]
    assert one(events, POT_SETTLED).data["ante_exempt"] == ["b", "c", "d", "a"]
    assert session.state.pot == 80
    antes = one(start(session), ANTES_POSTED).data
    assert antes["paid"] == []
    assert antes["exempt"] == ["c", "d", "a", "b"]
    assert antes["due"] is False
    assert antes["transfers"] == []
    assert session.state.pot == 80


def test_d_ao_02_wimp_others_every_deal_best_hand_pays_his_own_ante_too() -> None:
    """D-AO-02 (AO-04): N - 1 antes for the others plus his own: N in all; nobody antes next."""
    session, events = wimp_deal("wimp_others", "every_deal")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 40)]
    assert one(start(session), ANTES_POSTED).data["paid"] == []
    assert session.state.pot == 80


def test_d_ao_02_wimp_others_pot_empty_antes_pays_n_minus_one() -> None:
    """Q-AO-01 (b), D-AO-02: with antes only on an empty pot no ante is due anyway: N - 1."""
    session, events = wimp_deal("wimp_others", "pot_empty")
    assert transfers(of_type(events, POT_SETTLED)) == [("seat:b", "pot", 30)]
    assert "ante_exempt" not in one(events, POT_SETTLED).data
    antes = one(start(session), ANTES_POSTED).data
    assert antes["paid"] == []  # G2-05: the pot carries
    assert "exempt" not in antes
    assert session.state.pot == 70


def test_d_ao_02_the_exemption_is_for_the_next_deal_only() -> None:
    session, _ = wimp_deal("wimp_all", "every_deal")
    start(session)  # deal 2: no antes
    session.declare(2, ("c", "in"), ("d", "in"), ("a", "out"), ("b", "out"))
    antes = one(start(session), ANTES_POSTED).data  # deal 3: everyone antes again
    assert antes["paid"] == ["d", "a", "b", "c"]
    assert "exempt" not in antes


def test_d_ao_02_a_newcomer_antes_nobody_paid_for_him() -> None:
    session, _ = wimp_deal("wimp_all", "every_deal")
    session.do(SitDown("e", 1000))
    antes = one(start(session), ANTES_POSTED)
    assert antes.data["paid"] == ["e"]
    assert transfers([antes]) == [("seat:e", "pot", 10)]


def test_d_ao_02_other_all_out_rules_excuse_nobody() -> None:
    for rule in ("carry", "extra_ante", "best_matches"):
        session, events = wimp_deal(rule, "every_deal")
        assert "ante_exempt" not in one(events, POT_SETTLED).data, rule
        assert len(one(start(session), ANTES_POSTED).data["paid"]) == 4, rule


def test_d_ao_02_contested_deals_excuse_nobody_under_match_pot_each() -> None:
    session = table(decks=[DEAL1, DEAL2], ante=10, ante_rule="every_deal")
    start(session)
    events = session.declare(1, ("b", "in"), ("c", "in"), ("d", "out"), ("a", "out"))
    assert one(events, POT_SETTLED).data["matchers"] == ["c"]
    assert "ante_exempt" not in one(events, POT_SETTLED).data
    assert len(one(start(session), ANTES_POSTED).data["paid"]) == 4


@pytest.mark.parametrize("rule", ["wimp_all", "wimp_others"])
def test_d_ao_02_the_exemption_survives_a_snapshot(rule: str) -> None:
    session, _ = wimp_deal(rule, "every_deal")
    restored = state_from_json(state_to_json(session.state))
    assert restored == session.state
    assert restored.ante_exempt == ("b", "c", "d", "a")


# --- D-AO-03 -------------------------------------------------------------------------------------


def extra_card_deal(b: str, a: str, **options: object) -> list:
    """Given two-card Guts, players a and b (b dealt first), all_out=extra_card; when both go
    out, get a third card each, then both go in: the showdown's events."""
    (b1, b2, b3), (a1, a2, a3) = b.split(), a.split()
    session = table(
        "ab",
        decks=[[b1, a1, b2, a2, b3, a3]],
        ante=5,
        declare_mode="simultaneous",
        all_out="extra_card",
        **options,
    )
    start(session)
    dealt = session.declare(1, ("b", "out"), ("a", "out"))
    assert [e.data["cards"] for e in of_type(dealt, CARDS_DEALT)] == [b.split(), a.split()]
    return session.declare(1, ("b", "in"), ("a", "in"))


@pytest.mark.parametrize(
    ("ranking", "winner", "category"),
    [
        ("guts3_sf_high", "b", "straight_flush"),  # D-3C-01, the default preset
        ("guts3_trips_high", "b", "straight_flush"),  # straight flush still beats a pair
        ("guts3_classic", "a", "high_card"),  # no straights or flushes: the pair wins
    ],
)
def test_d_ao_03_three_cards_rank_as_a_three_card_hand_by_the_tables_preset(
    ranking: str, winner: str, category: str
) -> None:
    """D-AO-03: 5h 6h 7h is a straight flush, not "seven-six" (the best two of three, which the
    kings' pair would beat)."""
    events = extra_card_deal("5h 6h 7h", "Ks Kd 2c", ranking=ranking)
    showdown = one(events, SHOWDOWN_HELD).data
    assert showdown["winners"] == [winner]
    assert showdown["hands"][0]["category"] == category
    assert [len(h["cards"]) for h in showdown["hands"]] == [3, 3]


def test_d_ao_03_default_preset_is_sf_high() -> None:
    events = extra_card_deal("5h 6h 7h", "Ks Kd Kc")  # trips lose to a straight flush
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["b"]
    assert transfers(of_type(events, POT_SETTLED)) == [("pot", "seat:b", 10), ("seat:a", "pot", 10)]


@pytest.mark.parametrize(("ace_low", "winner"), [(True, "b"), (False, "a")])
def test_d_ao_03_d_gen_04_ace_low_straight_after_the_extra_card(ace_low: bool, winner: str) -> None:
    events = extra_card_deal("Ah 2c 3d", "Ks Kd 4c", ace_low=ace_low)
    assert one(events, SHOWDOWN_HELD).data["winners"] == [winner]


def test_d_ao_03_a_second_extra_card_best_three_card_hand_of_four() -> None:
    """D-AO: after two extra cards, the best three-card combination of the four cards held."""
    deck = ["2c", "3s", "7d", "8s", "Jh", "9d", "Qh", "Kd"]  # b: 2c 7d Jh Qh; a: 3s 8s 9d Kd
    session = table("ab", decks=[deck], ante=5, declare_mode="simultaneous", all_out="extra_card")
    start(session)
    session.declare(1, ("b", "out"), ("a", "out"))
    session.declare(1, ("b", "out"), ("a", "out"))
    events = session.declare(1, ("b", "in"), ("a", "in"))
    showdown = one(events, SHOWDOWN_HELD).data
    assert [len(h["cards"]) for h in showdown["hands"]] == [4, 4]
    assert showdown["hands"][0]["category"] == "high_card"  # Q-J-7 of 2c 7d Jh Qh
    assert showdown["winners"] == ["a"]  # K-9-8 beats Q-J-7


def test_d_ao_03_two_cards_still_rank_as_two_card_guts() -> None:
    """Without an extra card two-card hands keep Table G2 (the preset ranks only grown hands)."""
    session = table(
        "ab", decks=[["As", "Kc", "2s", "Kd"]], ante=5, all_out="extra_card", ranking="guts3_classic"
    )
    start(session)
    events = session.declare(1, ("b", "in"), ("a", "in"))
    assert one(events, SHOWDOWN_HELD).data["winners"] == ["a"]  # K-K beats A-2


@pytest.mark.parametrize(
    "options",
    [
        {"ranking": "guts3_classic"},
        {"ace_low": False},
        {"ranking": "guts3_trips_high", "all_out": "wimp_all"},
    ],
)
def test_d_ao_03_a_three_card_preset_without_extra_card_is_invalid(options: dict) -> None:
    with pytest.raises(DomainError) as error:
        validate_options("guts2", options)
    assert error.value.code == "invalid_option"
    assert error.value.detail["option"] in options
    assert error.value.detail["conflict"] == "all_out"


def test_d_ao_03_options_recorded() -> None:
    options = validate_options(
        "guts2", {"all_out": "extra_card", "ranking": "guts3_trips_high", "ace_low": False}
    )
    assert (options["ranking"], options["ace_low"]) == ("guts3_trips_high", False)
