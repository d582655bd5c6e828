"""Verifiable statements (docs/audit.md): a statement at a signed checkpoint verifies with
docs/verify_statement.py; a changed line, a changed balance, a dropped event, a forked log and a
bad signature each fail naming which; checkpoints are public and consistent; proofs reveal no
other player's balance (salted leaves, sums only) and no hidden card; verify_ledger checks them."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ledger.checkpoints import checkpoint_publish, signed_bytes, signing_key
from ledger.hashing import canonical_json
from ledger.merkle import sum_leaf
from ledger.models import CheckpointLeaf
from ledger.verify import verify_ledger
from tests.audit.conftest import Club, Session, client_for, everyone_in, hole_cards

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
VERIFIER = Path(__file__).resolve().parents[2] / "docs" / "verify_statement.py"


def run_verifier(tmp_path: Path, statement: dict[str, Any], *extra: Any) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, str(VERIFIER), _dump(tmp_path, "statement", statement)]
    keys = APIClient().get("/api/v1/audit/keys").json()
    args += ["--keys", _dump(tmp_path, "keys", keys)]
    for flag, value in extra:
        args += [flag, _dump(tmp_path, f"x{len(args)}", value)]
    return subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)


def _dump(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(value))
    return str(path)


@pytest.fixture
def books(club: Club, session: Session) -> tuple[Club, Session, dict[str, Any]]:
    session.play(everyone_in)
    published = client_for(club.admin).post("/api/v1/audit/checkpoints")
    assert published.status_code == 201, published.json()
    return club, session, published.json()


def statement_of(user: Any, number: int) -> dict[str, Any]:
    response = client_for(user).get(f"/api/v1/players/{user.pk}/statement?checkpoint={number}")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_statement_verifies_against_its_signed_checkpoint(
    books: tuple[Club, Session, dict[str, Any]], tmp_path: Path
) -> None:
    club, _, checkpoint = books
    ann = club.players[0]
    statement = statement_of(ann, checkpoint["number"])
    assert statement["balance"] == sum(line["amount"] for line in statement["lines"])
    assert statement["lines"]
    for line in statement["lines"]:
        assert len(line["log_path"]) <= (checkpoint["size"] - 1).bit_length()  # log2 of the log size
    [seat] = statement["seats"]  # the table she sits at, in the same books
    assert seat["account"] == f"seat:{books[1].table_id}:{ann.pk}"
    assert seat["balance"] == sum(line["amount"] for line in seat["lines"])
    result = run_verifier(tmp_path, statement)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "VERDICT: VERIFIED" in result.stdout
    assert f"seat:{books[1].table_id}:{ann.pk}" in result.stdout
    assert verify_ledger().ok


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda s: s["lines"][0].update(amount=s["lines"][0]["amount"] + 1), "changed line"),
        (lambda s: s.update(balance=s["balance"] + 1), "changed balance"),
        (lambda s: s["lines"].pop(), "a line is missing"),
        (lambda s: s["lines"][-1]["event"]["data"]["transfers"][0].update(amount=1), "changed event"),
        (lambda s: s["checkpoint"].update(signature="00" * 64), "bad signature"),
        (lambda s: s["seats"][0].update(balance=s["seats"][0]["balance"] - 10), "changed balance"),
    ],
)
def test_each_forgery_fails_naming_which(
    books: tuple[Club, Session, dict[str, Any]], tmp_path: Path, tamper: Any, message: str
) -> None:
    club, _, checkpoint = books
    statement = copy.deepcopy(statement_of(club.players[0], checkpoint["number"]))
    tamper(statement)
    result = run_verifier(tmp_path, statement)
    assert result.returncode == 1
    assert message in result.stdout
    assert "NOT VERIFIED" in result.stdout


def test_a_forked_log_fails_and_a_grown_one_is_consistent(
    books: tuple[Club, Session, dict[str, Any]], tmp_path: Path
) -> None:
    club, session, first = books
    session.play(everyone_in)
    second = checkpoint_publish(now=timezone.now())
    assert second is not None
    url = f"/api/v1/audit/checkpoints/{second['number']}/consistency"
    proof = APIClient().get(f"{url}?from={first['number']}")
    assert proof.status_code == 200
    statement = statement_of(club.players[0], second["number"])
    good = run_verifier(tmp_path, statement, ("--checkpoint", first), ("--consistency", proof.json()))
    assert good.returncode == 0, good.stdout
    assert "the log only grew" in good.stdout

    forked = dict(first, log_root=hashlib.sha256(b"another history").hexdigest())  # the club signs two books
    forked["signature"] = signing_key().sign(signed_bytes(forked)).hex()
    fork = run_verifier(tmp_path, statement, ("--checkpoint", first), ("--checkpoint", forked))
    assert fork.returncode == 1
    assert "a fork" in fork.stdout
    bad_proof = dict(proof.json(), old_root=forked["log_root"])
    inconsistent = run_verifier(tmp_path, statement, ("--consistency", bad_proof))
    assert "a forked log" in inconsistent.stdout


def test_checkpoints_and_keys_are_public_and_statements_private(
    books: tuple[Club, Session, dict[str, Any]],
) -> None:
    club, _, checkpoint = books
    anonymous = APIClient()
    assert anonymous.get("/api/v1/audit/keys").json()["keys"][0]["algorithm"] == "Ed25519"
    assert anonymous.get(f"/api/v1/audit/checkpoints/{checkpoint['number']}").json() == checkpoint
    assert anonymous.get("/api/v1/audit/checkpoints/99").json()["code"] == "unknown_checkpoint"
    other = client_for(club.players[1]).get(f"/api/v1/players/{club.players[0].pk}/statement?checkpoint=1")
    assert other.status_code == 403
    assert client_for(club.players[0]).post("/api/v1/audit/checkpoints").status_code == 403


def test_a_proof_reveals_no_other_balance_and_no_hidden_card(club: Club, session: Session) -> None:
    """Sum tree siblings are salted hashes and sums: no guess of (account, balance) reproduces one,
    no other account is named; the log proof's events are the player's own, in chain form."""
    session.play(everyone_in)
    session.start()  # a live deal: its cards are hidden
    checkpoint = checkpoint_publish(now=timezone.now())
    assert checkpoint is not None
    ann = club.players[0]
    statement = statement_of(ann, checkpoint["number"])
    text = json.dumps(statement)
    others = [f"player:{p.pk}" for p in (*club.players[1:], club.outsider)]
    assert not any(f'"{account}"' in text for account in others)
    guesses = {
        sum_leaf(salt, account, "chips", amount).hash
        for account in others
        for amount in range(0, 200_001, 10)
        for salt in ("", "0" * 32)
    }
    assert not {step["hash"] for step in statement["path"]} & guesses
    leaves = CheckpointLeaf.objects.filter(checkpoint=checkpoint["number"])
    stored = dict(leaves.values_list("account", "balance"))
    assert statement["balance"] == stored[f"player:{ann.pk}"]
    deal_no = session.seen[-1].deal_no
    for player, cards in hole_cards(session.table_id, deal_no).items():
        if player != str(ann.pk):
            assert canonical_json(cards) not in text
    assert all(
        line["event"]["stream"] in (f"player-{ann.pk}", f"table-{session.table_id}")
        for line in statement["lines"]
    )


def test_verify_ledger_checks_the_checkpoints(books: tuple[Club, Session, dict[str, Any]]) -> None:
    club, _, checkpoint = books
    report = verify_ledger()
    assert report.ok
    assert report.checkpoints == 1
    account = f"player:{club.players[0].pk}"
    leaf = CheckpointLeaf.objects.filter(checkpoint=checkpoint["number"], account=account)
    leaf.update(balance=1)
    report = verify_ledger()
    assert not report.ok
    assert any("sum tree" in problem for problem in report.checkpoint_problems)
