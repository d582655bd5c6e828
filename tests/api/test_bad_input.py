"""Bad input is a clean 4xx problem with a stable code, and appends nothing (DESIGN §2.9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from tests.api.conftest import deposits_url, event_count, post_json, withdrawals_url

BAD_AMOUNTS: list[Any] = [
    0,
    -1,
    -500,
    1.5,
    100.0,
    "100",
    "ten",
    True,
    False,
    None,
    10**12 + 1,
    10**30,
    [100],
    {"value": 100},
]


@pytest.fixture
def funded_player(admin_api: APIClient, player: AbstractUser) -> AbstractUser:
    assert post_json(admin_api, deposits_url(player.pk), {"amount": 1000}).status_code == 201
    return player


@pytest.mark.parametrize("url", [deposits_url, withdrawals_url])
@pytest.mark.parametrize("amount", BAD_AMOUNTS)
def test_bad_amount_is_400_invalid_input(
    admin_api: APIClient, funded_player: AbstractUser, url: Callable[[int], str], amount: Any
) -> None:
    before = event_count()
    response = post_json(admin_api, url(funded_player.pk), {"amount": amount})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "invalid_input"
    assert "amount" in response.json()["errors"]
    assert event_count() == before


def test_largest_amount_is_accepted(admin_api: APIClient, player: AbstractUser) -> None:
    assert post_json(admin_api, deposits_url(player.pk), {"amount": 10**12}).status_code == 201


@pytest.mark.parametrize("url", [deposits_url, withdrawals_url])
def test_missing_amount_is_400(
    admin_api: APIClient, funded_player: AbstractUser, url: Callable[[int], str]
) -> None:
    before = event_count()
    response = post_json(admin_api, url(funded_player.pk), {"note": "no amount"})
    assert response.status_code == 400
    assert response.json()["errors"]["amount"] == ["This field is required."]
    assert event_count() == before


@pytest.mark.parametrize("body", [b"{", b"amount=5", b"\xff\xfe", b'{"amount": 5,}'])
def test_malformed_json_is_400_malformed_request(
    admin_api: APIClient, funded_player: AbstractUser, body: bytes
) -> None:
    before = event_count()
    response = admin_api.post(deposits_url(funded_player.pk), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"
    assert event_count() == before


@pytest.mark.parametrize("body", [[], [1, 2], "amount", 5])
def test_json_that_is_not_an_object_is_invalid_input(
    admin_api: APIClient, funded_player: AbstractUser, body: Any
) -> None:
    before = event_count()
    response = post_json(admin_api, deposits_url(funded_player.pk), body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert event_count() == before


def test_form_encoded_body_is_415(admin_api: APIClient, funded_player: AbstractUser) -> None:
    before = event_count()
    response = admin_api.post(deposits_url(funded_player.pk), {"amount": "5"})
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert event_count() == before


@pytest.mark.parametrize("url", [deposits_url, withdrawals_url])
def test_unknown_player_is_404_unknown_player(admin_api: APIClient, url: Callable[[int], str]) -> None:
    before = event_count()
    response = post_json(admin_api, url(999999), {"amount": 5})
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_player"
    assert event_count() == before


def test_staff_user_is_not_a_player(admin_api: APIClient, admin_user: AbstractUser) -> None:
    response = post_json(admin_api, deposits_url(admin_user.pk), {"amount": 5})
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_player"


def test_wrong_method_is_405(admin_api: APIClient, player: AbstractUser) -> None:
    response = admin_api.delete(f"/api/v1/players/{player.pk}")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_unknown_url_is_a_404_problem(admin_api: APIClient) -> None:
    response = admin_api.get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {"password": "long-enough"},
        {"username": "valid"},
        {"username": "has space", "password": "long-enough"},
        {"username": "", "password": "long-enough"},
        {"username": "shortpw", "password": "short"},
        {"username": "x" * 151, "password": "long-enough"},
    ],
)
def test_bad_player_registration_is_400(admin_api: APIClient, body: dict[str, Any]) -> None:
    before = event_count()
    response = post_json(admin_api, "/api/v1/players", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert event_count() == before
