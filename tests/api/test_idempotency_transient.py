"""Transient answers are never frozen under a key, and a replay repeats the headers that matter
(item 5)."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import AbstractUser
from django.db import OperationalError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory, force_authenticate
from rest_framework.views import APIView

import ledger.cashier
from http_edge.idempotency import idempotent
from http_edge.models import IdempotencyRecord
from tests.api.conftest import deposits_url, post_json
from tests.tables.http import post, table_url


def balance_of(client: APIClient, player: AbstractUser) -> int:
    return client.get(f"/api/v1/players/{player.pk}/balance").json()["balance"]


def test_a_concurrency_conflict_is_not_stored_and_the_retry_lands(
    admin_api: APIClient, player: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = {"Idempotency-Key": "clashed"}
    with monkeypatch.context() as patched:  # the stream always moves on: every attempt clashes
        patched.setattr(ledger.cashier, "lock_bankroll_and_read_version", lambda player_id: 0)
        clashed = post_json(admin_api, deposits_url(player.pk), {"amount": 40}, **key)
    assert (clashed.status_code, clashed.json()["code"]) == (409, "concurrency_conflict")
    assert not IdempotencyRecord.objects.filter(key="clashed").exists()

    retried = post_json(admin_api, deposits_url(player.pk), {"amount": 40}, **key)
    assert retried.status_code == 201
    assert "Idempotent-Replayed" not in retried
    assert balance_of(admin_api, player) == 40
    replayed = post_json(admin_api, deposits_url(player.pk), {"amount": 40}, **key)
    assert (replayed.status_code, replayed["Idempotent-Replayed"]) == (201, "true")
    assert balance_of(admin_api, player) == 40


@pytest.mark.parametrize(
    "outage",
    [
        OperationalError("server closed the connection unexpectedly"),
        psycopg.OperationalError("terminating connection due to administrator command"),
    ],
)
def test_a_database_outage_is_503_not_stored_and_the_retry_lands(
    admin_api: APIClient, player: AbstractUser, monkeypatch: pytest.MonkeyPatch, outage: Exception
) -> None:
    key = {"Idempotency-Key": "outage"}

    def append(*args: Any, **kwargs: Any) -> Any:
        raise outage

    with monkeypatch.context() as patched:
        patched.setattr(ledger.cashier, "append_with_balances", append)
        failed = post_json(admin_api, deposits_url(player.pk), {"amount": 25}, **key)
    assert (failed.status_code, failed.json()["code"]) == (503, "service_unavailable")
    assert failed["Retry-After"] == "1"
    assert failed["Content-Type"] == "application/problem+json"
    assert not IdempotencyRecord.objects.filter(key="outage").exists()

    retried = post_json(admin_api, deposits_url(player.pk), {"amount": 25}, **key)
    assert retried.status_code == 201
    assert balance_of(admin_api, player) == 25


def test_a_replayed_table_command_carries_the_first_etag(admin_api: APIClient) -> None:
    body = {"variant": "guts2", "options": {"ante": 10}}
    first = post(admin_api, "/api/v1/tables", body, **{"Idempotency-Key": "open-1"})
    table = first.json()["table_id"]
    post(admin_api, table_url(table, "close"))  # the table moves on meanwhile
    again = post(admin_api, "/api/v1/tables", body, **{"Idempotency-Key": "open-1"})
    assert (first.status_code, again.status_code, again["Idempotent-Replayed"]) == (201, 201, "true")
    assert again["ETag"] == first["ETag"] == f'"{first.json()["version"]}"'
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    assert again.json() == first.json()


class _Created(APIView):
    """A POST answering 201 with a Location, as a resource-creating command would."""

    @idempotent
    def post(self, request: Request) -> Response:
        return Response(
            {"id": 7}, status=201, headers={"Location": "/api/v1/things/7", "ETag": '"1"', "X-Not-Kept": "no"}
        )


def test_a_replay_carries_location_and_etag_but_not_other_headers(admin_user: AbstractUser) -> None:
    def send() -> Any:
        request = APIRequestFactory().post(
            "/api/v1/things", {"name": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="thing-1"
        )
        force_authenticate(request, user=admin_user)
        return _Created.as_view()(request)

    first, again = send(), send()
    assert again["Idempotent-Replayed"] == "true"
    assert (
        (again["Location"], again["ETag"])
        == (first["Location"], first["ETag"])
        == ("/api/v1/things/7", '"1"')
    )
    assert not again.has_header("X-Not-Kept")
