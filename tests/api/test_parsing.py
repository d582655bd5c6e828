"""Bodies and formats the server cannot use are clean problems: a JSON body nested too deep is 400
`malformed_request` on every POST (it was a RecursionError, a 500), an unknown `?format=` is 406
`not_acceptable` (it was a 404 with code "error" and no detail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from http_edge.api.parsers import MAX_JSON_DEPTH, json_depth
from tests.api.conftest import client_for, event_count
from tests.tables.http import Club

pytestmark = pytest.mark.django_db

# The POSTs that read a JSON body; the others must not fail on one either.
BODY_POSTS = {
    "/api/v1/auth/token",
    "/api/v1/players",
    "/api/v1/players/{player_id}/deposits",
    "/api/v1/players/{player_id}/withdrawals",
    "/api/v1/tables",
    "/api/v1/tables/{table_id}/seats",
    "/api/v1/tables/{table_id}/top-ups",
    "/api/v1/tables/{table_id}/declares",
    "/api/v1/tables/{table_id}/passes",
    "/api/v1/tables/{table_id}/exchanges",
}


def nested_list(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def nested_object(depth: int) -> bytes:
    return b'{"amount": ' * depth + b"1" + b"}" * depth


@pytest.fixture(scope="module")
def post_paths() -> list[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(path for path, item in schema["paths"].items() if "post" in item)


@pytest.fixture
def club() -> Club:
    return Club.create(players=2, bankroll=1000)


def post_raw(client: APIClient, url: str, body: bytes, **headers: str) -> Any:
    return client.post(url, body, content_type="application/json", headers=headers)


@pytest.mark.parametrize(
    "body",
    [nested_list(1000), nested_object(1000), nested_list(100_000), nested_list(MAX_JSON_DEPTH + 1)],
    ids=["list-1000", "object-1000", "list-100000", "just-too-deep"],
)
@pytest.mark.parametrize("keyed", [False, True], ids=["no-key", "idempotency-key"])
def test_a_deeply_nested_body_is_refused_on_every_post(
    admin_user: AbstractUser, player: AbstractUser, post_paths: list[str], body: bytes, keyed: bool
) -> None:
    assert set(post_paths) >= BODY_POSTS
    opened = client_for(admin_user).post(
        "/api/v1/tables", {"variant": "guts2", "options": {"ante": 10}}, format="json"
    )
    table = opened.json()["table_id"]
    before = event_count()
    for path in post_paths:
        headers = {"Idempotency-Key": f"deep {path}"} if keyed else {}
        # A fresh token for each request: some POSTs (logging out, revoking tokens) end the caller's.
        client = client_for(player if "/tables/{table_id}/" in path else admin_user)
        url = path.replace("{player_id}", str(player.pk)).replace("{table_id}", table)
        response = post_raw(client, url, body, **headers)
        assert response.status_code < 500, (path, response.status_code)
        if path in BODY_POSTS:
            assert response.status_code == 400, (path, response.content[:200])
            assert response["Content-Type"] == "application/problem+json"
            assert response.json()["code"] == "malformed_request", path
    assert event_count() == before


def test_a_body_at_the_depth_limit_is_parsed(club: Club) -> None:
    deep_note = b'{"amount": 5, "note": ' + nested_list(MAX_JSON_DEPTH - 1) + b"}"
    response = post_raw(club.admin, f"/api/v1/players/{next(iter(club.players))}/deposits", deep_note)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"  # parsed; `note` is not a string
    assert "note" in response.json()["errors"]


def test_json_depth_counts_arrays_and_objects() -> None:
    assert json_depth(5) == 0
    assert json_depth([]) == 1
    assert json_depth({"a": [1, {"b": []}]}) == 4
    assert json_depth([[[]], []]) == 3


@pytest.mark.parametrize("url", ["/api/v1/me", "/api/v1/tables", "/api/schema/"])
def test_an_unknown_format_is_406_not_acceptable(club: Club, url: str) -> None:
    response = club.admin.get(url, {"format": "xyz"})
    assert response.status_code == 406
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "not_acceptable"
    assert "'xyz'" in problem["detail"]
    assert "json" in problem["detail"]


def test_history_formats_are_offered_and_others_refused(club: Club) -> None:
    table = club.open_table({"ante": 10})
    url = f"/api/v1/tables/{table}/history"
    assert club.admin.get(url, {"format": "text"}).status_code == 200
    assert club.admin.get(url, {"format": "json"}).status_code == 200
    refused = club.admin.get(url, {"format": "xml"})
    assert refused.status_code == 406
    assert "text" in refused.json()["detail"]


@pytest.mark.parametrize("url", ["/api/v1/me", "/api/schema/"])
def test_an_unmet_accept_header_gets_the_same_problem_in_json(club: Club, url: str) -> None:
    response = club.admin.get(url, headers={"Accept": "application/xml"})
    assert response.status_code == 406
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_acceptable"
