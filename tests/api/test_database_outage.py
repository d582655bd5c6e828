"""A database outage at any point of a request is 503 `service_unavailable` with Retry-After,
never a 500. The outage is simulated where each layer meets the database; the
real thing (terminated connections under a real server) is tests/e2e/test_faults.py."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import AbstractUser
from django.contrib.sessions.backends.db import SessionStore
from django.db import InterfaceError, OperationalError
from django.test import Client
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

import http_edge.idempotency
from http_edge.models import IdempotencyRecord
from tests.api.conftest import deposits_url, event_count, post_json

OUTAGES = [
    OperationalError("the database system is shutting down"),
    InterfaceError("connection already closed"),
    psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"),
]


def raiser(error: Exception) -> Any:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    return fail


def assert_service_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "1"
    body = response.json()
    assert (body["status"], body["code"], body["type"]) == (
        503,
        "service_unavailable",
        "/problems/service_unavailable",
    )


@pytest.mark.parametrize("outage", OUTAGES)
def test_during_authentication(
    player_api: APIClient, monkeypatch: pytest.MonkeyPatch, outage: Exception
) -> None:
    token_scheme = api_settings.DEFAULT_AUTHENTICATION_CLASSES[0]  # its lookup of the token
    monkeypatch.setattr(token_scheme, "authenticate_credentials", raiser(outage))
    assert_service_unavailable(player_api.get("/api/v1/me"))


@pytest.mark.parametrize("outage", OUTAGES)
def test_in_the_idempotency_layer_nothing_lands(
    admin_api: APIClient, player: AbstractUser, monkeypatch: pytest.MonkeyPatch, outage: Exception
) -> None:
    key = {"Idempotency-Key": "store-failed"}
    before = event_count()
    with monkeypatch.context() as patched:  # the deposit ran; storing its answer failed
        patched.setattr(IdempotencyRecord.objects, "create", raiser(outage))
        assert_service_unavailable(post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **key))
    assert event_count() == before  # rolled back with the record

    with monkeypatch.context() as patched:  # the key's claim (its lock and stored answer) fails
        patched.setattr(http_edge.idempotency, "_lock_and_read", raiser(outage))
        assert_service_unavailable(post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **key))

    assert post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **key).status_code == 201
    assert event_count() == before + 1


@pytest.mark.parametrize("outage", OUTAGES)
def test_outside_drf_a_middleware_failure_is_503_too(
    db: Any, monkeypatch: pytest.MonkeyPatch, outage: Exception
) -> None:
    """The session middleware loads the session for the admin: handler500's path, not DRF's."""
    monkeypatch.setattr(SessionStore, "_get_session_from_db", raiser(outage))
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "x" * 32
    assert_service_unavailable(client.get("/admin/"))


def test_other_server_errors_stay_500(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SessionStore, "_get_session_from_db", raiser(RuntimeError("a bug")))
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "x" * 32
    response = client.get("/admin/")
    assert (response.status_code, response.json()["code"]) == (500, "server_error")
