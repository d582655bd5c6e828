"""Fold once (DESIGN §2.2): `decide` folds each event it decides exactly once and returns the
state after them, which equals a fresh fold of those events."""

from __future__ import annotations

import pytest

from tables.engine.decider import evolve as evolve_module
from tables.engine.decider.commands import Declare, StartDeal
from tables.engine.decider.decide import decide
from tables.engine.decider.evolve import fold

from .helpers import SEED, T0, table


@pytest.fixture
def fold_counter(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every event folded, by type (evolve's one dispatch point)."""
    folded: list[str] = []
    real = evolve_module._fold

    def counting(state, event):  # type: ignore[no-untyped-def]
        folded.append(event.type)
        return real(state, event)

    monkeypatch.setattr(evolve_module, "_fold", counting)
    return folded


def test_start_deal_folds_each_event_once(fold_counter: list[str]) -> None:
    session = table("abcdef")
    fold_counter.clear()
    decided = decide(session.state, StartDeal(seed=SEED), T0)
    assert fold_counter == [e.type for e in decided]
    assert decided.state == fold(decided, session.state)


def test_last_declare_folds_reveal_showdown_and_settlement_once(fold_counter: list[str]) -> None:
    session = table("abc")
    session.do(StartDeal(seed=SEED))
    for player in ("b", "c"):  # the dealer (a) declares last
        session.do(Declare(player, 1, "in"))
    fold_counter.clear()
    decided = decide(session.state, Declare("a", 1, "in"), T0)
    assert "PotSettled" in [e.type for e in decided]
    assert "DealEnded" in [e.type for e in decided]
    assert fold_counter == [e.type for e in decided]
    assert decided.state == fold(decided, session.state)
