"""The tournaments API: roles, problem details with stable codes, and bad input
as a clean 4xx that appends nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from http_edge.roles import CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue
from ledger.cashier import cashier_deposit
from ledger.models import Event
from ledger.money import balance

from .conftest import tournament_fields

URL = "/api/v1/tournaments"


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


@pytest.fixture
def admin(db: Any) -> APIClient:
    user = get_user_model().objects.create_user(username="t-admin", password="pw-not-used")
    grant_role(user, CLUB_ADMIN)
    return client_for(user)


@pytest.fixture
def player_client(funded_player: Callable[..., int]) -> Callable[..., tuple[int, APIClient]]:
    def make(bankroll: int = 10_000) -> tuple[int, APIClient]:
        player_id = funded_player(bankroll)
        return player_id, client_for(get_user_model().objects.get(pk=player_id))

    return make


def create(admin: APIClient, **changes: Any) -> Any:
    """Over HTTP a start must lie ahead (400 start_in_past otherwise): tomorrow, unless given."""
    changes.setdefault("start_at", (timezone.now() + timedelta(days=1)).isoformat())
    return admin.post(URL, tournament_fields(**changes), format="json")


def test_an_admin_creates_and_anyone_signed_in_lists_and_reads(admin: APIClient, player_client: Any) -> None:
    response = create(admin)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "registering"
    assert body["seating"]["seed"] is None
    assert len(body["seating"]["commitment"]) == 64
    _, client = player_client()
    listed = client.get(URL).json()
    assert [t["tournament_id"] for t in listed["results"]] == [body["tournament_id"]]
    assert client.get(f"{URL}/{body['tournament_id']}").json()["config"]["payouts"] == [50, 30, 20]
    assert create(client).status_code == 403


@pytest.mark.parametrize(
    ("changes", "status", "code"),
    [
        ({"payouts": [50, 30, 10]}, 400, "invalid_payouts"),  # not summing to 100
        ({"seats_per_table": 30}, 400, "invalid_option"),  # beyond guts2's capacity (D-GEN-02)
        ({"variant": "guts9"}, 400, "unknown_variant"),
        ({"levels": [{"ante": 5}]}, 400, "invalid_input"),
        ({"buy_in": "100"}, 400, "invalid_input"),
        ({"options": {"seats": 4}}, 400, "invalid_tournament"),
        ({"max_entrants": 3}, 400, "invalid_tournament"),
    ],
)
def test_bad_tournaments_are_clean_4xx_and_append_nothing(
    admin: APIClient, changes: dict[str, Any], status: int, code: str
) -> None:
    before = Event.objects.count()
    response = create(admin, **changes)
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert Event.objects.count() == before


def test_registration_over_http(admin: APIClient, player_client: Any) -> None:
    tid = create(admin).json()["tournament_id"]
    me, client = player_client()
    assert client.post(f"{URL}/{tid}/registrations", {}, format="json").status_code == 201
    twice = client.post(f"{URL}/{tid}/registrations", {}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_registered")
    other, _ = player_client()
    forged = client.post(f"{URL}/{tid}/registrations", {"player_id": other}, format="json")
    assert (forged.status_code, forged.json()["code"]) == (403, "forbidden")
    by_admin = admin.post(f"{URL}/{tid}/registrations", {"player_id": other}, format="json")
    assert by_admin.status_code == 201
    assert by_admin.json()["entrants"] == [str(me), str(other)]
    _, poor_client = player_client(50)
    refused = poor_client.post(f"{URL}/{tid}/registrations", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "insufficient_funds")
    assert client.post(f"{URL}/{tid}/unregister", {}, format="json").status_code == 200
    assert balance(f"player:{me}") == 10_000
    again = client.post(f"{URL}/{tid}/unregister", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "not_registered")


def test_start_and_cancel_are_for_admins(admin: APIClient, player_client: Any) -> None:
    tid = create(admin).json()["tournament_id"]
    player, client = player_client()
    client.post(f"{URL}/{tid}/registrations", {}, format="json")
    assert client.post(f"{URL}/{tid}/cancel", {}, format="json").status_code == 403
    too_few = admin.post(f"{URL}/{tid}/start", {}, format="json")
    assert (too_few.status_code, too_few.json()["code"]) == (409, "not_enough_entrants")
    cancelled = admin.post(f"{URL}/{tid}/cancel", {}, format="json")
    assert cancelled.status_code == 200
    assert cancelled.json()["status"] == "cancelled"
    assert balance(f"player:{player}") == 10_000
    over = client.post(f"{URL}/{tid}/registrations", {}, format="json")
    assert (over.status_code, over.json()["code"]) == (409, "tournament_over")
    unknown = client.get(f"{URL}/6f1c0c52-0000-4000-8000-000000000000")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_tournament")


def test_a_bankroll_of_exactly_buy_in_plus_fee_registers(admin: APIClient, player_client: Any) -> None:
    player, client = player_client(0)
    cashier_deposit(player_id=player, amount=110)
    tid = create(admin).json()["tournament_id"]
    assert client.post(f"{URL}/{tid}/registrations", {}, format="json").status_code == 201
    assert balance(f"player:{player}") == 0


def test_docs_list_every_tournament_code_with_its_status() -> None:
    import re
    from pathlib import Path

    from http_edge.api.errors import PROBLEM_STATUS
    from tournaments.engine.errors import CODES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    rows = {code: int(status) for code, status in re.findall(r"^\| `(\w+)` \| (\d{3}) \|", doc, flags=re.M)}
    assert set(rows) == CODES | {"unknown_tournament"}
    assert rows == {code: PROBLEM_STATUS[code][0] for code in rows}


def test_the_audit_feed_never_serves_the_seating_seed_before_the_start(admin: APIClient, db: Any) -> None:
    """DESIGN §2.6: the seed is sealed in TournamentCreated; even an auditor's feed shows its
    commitment and neither the seed nor the salt (the seed is revealed by TournamentStarted)."""
    from http_edge.roles import AUDITOR

    auditor = get_user_model().objects.create_user(username="t-auditor", password="pw-not-used")
    grant_role(auditor, AUDITOR)
    tid = create(admin).json()["tournament_id"]
    for client in (client_for(auditor), admin):
        page = client.get("/api/v1/audit/events", {"limit": 500}).json()
        [created] = [
            e
            for e in page["results"]
            if e["type"] == "TournamentCreated" and e["stream"] == f"tournament-{tid}"
        ]
        assert created["data"]["seating_seed"] is None
        assert "salt" not in created["data"]
        assert set(created["commitments"]) == {"seating_seed"}
