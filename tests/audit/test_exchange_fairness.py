"""The fairness proof of a deal with draws (EXC-01/02, D-GEN-02, DESIGN §2.7): drawn cards are
checked in the order they left the deck, and cards from discards reshuffled into the stock are
checked against the batch's shuffle by its sub-seed, by the server and by docs/verify_deal.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings

from tables.audit.deals import DealRecord
from tables.audit.fairness import dealing_order, proof_json
from tables.engine.decider.commands import Declare, Exchange
from tables.engine.decider.events import CARDS_DRAWN, DEAL_STARTED
from tables.engine.decider.evolve import fold
from tables.engine.decider.view import Viewer
from tests.engine.decider.helpers import Session, start, table

VERIFIER = Path(settings.BASE_DIR) / "docs" / "verify_deal.py"
PLAYERS = "abcdefghijklmnopqrstuvwxy"  # 25: the stock runs out during the draws


def played(players: str = PLAYERS, draw_all: bool = True) -> tuple[Session, DealRecord]:
    """A seeded deal with everyone drawing (all his cards, or one), then everyone out."""
    session = table(players, exchange="draw", ante=1, seats=len(players), declare_mode="simultaneous")
    first = len(session.events)
    start(session)
    deal = session.state.live
    assert deal is not None
    for player in deal.order:
        hand = list(session.state.live.hand_of(player))
        session.do(Exchange(player, 1, hand if draw_all else hand[:1]))
    for player in deal.order:
        session.do(Declare(player, 1, "out"))
    assert session.state.live is None
    before = fold(session.events[:first])
    events = tuple(
        SimpleNamespace(type=e.type, data=e.data, version=first + i + 1)
        for i, e in enumerate(session.events[first:])
    )
    assert events[0].type == DEAL_STARTED
    return session, DealRecord(table_id="t1", deal_no=1, before=before, events=events, over=True)  # type: ignore[arg-type]


def test_exc_drawn_cards_follow_the_deal_in_the_order_they_left_the_deck() -> None:
    session, record = played("abc", draw_all=False)
    order = dealing_order(record.events)  # type: ignore[arg-type]
    drawn = [(e.data["player"], e.data["drawn"][0]) for e in session.events if e.type == CARDS_DRAWN]
    assert [(card.player, card.card) for card in order[6:]] == drawn
    proof = proof_json(record, Viewer(None, "auditor"))
    assert (proof["ok"], len(proof["dealt"]), proof["reshuffles"]) == (True, 9, [])


def test_d_gen_02_cards_from_reshuffled_discards_are_proven(tmp_path: Path) -> None:
    _, record = played()
    proof = proof_json(record, Viewer(None, "auditor"))
    assert proof["ok"] is True
    assert proof["reshuffles"]  # the stock ran out
    assert len(proof["dealt"]) == 100 > len(proof["pack"])
    assert all(card["matches"] for card in proof["dealt"])
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    result = subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK: 100 cards checked, 0 hidden" in result.stdout


def test_d_gen_02_a_player_sees_his_own_cards_and_not_the_batches(tmp_path: Path) -> None:
    _, record = played()
    proof = proof_json(record, Viewer("c"))
    assert (proof["ok"], proof["deck"], proof["reshuffles"]) == (True, None, None)
    assert {card["player"] for card in proof["dealt"] if card["card"] is not None} == {"c"}
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    result = subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "MISMATCH" not in result.stdout
    assert "card 53 to player c: from reshuffled discards you may not see, not checked" in result.stdout
