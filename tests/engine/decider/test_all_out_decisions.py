"""The all-out corrections of issue 12: D-AO-02 (a wimp payment stands in for the next deal's
antes) and D-AO-03 (extra card in two-card Guts: three cards ranked by the table's Table 3C preset)."""
from __future__ import annotations

import pytest

from tables.engine.decider.commands import SitDown
from tables.engine.decider.events import ANTES_POSTED, POT_SETTLED
from tables.engine.decider.snapshot import state_from_json, state_to_json

from .helpers import Session, of_type, one, stack_deck, start, table, transfers

# Deal 1: dealer a, order b c d a; b holds the best hand.
DEAL1 = stack_deck("As Ks", "Qd Jd", "2c 7h", "3c 8h")
# Deal 2: dealer b, order c d a b; c holds the best hand.
DEAL2 = stack_deck("Ah Ad", "9c 4d", "5s 6h", "8d 2s")


def wimp_deal(rule: str, ante_rule: str, decks: list[list[str]] | None = None) -> tuple[Session, list]:
    """Given four players antes 10, simultaneous declare; when all declare out in deal 1."""
    session = table(decks=decks or [DEAL1, DEAL2], ante=10, declare_mode="simultaneous",
                    all_out=rule, ante_rule=ante_rule)
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
    assert antes["paid"] == []                                     # G2-05: the pot carries
    assert "exempt" not in antes
    assert session.state.pot == 70


def test_d_ao_02_the_exemption_is_for_the_next_deal_only() -> None:
    session, _ = wimp_deal("wimp_all", "every_deal")
    start(session)                                                 # deal 2: no antes
    session.declare(2, ("c", "in"), ("d", "in"), ("a", "out"), ("b", "out"))
    antes = one(start(session), ANTES_POSTED).data                 # deal 3: everyone antes again
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
