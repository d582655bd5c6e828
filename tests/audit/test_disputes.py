"""Disputes as ledger events on PostgreSQL (docs/disputes.md): open -> hold -> notes -> upheld with
a correction; open -> hold -> rejected; every refusal a clean 4xx that appends nothing; roles and
redaction (an outsider sees no dispute; a hold's amount only for the held player and staff);
conservation and verify_ledger at every step; available + held = posted under random sequences."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from http_edge.roles import AUDITOR, grant_role
from ledger.cashier import cashier_deposit, cashier_withdraw
from ledger.errors import DomainError, FundsHeld
from ledger.models import Event
from ledger.money import balance, check_conservation
from ledger.verify import verify_ledger
from tables import service
from tables.engine.decider import commands as cmd
from tests.audit.conftest import Club, Session, client_for, everyone_in, open_session

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def books_ok() -> None:
    report = verify_ledger()
    assert report.ok, report.to_json()
    assert check_conservation() == []


def refused(response: Any, status: int, code: str, before: int) -> None:
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert Event.objects.count() == before


@pytest.fixture
def played(club: Club, session: Session) -> tuple[Club, Session, int]:
    deal_no = session.play(everyone_in)
    return club, session, deal_no


def deal_ref(session: Session, deal_no: int) -> dict[str, Any]:
    return {"kind": "deal", "table_id": session.table_id, "deal_no": deal_no}


def open_dispute(user: AbstractUser, subject: dict[str, Any], reason: str = "wrong winner") -> dict[str, Any]:
    response = client_for(user).post(
        "/api/v1/disputes", {"subject": subject, "reason": reason}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def second_auditor() -> AbstractUser:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=f"judge{Event.objects.count()}", password="x")
    grant_role(user, AUDITOR)
    return user


def test_open_hold_notes_upheld_with_a_correction(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    ann, bob, cy = club.players
    books_ok()
    dispute = open_dispute(ann, deal_ref(session, deal_no))
    assert set(dispute["parties"]) == {str(p.pk) for p in club.players}
    assert {item["kind"] for item in dispute["evidence"]} == {"replay", "proof", "history", "chain"}
    assert dispute["positions"]
    assert dispute["status"] == "open"
    url = f"/api/v1/disputes/{dispute['id']}"
    books_ok()

    admin = client_for(club.admin)
    held = admin.post(f"{url}/hold", {"player_id": bob.pk, "amount": 500}, format="json")
    assert held.status_code == 201, held.json()
    assert held.json()["hold"]["amount"] == 500
    shown = client_for(bob).get(f"/api/v1/players/{bob.pk}/balance").json()
    assert (shown["posted"], shown["held"], shown["available"]) == (
        shown["balance"],
        500,
        shown["balance"] - 500,
    )
    books_ok()

    assert client_for(cy).get(url).json()["hold"] == {"status": "pending"}  # another party: no amount
    assert "pending" not in str(client_for(cy).get(url).json()["steps"])
    noted = client_for(ann).post(
        f"{url}/notes",
        {"text": "see the replay", "evidence": [dispute["evidence"][0]["href"]]},
        format="json",
    )
    assert noted.status_code == 201
    books_ok()

    before_ann, before_bob = balance(f"player:{ann.pk}"), balance(f"player:{bob.pk}")
    decided = client_for(second_auditor()).post(
        f"{url}/decide",
        {
            "outcome": "upheld",
            "ruling": "ann's hand won",
            "corrections": [{"source": f"player:{bob.pk}", "target": f"player:{ann.pk}", "amount": 300}],
        },
        format="json",
    )
    assert decided.status_code == 201, decided.json()
    body = decided.json()
    assert body["status"] == "upheld"
    assert (body["hold"]["status"], body["hold"]["posted"]) == ("posted", 300)
    assert balance(f"player:{ann.pk}") == before_ann + 300
    assert balance(f"player:{bob.pk}") == before_bob - 300
    assert balance(f"hold:{dispute['id']}") == 0
    assert client_for(bob).get(f"/api/v1/players/{bob.pk}/balance").json()["held"] == 0
    books_ok()

    lines = client_for(ann).get(f"/api/v1/players/{ann.pk}/statement?limit=500").json()["results"]
    [correction] = [line for line in lines if line["dispute"] == dispute["id"]]
    assert (correction["amount"], correction["counterparty"]) == (300, f"hold:{dispute['id']}")
    assert all(f"#{p}" in correction["reason"] for p in dispute["positions"])  # links the disputed events
    bob_lines = client_for(bob).get(f"/api/v1/players/{bob.pk}/statement?limit=500").json()["results"]
    assert [line["amount"] for line in bob_lines if line["dispute"] == dispute["id"]] == [-300]
    closed = client_for(ann).post(f"{url}/notes", {"text": "late"}, format="json")
    refused(closed, 409, "dispute_closed", Event.objects.count())


def test_open_hold_rejected_voids_the_hold(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    ann, bob, _ = club.players
    dispute = open_dispute(bob, deal_ref(session, deal_no))
    url = f"/api/v1/disputes/{dispute['id']}"
    posted = balance(f"player:{ann.pk}")
    assert (
        client_for(club.auditor)
        .post(f"{url}/hold", {"player_id": ann.pk, "amount": 700}, format="json")
        .status_code
        == 201
    )
    decided = client_for(club.auditor).post(
        f"{url}/decide", {"outcome": "rejected", "ruling": "no error"}, format="json"
    )
    assert decided.status_code == 201, decided.json()
    assert decided.json()["hold"]["status"] == "voided"
    assert balance(f"player:{ann.pk}") == posted
    assert client_for(ann).get(f"/api/v1/players/{ann.pk}/balance").json()["available"] == posted
    books_ok()


def test_every_refusal_is_a_clean_4xx_that_appends_nothing(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    ann, bob, _ = club.players
    ref = deal_ref(session, deal_no)
    before = Event.objects.count()
    outsider = client_for(club.outsider)
    refused(
        outsider.post("/api/v1/disputes", {"subject": ref, "reason": "x"}, format="json"),
        403,
        "not_a_party",
        before,
    )
    refused(
        client_for(ann).post(
            "/api/v1/disputes", {"subject": {**ref, "deal_no": 99}, "reason": "x"}, format="json"
        ),
        404,
        "unknown_deal",
        before,
    )
    refused(
        client_for(ann).post(
            "/api/v1/disputes", {"subject": {"kind": "poker"}, "reason": "x"}, format="json"
        ),
        400,
        "invalid_input",
        before,
    )
    dispute = open_dispute(ann, ref)
    before = Event.objects.count()
    refused(
        client_for(ann).post("/api/v1/disputes", {"subject": ref, "reason": "again"}, format="json"),
        409,
        "dispute_exists",
        before,
    )
    url = f"/api/v1/disputes/{dispute['id']}"
    refused(outsider.get(url), 404, "unknown_dispute", before)  # not even its existence
    assert outsider.get("/api/v1/disputes").json()["count"] == 0
    refused(outsider.post(f"{url}/notes", {"text": "hi"}, format="json"), 404, "unknown_dispute", before)
    refused(
        client_for(bob).post(f"{url}/hold", {"player_id": bob.pk, "amount": 5}, format="json"),
        403,
        "forbidden",
        before,
    )
    admin = client_for(club.admin)
    refused(
        admin.post(f"{url}/hold", {"player_id": club.outsider.pk, "amount": 5}, format="json"),
        403,
        "not_a_party",
        before,
    )
    refused(
        admin.post(
            f"{url}/hold", {"player_id": bob.pk, "amount": balance(f"player:{bob.pk}") + 1}, format="json"
        ),
        409,
        "hold_exceeds_balance",
        before,
    )
    assert admin.post(f"{url}/hold", {"player_id": bob.pk, "amount": 1000}, format="json").status_code == 201
    before = Event.objects.count()
    refused(
        admin.post(f"{url}/hold", {"player_id": bob.pk, "amount": 1}, format="json"),
        409,
        "hold_exists",
        before,
    )
    posted = balance(f"player:{bob.pk}")
    refused(
        admin.post(f"/api/v1/players/{bob.pk}/withdrawals", {"amount": posted - 999}, format="json"),
        409,
        "funds_held",
        before,
    )  # a withdrawal of held chips
    assert (
        admin.post(
            f"/api/v1/players/{bob.pk}/withdrawals", {"amount": posted - 1000}, format="json"
        ).status_code
        == 201
    )  # the available chips go
    before = Event.objects.count()
    refused(
        client_for(club.auditor).post(
            f"{url}/decide",
            {
                "outcome": "upheld",
                "ruling": "x",
                "corrections": [{"source": "house", "target": f"player:{ann.pk}", "amount": 5}],
            },
            format="json",
        ),
        400,
        "invalid_correction",
        before,
    )
    seat = f"seat:{session.table_id}:{bob.pk}"  # a table's accounts are the engine's, never corrected
    refused(
        client_for(club.auditor).post(
            f"{url}/decide",
            {
                "outcome": "upheld",
                "ruling": "x",
                "corrections": [{"source": seat, "target": f"player:{ann.pk}", "amount": 5}],
            },
            format="json",
        ),
        400,
        "invalid_correction",
        before,
    )
    opener = client_for(club.auditor).post(
        "/api/v1/disputes", {"subject": ref, "reason": "audit"}, format="json"
    )
    assert opener.status_code == 201
    before = Event.objects.count()
    refused(
        client_for(club.auditor).post(
            f"/api/v1/disputes/{opener.json()['id']}/decide",
            {"outcome": "rejected", "ruling": "mine"},
            format="json",
        ),
        403,
        "party_cannot_decide",
        before,
    )
    refused(
        client_for(ann).post(f"{url}/decide", {"outcome": "rejected", "ruling": "x"}, format="json"),
        403,
        "forbidden",
        before,
    )
    books_ok()


def test_a_buy_in_that_needs_held_chips_is_funds_held(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    ann = club.players[0]
    dispute = open_dispute(ann, deal_ref(session, deal_no))
    posted = balance(f"player:{ann.pk}")
    assert (
        client_for(club.admin)
        .post(
            f"/api/v1/disputes/{dispute['id']}/hold",
            {"player_id": ann.pk, "amount": posted - 100},
            format="json",
        )
        .status_code
        == 201
    )
    other = open_session([club.players[1].pk])
    before = Event.objects.count()
    with pytest.raises(FundsHeld):
        service.table_command(table_id=other.table_id, command=cmd.SitDown(str(ann.pk), 1000))
    assert Event.objects.count() == before
    service.table_command(table_id=other.table_id, command=cmd.SitDown(str(ann.pk), 100))  # available: fine
    books_ok()


def test_a_withdrawal_by_the_opener_voids_the_hold_and_a_cashier_transaction_is_disputable(
    club: Club,
) -> None:
    ann = club.players[0]
    deposit = cashier_deposit(player_id=ann.pk, amount=250)
    dispute = open_dispute(ann, {"kind": "cashier", "position": deposit.event.position}, "I gave 500")
    assert dispute["parties"] == [str(ann.pk)]
    url = f"/api/v1/disputes/{dispute['id']}"
    assert (
        client_for(club.admin)
        .post(f"{url}/hold", {"player_id": ann.pk, "amount": 250}, format="json")
        .status_code
        == 201
    )
    with pytest.raises(FundsHeld):
        cashier_withdraw(player_id=ann.pk, amount=balance(f"player:{ann.pk}"))
    withdrawn = client_for(ann).post(f"{url}/withdraw")
    assert (withdrawn.status_code, withdrawn.json()["status"]) == (201, "withdrawn")
    cashier_withdraw(player_id=ann.pk, amount=balance(f"player:{ann.pk}"))  # nothing held now
    books_ok()


OPS = st.lists(
    st.tuples(
        st.sampled_from(["hold", "withdraw", "deposit", "decide", "reject", "cancel"]),
        st.integers(min_value=1, max_value=3000),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_available_plus_held_is_posted_and_nothing_is_negative(
    club: Club, ops: list[tuple[str, int]]
) -> None:
    """Random dispute sequences on cashier transactions: whatever is refused, the books hold."""
    from django.utils import timezone

    from ledger.disputes.service import (
        Correction,
        dispute_decide,
        dispute_hold,
        dispute_open,
        dispute_withdraw,
    )

    ann, bob = club.players[0], club.players[1]
    judge = second_auditor()
    current: str | None = None
    for op, amount in ops:
        try:
            if op == "deposit":
                cashier_deposit(player_id=ann.pk, amount=amount)
            elif op == "withdraw":
                cashier_withdraw(player_id=ann.pk, amount=amount)
            elif op == "hold" or current is None:
                position = cashier_deposit(player_id=ann.pk, amount=amount).event.position
                current = dispute_open(
                    user=ann,
                    subject={"kind": "cashier", "position": position},
                    reason="r",
                    now=timezone.now(),
                ).dispute_id
                dispute_hold(
                    user=club.admin, dispute_id=current, player_id=ann.pk, amount=amount, now=timezone.now()
                )
            elif op == "decide":
                dispute_decide(
                    user=judge,
                    dispute_id=current,
                    outcome="upheld",
                    ruling="r",
                    corrections=[Correction(f"player:{ann.pk}", "cashier", amount)],
                )
            elif op == "reject":
                dispute_decide(user=judge, dispute_id=current, outcome="rejected", ruling="r")
            else:
                dispute_withdraw(user=ann, dispute_id=current)
        except DomainError:
            pass
        shown = client_for(ann).get(f"/api/v1/players/{ann.pk}/balance").json()
        assert shown["available"] + shown["held"] == shown["posted"]
        assert min(shown["available"], shown["held"]) >= 0
    assert bob.pk != ann.pk
    books_ok()


def test_the_dispute_list_shows_a_player_only_his_own(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    open_dispute(club.players[0], deal_ref(session, deal_no))
    cash = cashier_deposit(player_id=club.players[1].pk, amount=10)
    open_dispute(club.players[1], {"kind": "cashier", "position": cash.event.position})
    assert client_for(club.players[2]).get("/api/v1/disputes").json()["count"] == 1  # the deal only
    assert client_for(club.auditor).get("/api/v1/disputes").json()["count"] == 2
    api: APIClient = client_for(club.players[1])
    assert api.get("/api/v1/disputes?status=open").json()["count"] == 2


def test_the_explained_statement_links_a_correction_to_its_dispute(played: tuple[Club, Session, int]) -> None:
    club, session, deal_no = played
    ann, bob, _ = club.players
    dispute = open_dispute(ann, deal_ref(session, deal_no))
    url = f"/api/v1/disputes/{dispute['id']}"
    assert (
        client_for(club.admin)
        .post(f"{url}/hold", {"player_id": bob.pk, "amount": 50}, format="json")
        .status_code
        == 201
    )
    assert (
        client_for(second_auditor())
        .post(
            f"{url}/decide",
            {
                "outcome": "upheld",
                "ruling": "ann won",
                "corrections": [{"source": f"player:{bob.pk}", "target": f"player:{ann.pk}", "amount": 50}],
            },
            format="json",
        )
        .status_code
        == 201
    )
    statement = client_for(bob).get(f"/api/v1/audit/accounts/player:{bob.pk}/statement?limit=500")
    lines = statement.json()["results"]
    [posted] = [line for line in lines if line["dispute"]]
    assert posted["dispute"] == {
        "id": dispute["id"],
        "href": url,
        "outcome": "upheld",
        "corrects": dispute["positions"],
    }
    assert posted["counterparty"] == f"hold:{dispute['id']}"
    assert "hold posted" in posted["explanation"]
    [hold] = statement.json()["holds"]
    assert (hold["dispute"]["id"], hold["amount"], hold["status"]) == (dispute["id"], 50, "posted")
    other = client_for(club.players[2]).get(f"/api/v1/audit/accounts/player:{bob.pk}/statement")
    assert other.status_code == 403


def test_a_correction_that_cannot_be_paid_is_refused_before_appending(
    played: tuple[Club, Session, int],
) -> None:
    club, session, deal_no = played
    ann, bob, cy = club.players
    first = open_dispute(ann, deal_ref(session, deal_no))
    second = open_dispute(cy, deal_ref(session, deal_no))
    hold = {"player_id": bob.pk, "amount": 1000}
    assert (
        client_for(club.admin).post(f"/api/v1/disputes/{first['id']}/hold", hold, format="json").status_code
        == 201
    )
    judge = client_for(second_auditor())
    posted = balance(f"player:{bob.pk}")

    def decide(amount: int) -> Any:
        return judge.post(
            f"/api/v1/disputes/{second['id']}/decide",
            {
                "outcome": "upheld",
                "ruling": "r",
                "corrections": [
                    {"source": f"player:{bob.pk}", "target": f"player:{cy.pk}", "amount": amount}
                ],
            },
            format="json",
        )

    before = Event.objects.count()
    refused(decide(posted + 1), 409, "insufficient_funds", before)
    refused(decide(posted - 999), 409, "funds_held", before)  # the first dispute holds 1000
    assert decide(posted - 1000).status_code == 201
    books_ok()
