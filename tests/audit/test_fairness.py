"""DESIGN §2.7: the proof of a finished deal of the seed recipe (deck schema 1, the deals logged
before per-card commitments: their seeds are public already), and docs/verify_deal.py run on
exported deals. Deals of deck schema 2: test_fair_deals.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

from ledger.models import Event
from tables import service
from tables.engine.decider import commands as cmd
from tests.audit.conftest import (
    Club,
    Session,
    client_for,
    everyone_in,
    hole_cards,
    stored_seed,
    tamper,
)

VERIFIER = Path(settings.BASE_DIR) / "docs" / "verify_deal.py"


@pytest.fixture
def session(legacy_session: Session) -> Session:
    """Old deals keep verifying by the old recipe."""
    return legacy_session


def run_verifier(tmp_path: Path, document: object) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(document))
    return subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def export(api: object, session: Session, deal_no: int) -> dict:
    response = api.get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/history", {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_proof_checks_every_card_in_dealing_order(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    proof = client_for(club.auditor).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert (proof["provable"], proof["ok"], proof["commitment_ok"]) == (True, True, True)
    assert proof["seed"] == stored_seed(session.table_id, deal_no)
    hands = hole_cards(session.table_id, deal_no)
    participants = list(hands)  # CardsDealt order: from the dealer's left
    expected = [(participants[i % 3], hands[participants[i % 3]][i // 3]) for i in range(6)]  # D-G2-01
    assert [(card["player"], card["card"]) for card in proof["dealt"]] == expected
    assert all(card["matches"] for card in proof["dealt"])
    assert proof["deck"][:6] == [card for _, card in expected]


def test_a_player_gets_every_verdict_but_only_his_own_cards(club: Club, session: Session) -> None:
    deal_no = session.play(lambda player: "out")  # the dealer is forced in: nobody shows
    me = str(club.players[1].pk)
    proof = client_for(club.players[1]).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert proof["deck"] is None
    assert all(card["matches"] is True for card in proof["dealt"])
    assert {card["player"] for card in proof["dealt"] if card["card"] is not None} == {me}


def test_the_verifier_accepts_an_honest_deal(club: Club, session: Session, tmp_path: Path) -> None:
    deal_no = session.play(everyone_in)
    result = run_verifier(tmp_path, export(client_for(club.auditor), session, deal_no))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "commitment OK" in result.stdout
    assert result.stdout.count(" OK\n") == 6
    assert "OK: 6 cards checked, 0 hidden" in result.stdout


def test_the_verifier_rejects_a_swapped_card(club: Club, session: Session, tmp_path: Path) -> None:
    deal_no = session.play(everyone_in)
    document = export(client_for(club.auditor), session, deal_no)
    dealt = document["proof"]["dealt"]
    dealt[1]["card"], dealt[4]["card"] = dealt[4]["card"], dealt[1]["card"]
    result = run_verifier(tmp_path, document)
    assert result.returncode == 1
    assert result.stdout.count("MISMATCH: the seed deals") == 2


def test_the_verifier_rejects_a_wrong_seed(club: Club, session: Session, tmp_path: Path) -> None:
    deal_no = session.play(everyone_in)
    document = export(client_for(club.auditor), session, deal_no)
    document["proof"]["seed"] = "00" * 32
    result = run_verifier(tmp_path, document)
    assert result.returncode == 1
    assert "MISMATCH: sha256(seed)" in result.stdout


def test_the_verifier_checks_a_whole_table_and_what_a_player_can_see(
    club: Club, session: Session, tmp_path: Path
) -> None:
    session.play(everyone_in)
    session.play(lambda player: "out")
    response = client_for(club.players[0]).get(f"/api/v1/tables/{session.table_id}/history.json")
    result = run_verifier(tmp_path, json.loads(response.content))
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("Deal ") == 2
    assert "hidden from you, not checked" in result.stdout


def test_a_tampered_card_fails_the_proof(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    rows = Event.objects.filter(stream=f"table-{session.table_id}", type="CardsDealt")
    row = rows.order_by("version").first()
    first, second = row.data["cards"]
    tamper(row.position, {**row.data, "cards": ["2c" if first != "2c" else "3c", second]})
    proof = client_for(club.auditor).get(f"/api/v1/tables/{session.table_id}/deals/{deal_no}/proof").json()
    assert proof["ok"] is False
    assert [card["index"] for card in proof["dealt"] if not card["matches"]] == [0]


@override_settings(GUTS_ALLOW_STACKED_DECKS=True)
def test_stacked_decks_say_there_is_nothing_to_prove(club: Club, tmp_path: Path) -> None:
    opened = service.table_open(
        variant="guts2", options={"ante": 10}, stacked_decks=[["As", "Kd", "Qh", "Js", "Tc", "9d"]]
    )
    stacked = Session(opened.table_id, club.ids())
    for player in club.ids():
        service.table_command(table_id=stacked.table_id, command=cmd.SitDown(str(player), 1000))
    stacked.record()
    deal_no = stacked.play(everyone_in)
    api = client_for(club.auditor)
    proof = api.get(f"/api/v1/tables/{stacked.table_id}/deals/{deal_no}/proof").json()
    assert (proof["provable"], proof["stacked"], proof["ok"]) == (False, True, None)
    assert "stacked" in proof["reason"]
    result = run_verifier(tmp_path, export(api, stacked, deal_no))
    assert result.returncode == 2
    assert "no proof possible" in result.stdout


@pytest.mark.parametrize("bad", [{"nothing": 1}, [1, 2]])
def test_the_verifier_refuses_files_that_are_not_exports(tmp_path: Path, bad: object) -> None:
    assert run_verifier(tmp_path, bad).returncode == 2
