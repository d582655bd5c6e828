"""Cashier over the API: deposits, withdrawals, balance and statement with running balances."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from ledger.money import check_conservation
from ledger.store import read_stream
from tests.api.conftest import deposits_url, event_count, post_json, withdrawals_url


def test_deposit_then_withdraw_updates_balance_and_appends_events(
    admin_api: APIClient, player: AbstractUser
) -> None:
    deposit = post_json(admin_api, deposits_url(player.pk), {"amount": 1000, "note": "cash"})
    assert deposit.status_code == 201, deposit.json()
    assert deposit.json()["balance"] == 1000
    assert deposit.json()["event"] == {
        "position": deposit.json()["event"]["position"],
        "stream": f"player-{player.pk}",
        "version": 2,
        "type": "DepositMade",
    }

    withdrawal = post_json(admin_api, withdrawals_url(player.pk), {"amount": 300})
    assert withdrawal.status_code == 201, withdrawal.json()
    assert withdrawal.json()["balance"] == 700
    assert withdrawal.json()["note"] == ""

    events = read_stream(f"player-{player.pk}")
    assert [event.type for event in events] == ["PlayerRegistered", "DepositMade", "WithdrawalMade"]
    assert events[1].data["transfers"] == [
        {"from": "cashier", "to": f"player:{player.pk}", "amount": 1000, "unit": "chips", "reason": "deposit"}
    ]
    assert events[2].data["transfers"] == [
        {
            "from": f"player:{player.pk}",
            "to": "cashier",
            "amount": 300,
            "unit": "chips",
            "reason": "withdrawal",
        }
    ]
    assert events[1].meta["actor"] is not None
    assert check_conservation() == []


def test_balance_carries_the_stream_version_as_etag(admin_api: APIClient, player: AbstractUser) -> None:
    post_json(admin_api, deposits_url(player.pk), {"amount": 250})
    response = admin_api.get(f"/api/v1/players/{player.pk}/balance")
    assert response.status_code == 200
    assert response.json() == {
        "player_id": str(player.pk),
        "account": f"player:{player.pk}",
        "unit": "chips",
        "balance": 250,
        "posted": 250,
        "held": 0,
        "available": 250,
        "version": 2,
    }
    assert response["ETag"] == '"2"'


def test_statement_lists_transfers_oldest_first_with_running_balance(
    admin_api: APIClient, player: AbstractUser
) -> None:
    for url, amount in [(deposits_url, 1000), (withdrawals_url, 400), (deposits_url, 50)]:
        assert post_json(admin_api, url(player.pk), {"amount": amount}).status_code == 201

    response = admin_api.get(f"/api/v1/players/{player.pk}/statement")
    assert response.status_code == 200
    page = response.json()
    assert page["count"] == 3
    lines = page["results"]
    running = [(line["amount"], line["balance_after"]) for line in lines]
    assert running == [(1000, 1000), (-400, 600), (50, 650)]
    assert {line["counterparty"] for line in lines} == {"cashier"}
    assert [line["reason"] for line in lines] == ["deposit", "withdrawal", "deposit"]
    assert [line["event"]["version"] for line in lines] == [2, 3, 4]
    assert [line["event"]["type"] for line in lines] == ["DepositMade", "WithdrawalMade", "DepositMade"]
    positions = [line["event"]["position"] for line in lines]
    assert positions == sorted(positions)
    assert {line["event"]["stream"] for line in lines} == {f"player-{player.pk}"}


def test_statement_is_paginated(admin_api: APIClient, player: AbstractUser) -> None:
    for amount in (1, 2, 3):
        post_json(admin_api, deposits_url(player.pk), {"amount": amount})
    page = admin_api.get(f"/api/v1/players/{player.pk}/statement?limit=2&offset=1").json()
    assert page["count"] == 3
    assert [line["balance_after"] for line in page["results"]] == [3, 6]
    assert page["previous"] is not None


def test_overdrawing_withdrawal_is_409_insufficient_funds_and_appends_nothing(
    admin_api: APIClient, player: AbstractUser
) -> None:
    post_json(admin_api, deposits_url(player.pk), {"amount": 100})
    before = event_count()
    response = post_json(admin_api, withdrawals_url(player.pk), {"amount": 101})
    assert response.status_code == 409
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "insufficient_funds"
    assert response.json()["balance"] == 100
    assert event_count() == before
    assert admin_api.get(f"/api/v1/players/{player.pk}/balance").json()["balance"] == 100


def test_withdrawing_everything_leaves_zero(admin_api: APIClient, player: AbstractUser) -> None:
    post_json(admin_api, deposits_url(player.pk), {"amount": 77})
    response = post_json(admin_api, withdrawals_url(player.pk), {"amount": 77})
    assert response.status_code == 201
    assert response.json()["balance"] == 0


def test_admin_registers_a_player_with_a_player_registered_event(admin_api: APIClient) -> None:
    response = post_json(
        admin_api,
        "/api/v1/players",
        {"username": "newbie", "password": "long-enough-pw", "display_name": "New Bie"},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["username"] == "newbie"
    assert body["display_name"] == "New Bie"
    assert body["account"] == f"player:{body['id']}"
    [event] = read_stream(f"player-{body['id']}")
    assert event.type == "PlayerRegistered"
    assert event.data == {"player_id": int(body["id"]), "username": "newbie", "display_name": "New Bie"}

    token = APIClient().post(
        "/api/v1/auth/token", {"username": "newbie", "password": "long-enough-pw"}, format="json"
    )
    assert token.status_code == 200
    me = APIClient(headers={"Authorization": f"Token {token.json()['token']}"}).get("/api/v1/me").json()
    assert me == {
        "id": body["id"],
        "username": "newbie",
        "display_name": "New Bie",
        "roles": ["player"],
        "player_id": body["id"],
    }


def test_taken_username_is_409_and_appends_nothing(admin_api: APIClient, player: AbstractUser) -> None:
    before = event_count()
    response = post_json(admin_api, "/api/v1/players", {"username": player.username, "password": "x" * 12})
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"
    assert event_count() == before


def test_player_list_and_detail(admin_api: APIClient, player: AbstractUser) -> None:
    listing = admin_api.get("/api/v1/players").json()
    assert str(player.pk) in [item["id"] for item in listing["results"]]
    detail = admin_api.get(f"/api/v1/players/{player.pk}")
    assert detail.status_code == 200
    assert detail.json()["display_name"] == "Alice"
