"""Idempotency-Key on state-changing POSTs (DESIGN §2.9): replay, reuse, per caller, in progress."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection, transaction
from rest_framework.test import APIClient

from http_edge.idempotency import try_lock_key
from http_edge.models import IdempotencyRecord
from http_edge.roles import CLUB_ADMIN
from tests.api.conftest import client_for, deposits_url, event_count, post_json, withdrawals_url


def test_replay_returns_the_first_answer_and_appends_nothing(
    admin_api: APIClient, player: AbstractUser
) -> None:
    first = post_json(admin_api, deposits_url(player.pk), {"amount": 500}, **{"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    before = event_count()
    again = post_json(admin_api, deposits_url(player.pk), {"amount": 500}, **{"Idempotency-Key": "k-1"})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert event_count() == before
    assert admin_api.get(f"/api/v1/players/{player.pk}/balance").json()["balance"] == 500


def test_body_is_compared_canonically(admin_api: APIClient, player: AbstractUser) -> None:
    url = deposits_url(player.pk)
    first = admin_api.post(
        url,
        b'{"amount": 5, "note": "x"}',
        content_type="application/json",
        headers={"Idempotency-Key": "canon"},
    )
    again = admin_api.post(
        url, b'{"note":"x","amount":5}', content_type="application/json", headers={"Idempotency-Key": "canon"}
    )
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"


def test_error_answers_are_replayed_too(admin_api: APIClient, player: AbstractUser) -> None:
    key = {"Idempotency-Key": "overdraw"}
    first = post_json(admin_api, withdrawals_url(player.pk), {"amount": 50}, **key)
    assert first.status_code == 409
    assert first.json()["code"] == "insufficient_funds"
    # Money arrives; the retry still answers what the first request answered and moves nothing.
    post_json(admin_api, deposits_url(player.pk), {"amount": 100})
    before = event_count()
    again = post_json(admin_api, withdrawals_url(player.pk), {"amount": 50}, **key)
    assert again.status_code == 409
    assert again.json() == first.json()
    assert again["Content-Type"] == "application/problem+json"
    assert event_count() == before


def test_validation_errors_are_replayed(admin_api: APIClient, player: AbstractUser) -> None:
    key = {"Idempotency-Key": "bad-amount"}
    first = post_json(admin_api, deposits_url(player.pk), {"amount": "5"}, **key)
    again = post_json(admin_api, deposits_url(player.pk), {"amount": "5"}, **key)
    assert first.status_code == again.status_code == 400
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


def test_malformed_json_answer_is_replayed(admin_api: APIClient, player: AbstractUser) -> None:
    kwargs = {"content_type": "application/json", "headers": {"Idempotency-Key": "broken"}}
    first = admin_api.post(deposits_url(player.pk), b"{nope", **kwargs)
    again = admin_api.post(deposits_url(player.pk), b"{nope", **kwargs)
    assert first.status_code == again.status_code == 400
    assert again.json()["code"] == "malformed_request"
    assert again["Idempotent-Replayed"] == "true"


def test_same_key_with_a_different_body_is_422(admin_api: APIClient, player: AbstractUser) -> None:
    post_json(admin_api, deposits_url(player.pk), {"amount": 500}, **{"Idempotency-Key": "k-2"})
    before = event_count()
    response = post_json(admin_api, deposits_url(player.pk), {"amount": 501}, **{"Idempotency-Key": "k-2"})
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert event_count() == before


def test_same_key_on_another_path_is_422(admin_api: APIClient, player: AbstractUser) -> None:
    post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **{"Idempotency-Key": "k-3"})
    response = post_json(admin_api, withdrawals_url(player.pk), {"amount": 5}, **{"Idempotency-Key": "k-3"})
    assert response.status_code == 422


def test_keys_are_per_caller(
    admin_api: APIClient, make_staff: Callable[[str], AbstractUser], player: AbstractUser
) -> None:
    other_admin = client_for(make_staff(CLUB_ADMIN))
    key = {"Idempotency-Key": "shared"}
    assert post_json(admin_api, deposits_url(player.pk), {"amount": 10}, **key).status_code == 201
    second = post_json(other_admin, deposits_url(player.pk), {"amount": 10}, **key)
    assert second.status_code == 201
    assert "Idempotent-Replayed" not in second
    assert admin_api.get(f"/api/v1/players/{player.pk}/balance").json()["balance"] == 20
    assert IdempotencyRecord.objects.filter(key="shared").count() == 2


def test_player_registration_is_idempotent(admin_api: APIClient) -> None:
    body = {"username": "once", "password": "long-enough-pw"}
    first = post_json(admin_api, "/api/v1/players", body, **{"Idempotency-Key": "reg"})
    before = event_count()
    again = post_json(admin_api, "/api/v1/players", body, **{"Idempotency-Key": "reg"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert event_count() == before


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "tab\there"])
def test_malformed_key_is_400(admin_api: APIClient, player: AbstractUser, key: str) -> None:
    before = event_count()
    response = admin_api.post(deposits_url(player.pk), {"amount": 5}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
    assert event_count() == before


def test_without_a_key_every_post_acts(admin_api: APIClient, player: AbstractUser) -> None:
    for _ in range(2):
        post_json(admin_api, deposits_url(player.pk), {"amount": 5})
    assert admin_api.get(f"/api/v1/players/{player.pk}/balance").json()["balance"] == 10
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.postgres
def test_retry_while_the_first_is_running_is_409(
    admin_api: APIClient, admin_user: AbstractUser, player: AbstractUser
) -> None:
    """Another connection holds the (caller, key) lock, as a first request still in flight does."""
    locked, release = threading.Event(), threading.Event()

    def first_request_in_flight() -> None:
        try:
            with transaction.atomic():
                assert try_lock_key(caller_id=admin_user.pk, key="busy")
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=first_request_in_flight)
    thread.start()
    try:
        assert locked.wait(10)
        before = event_count()
        response = post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **{"Idempotency-Key": "busy"})
        assert response.status_code == 409
        assert response.json()["code"] == "idempotency_in_progress"
        assert event_count() == before
    finally:
        release.set()
        thread.join()
    done = post_json(admin_api, deposits_url(player.pk), {"amount": 5}, **{"Idempotency-Key": "busy"})
    assert done.status_code == 201
