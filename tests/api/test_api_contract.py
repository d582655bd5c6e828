"""The schema and docs say what the server does: problems are application/problem+json, the
Idempotency-Key header carries its limits, every problem code is documented, player ids are strings
everywhere in JSON, `invalid_choice` is answered as documented, an unknown player is 404 everywhere."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import AbstractUser
from django.core.management import call_command
from rest_framework.test import APIClient

from http_edge.api.errors import PROBLEM_CONTENT_TYPE, PROBLEM_STATUS
from tests.api.conftest import deposits_url, event_count, post_json, withdrawals_url
from tests.tables.http import Club, post, table_url

DOCS = Path(__file__).resolve().parents[2] / "docs"
MISSING_PLAYER = 987_654_321


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    return yaml.safe_load(path.read_text())


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    ]


def test_every_error_response_is_documented_as_problem_json(schema: dict[str, Any]) -> None:
    errors = [
        (path, status, response)
        for path, _, operation in operations(schema)
        for status, response in operation["responses"].items()
        if int(status) >= 400
    ]
    assert len(errors) > 50
    for path, status, response in errors:
        assert set(response["content"]) == {PROBLEM_CONTENT_TYPE}, (path, status)
        assert response["content"][PROBLEM_CONTENT_TYPE]["schema"]["$ref"].endswith("/Problem")


def test_success_responses_are_not_problems(schema: dict[str, Any]) -> None:
    for path, _, operation in operations(schema):
        for status, response in operation["responses"].items():
            if int(status) < 400:
                assert PROBLEM_CONTENT_TYPE not in response.get("content", {}), (path, status)


def test_the_idempotency_key_header_states_its_limits(schema: dict[str, Any]) -> None:
    headers = [
        parameter
        for _, method, operation in operations(schema)
        if method == "post"
        for parameter in operation.get("parameters", [])
        if parameter["name"] == "Idempotency-Key"
    ]
    assert headers
    for header in headers:
        assert header["schema"] == {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"}
        assert "invalid_idempotency_key" in header["description"]


def test_every_401_documents_both_authentication_codes(schema: dict[str, Any]) -> None:
    unauthorised = [
        (path, operation["responses"]["401"])
        for path, _, operation in operations(schema)
        if "401" in operation["responses"]
    ]
    assert len(unauthorised) > 20
    for path, response in unauthorised:
        examples = response["content"][PROBLEM_CONTENT_TYPE]["examples"]
        codes = {example["value"]["code"] for example in examples.values()}
        assert {"not_authenticated", "authentication_failed"} <= codes, path


def test_every_problem_code_is_in_the_docs() -> None:
    documented = set(re.findall(r"`(\w+)`", (DOCS / "api.md").read_text() + (DOCS / "audit.md").read_text()))
    assert set(PROBLEM_STATUS) - documented == set()


def test_the_documented_shapes_of_player_ids_are_strings(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for name, field in [
        ("Me", "id"),
        ("Me", "player_id"),
        ("Player", "id"),
        ("Balance", "player_id"),
        ("CashierOperation", "player_id"),
        ("TableSeat", "player"),
    ]:
        assert components[name]["properties"][field]["type"] == "string", (name, field)


@pytest.mark.django_db
def test_a_bad_token_is_401_authentication_failed() -> None:
    response = APIClient(headers={"Authorization": "Token not-a-token"}).get("/api/v1/me")
    assert response.status_code == 401
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    assert response.json()["code"] == "authentication_failed"


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["k", "x" * 255, "a ~!", "550e8400-e29b-41d4-a716-446655440000"])
def test_keys_within_the_limits_are_accepted(admin_api: APIClient, player: AbstractUser, key: str) -> None:
    first = post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **{"Idempotency-Key": key})
    again = post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **{"Idempotency-Key": key})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "tab\there", "del\x7f", "\x00"])
def test_keys_beyond_the_limits_are_400_invalid_idempotency_key(
    admin_api: APIClient, player: AbstractUser, key: str
) -> None:
    before = event_count()
    response = admin_api.post(deposits_url(player.pk), {"amount": 5}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    assert response.json()["code"] == "invalid_idempotency_key"
    assert event_count() == before


@pytest.mark.django_db
def test_a_choice_outside_in_and_out_is_invalid_choice() -> None:
    club = Club.create(players=2, bankroll=1000)
    table = club.open_table({"ante": 10})
    before = event_count()
    response = post(
        next(iter(club.players.values())), table_url(table, "declares"), {"deal_no": 1, "choice": "maybe"}
    )
    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    problem = response.json()
    assert problem["code"] == "invalid_choice"
    assert "maybe" in problem["detail"]
    assert "choice" in problem["errors"]
    assert event_count() == before


@pytest.mark.django_db
def test_other_faults_beside_a_bad_choice_stay_invalid_input() -> None:
    club = Club.create(players=1, bankroll=1000)
    table = club.open_table({"ante": 10})
    response = post(
        next(iter(club.players.values())), table_url(table, "declares"), {"deal_no": 0, "choice": "maybe"}
    )
    assert response.json()["code"] == "invalid_input"


@pytest.mark.django_db
def test_player_ids_are_strings_in_every_json_body(
    admin_api: APIClient, player: AbstractUser, player_api: APIClient
) -> None:
    pid = str(player.pk)
    me = player_api.get("/api/v1/me").json()
    assert (me["id"], me["player_id"]) == (pid, pid)
    assert admin_api.get("/api/v1/me").json()["player_id"] is None
    assert isinstance(admin_api.get("/api/v1/me").json()["id"], str)
    assert pid in [item["id"] for item in admin_api.get("/api/v1/players").json()["results"]]
    assert admin_api.get(f"/api/v1/players/{player.pk}").json()["id"] == pid
    assert post_json(admin_api, deposits_url(player.pk), {"amount": 50}).json()["player_id"] == pid
    assert post_json(admin_api, withdrawals_url(player.pk), {"amount": 5}).json()["player_id"] == pid
    assert player_api.get(f"/api/v1/players/{player.pk}/balance").json()["player_id"] == pid
    registered = post_json(admin_api, "/api/v1/players", {"username": "str", "password": "long-enough-pw"})
    assert isinstance(registered.json()["id"], str)


@pytest.mark.django_db
def test_the_player_id_of_me_is_the_one_the_table_shows() -> None:
    club = Club.create(players=1, bankroll=1000)
    table = club.open_table({"ante": 10})
    client = next(iter(club.players.values()))
    seated = post(client, table_url(table, "seats"), {"buy_in": 200}).json()
    assert [seat["player"] for seat in seated["seats"]] == [client.get("/api/v1/me").json()["player_id"]]


@pytest.mark.django_db
@pytest.mark.parametrize("what", ["balance", "statement", "deals"])
def test_an_unknown_player_is_404_unknown_player_everywhere(
    admin_api: APIClient, auditor_api: APIClient, what: str
) -> None:
    for client in (admin_api, auditor_api):
        response = client.get(f"/api/v1/players/{MISSING_PLAYER}/{what}")
        assert response.status_code == 404, (what, response.content[:200])
        assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
        assert response.json()["code"] == "unknown_player"


@pytest.mark.django_db
def test_a_player_asking_for_another_id_is_403_known_or_not(player_api: APIClient) -> None:
    for what in ("balance", "deals"):
        assert player_api.get(f"/api/v1/players/{MISSING_PLAYER}/{what}").status_code == 403
