"""Roles: a player sees only their own data, auditors read everything but write nothing,
the cashier is for club admins only, anonymous callers get 401."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from http_edge.roles import CLUB_ADMIN
from tests.api.conftest import client_for, deposits_url, event_count, post_json, withdrawals_url

PLAYER_READS = ("/api/v1/players/{id}", "/api/v1/players/{id}/balance", "/api/v1/players/{id}/statement")


@pytest.mark.parametrize("template", PLAYER_READS)
def test_player_sees_own_data(player_api: APIClient, player: AbstractUser, template: str) -> None:
    assert player_api.get(template.format(id=player.pk)).status_code == 200


@pytest.mark.parametrize("template", PLAYER_READS[1:])
def test_player_cannot_see_another_players_data(
    player_api: APIClient, make_player: Callable[..., AbstractUser], template: str
) -> None:
    other = make_player()
    response = player_api.get(template.format(id=other.pk))
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def test_player_sees_only_another_players_public_profile(
    player_api: APIClient, make_player: Callable[..., AbstractUser]
) -> None:
    other = make_player("Bea")
    assert player_api.get(f"/api/v1/players/{other.pk}").json() == {
        "id": str(other.pk),
        "display_name": "Bea",
    }


def test_player_asking_for_an_unknown_id_gets_403_not_a_hint(player_api: APIClient) -> None:
    assert player_api.get("/api/v1/players/999999/balance").status_code == 403


@pytest.mark.parametrize("template", PLAYER_READS)
def test_auditor_reads_any_player(auditor_api: APIClient, player: AbstractUser, template: str) -> None:
    assert auditor_api.get(template.format(id=player.pk)).status_code == 200


def test_auditor_lists_players(auditor_api: APIClient, player: AbstractUser) -> None:
    assert auditor_api.get("/api/v1/players").status_code == 200


@pytest.mark.parametrize("url", [deposits_url, withdrawals_url])
def test_auditor_cannot_move_money(
    auditor_api: APIClient, player: AbstractUser, url: Callable[[int], str]
) -> None:
    before = event_count()
    response = post_json(auditor_api, url(player.pk), {"amount": 10})
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert event_count() == before


def test_auditor_cannot_register_players(auditor_api: APIClient) -> None:
    response = post_json(auditor_api, "/api/v1/players", {"username": "x", "password": "long-enough"})
    assert response.status_code == 403


def test_player_cannot_deposit_to_themself_or_list_players(
    player_api: APIClient, player: AbstractUser
) -> None:
    before = event_count()
    assert post_json(player_api, deposits_url(player.pk), {"amount": 10}).status_code == 403
    assert player_api.get("/api/v1/players").status_code == 403
    assert event_count() == before


def test_user_without_a_role_sees_nothing(
    make_staff: Callable[[str], AbstractUser], player: AbstractUser
) -> None:
    nobody = client_for(make_staff("no_such_role"))
    assert nobody.get(f"/api/v1/players/{player.pk}/balance").status_code == 403
    assert set(nobody.get(f"/api/v1/players/{player.pk}").json()) == {"id", "display_name"}  # public
    assert nobody.get("/api/v1/me").json()["roles"] == []


def test_anonymous_gets_401_problem(player: AbstractUser) -> None:
    response = APIClient().get(f"/api/v1/players/{player.pk}/balance")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["Content-Type"] == "application/problem+json"


def test_bad_token_gets_401(player: AbstractUser) -> None:
    response = APIClient(headers={"Authorization": "Token nope"}).get("/api/v1/me")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_superuser_counts_as_club_admin(django_user_model: type[AbstractUser], player: AbstractUser) -> None:
    root = django_user_model.objects.create_superuser(username="root", password="root-password")
    api = client_for(root)
    assert api.get("/api/v1/me").json()["roles"] == [CLUB_ADMIN]
    assert post_json(api, deposits_url(player.pk), {"amount": 5}).status_code == 201


def test_unknown_player_is_404_for_staff(admin_api: APIClient, auditor_api: APIClient) -> None:
    for api in (admin_api, auditor_api):
        response = api.get("/api/v1/players/999999/statement")
        assert response.status_code == 404
        assert response.json()["code"] == "unknown_player"


def test_token_endpoint_rejects_bad_credentials(player: AbstractUser) -> None:
    response = APIClient().post(
        "/api/v1/auth/token", {"username": player.username, "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_me_for_a_player(player_api: APIClient, player: AbstractUser) -> None:
    assert player_api.get("/api/v1/me").json() == {
        "id": str(player.pk),
        "username": player.username,
        "display_name": "Alice",
        "roles": ["player"],
        "player_id": str(player.pk),
    }
