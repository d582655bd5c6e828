"""API tokens (docs/api.md, Authentication): a new token per login, a fixed lifetime, logout,
a club admin revoking a player's tokens; expired and revoked tokens are 401 problems."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from http_edge.tokens import ApiToken, token_authenticate, token_issue
from tests.api.conftest import client_for, post_json

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"
LOGIN = "/api/v1/auth/token"
LOGOUT = "/api/v1/auth/logout"


def revoke_url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/revoke-tokens"


def with_token(key: str) -> APIClient:
    return APIClient(headers={"Authorization": f"Token {key}"})


def log_in(user: AbstractUser, password: str = "player-pass") -> dict[str, Any]:
    response = APIClient(REMOTE_ADDR=f"198.51.100.{uuid.uuid4().int % 250}").post(
        LOGIN, {"username": user.username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def assert_token_refused(response: Any, detail: str) -> None:
    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "authentication_failed"
    assert detail in response.json()["detail"]


# Login ---------------------------------------------------------------------------------------------


def test_each_login_gives_a_new_token_and_the_earlier_one_keeps_working(player: AbstractUser) -> None:
    first, second = log_in(player), log_in(player)
    assert first["token"] != second["token"]
    for body in (first, second):
        assert with_token(body["token"]).get(ME).json()["id"] == str(player.pk)


def test_login_says_when_the_token_expires(player: AbstractUser, settings: Any) -> None:
    settings.GUTS_TOKEN_LIFETIME = 3600
    before = timezone.now()
    body = log_in(player)
    expires_at = timezone.datetime.fromisoformat(body["expires_at"])
    assert before + timedelta(hours=1) <= expires_at <= timezone.now() + timedelta(hours=1)
    assert set(body) == {"token", "expires_at"}


def test_tokens_are_stored_only_as_digests(player: AbstractUser) -> None:
    key = log_in(player)["token"]
    row = ApiToken.objects.get(user=player)
    stored = [str(getattr(row, field.attname)) for field in ApiToken._meta.concrete_fields]
    assert not any(key in value for value in stored)
    assert row.prefix == key[:8]


# Expiry --------------------------------------------------------------------------------------------


def test_a_token_works_until_its_expiry_and_not_a_moment_after(player: AbstractUser, settings: Any) -> None:
    settings.GUTS_TOKEN_LIFETIME = 600
    issued_at = timezone.now() - timedelta(days=30)  # an explicit clock
    issued = token_issue(user=player, now=issued_at)
    assert issued.expires_at == issued_at + timedelta(seconds=600)
    assert token_authenticate(issued.key, now=issued.expires_at - timedelta(microseconds=1)).user == player
    with pytest.raises(AuthenticationFailed, match="expired"):
        token_authenticate(issued.key, now=issued.expires_at)


def test_an_expired_token_is_a_401_problem(player: AbstractUser) -> None:
    stale = token_issue(user=player, now=timezone.now() - timedelta(days=8))  # default lifetime: 7 days
    assert_token_refused(with_token(stale.key).get(ME), "expired")


def test_a_shorter_lifetime_setting_expires_tokens_sooner(player: AbstractUser, settings: Any) -> None:
    settings.GUTS_TOKEN_LIFETIME = 60
    recent = token_issue(user=player, now=timezone.now() - timedelta(seconds=61))
    assert_token_refused(with_token(recent.key).get(ME), "expired")
    assert with_token(token_issue(user=player).key).get(ME).status_code == 200


def test_a_new_login_drops_the_users_expired_tokens(player: AbstractUser) -> None:
    token_issue(user=player, now=timezone.now() - timedelta(days=8))
    live = token_issue(user=player)
    log_in(player)
    assert ApiToken.objects.filter(user=player).count() == 2
    assert ApiToken.objects.filter(pk=live.token.pk).exists()


def test_an_unknown_token_is_a_401_problem() -> None:
    assert_token_refused(with_token("0" * 40).get(ME), "Invalid token")


def test_a_deactivated_users_tokens_stop_working(player: AbstractUser) -> None:
    api = client_for(player)
    player.is_active = False
    player.save(update_fields=["is_active"])
    assert_token_refused(api.get(ME), "inactive")


# Logout --------------------------------------------------------------------------------------------


def test_logout_revokes_the_token_it_was_sent_with_only(player: AbstractUser) -> None:
    phone, laptop = with_token(log_in(player)["token"]), with_token(log_in(player)["token"])
    response = phone.post(LOGOUT)
    assert response.status_code == 204
    assert_token_refused(phone.get(ME), "Invalid token")
    assert_token_refused(phone.post(LOGOUT), "Invalid token")
    assert laptop.get(ME).status_code == 200


def test_logout_needs_a_token() -> None:
    response = APIClient().post(LOGOUT)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


# Revocation by a club admin ------------------------------------------------------------------------


def test_a_club_admin_revokes_every_token_of_a_player(
    admin_api: APIClient, player: AbstractUser, make_player: Callable[..., AbstractUser]
) -> None:
    phone, laptop = with_token(log_in(player)["token"]), with_token(log_in(player)["token"])
    bystander = client_for(make_player())
    response = post_json(admin_api, revoke_url(player.pk), None)
    assert response.status_code == 200
    assert response.json() == {"player_id": str(player.pk), "revoked": 2}
    for api in (phone, laptop):
        assert_token_refused(api.get(ME), "Invalid token")
    assert bystander.get(ME).status_code == 200
    assert with_token(log_in(player)["token"]).get(ME).status_code == 200  # may log in again


@pytest.mark.parametrize("role", ["player", "auditor"])
def test_only_a_club_admin_may_revoke_a_players_tokens(
    role: str, player: AbstractUser, player_api: APIClient, auditor_api: APIClient
) -> None:
    api = player_api if role == "player" else auditor_api
    response = api.post(revoke_url(player.pk))
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert player_api.get(ME).status_code == 200


def test_revoking_an_unknown_players_tokens_is_404(admin_api: APIClient) -> None:
    response = admin_api.post(revoke_url(999_999))
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_player"


def test_the_admin_lists_tokens_without_their_digest_and_revokes_a_users_tokens(
    django_user_model: type[AbstractUser], player: AbstractUser
) -> None:
    admin_client = Client()
    admin_client.force_login(django_user_model.objects.create_superuser(username="root", password="pw"))
    api = with_token(log_in(player)["token"])
    token = ApiToken.objects.get(user=player)
    page = admin_client.get(reverse("admin:http_edge_apitoken_changelist")).content.decode()
    assert token.prefix in page
    assert (
        token.digest
        not in admin_client.get(reverse("admin:http_edge_apitoken_change", args=[token.pk])).content.decode()
    )
    admin_client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "revoke_api_tokens", "_selected_action": [player.pk]},
    )
    assert_token_refused(api.get(ME), "Invalid token")


# The SSE `?token=` goes through the same lookup ----------------------------------------------------


def test_the_stream_query_token_is_checked_like_the_header(player: AbstractUser) -> None:
    url = f"/api/v1/tables/{uuid.uuid4()}/stream"
    stale = token_issue(user=player, now=timezone.now() - timedelta(days=8))
    assert_token_refused(APIClient().get(url, {"token": stale.key}), "expired")
    live = token_issue(user=player)
    assert APIClient().get(url, {"token": live.key}).json()["code"] == "unknown_table"  # signed in
    with_token(live.key).post(LOGOUT)
    assert_token_refused(APIClient().get(url, {"token": live.key}), "Invalid token")


# The OpenAPI document ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operation(schema: dict[str, Any], path: str) -> dict[str, Any]:
    return schema["paths"][f"/api/v1/{path}"]["post"]


def test_the_schema_documents_expiry_throttling_logout_and_revocation(schema: dict[str, Any]) -> None:
    login = operation(schema, "auth/token")
    assert login["responses"]["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert "expires_at" in schema["components"]["schemas"]["Token"]["required"]
    assert set(operation(schema, "auth/logout")["responses"]) >= {"204", "401"}
    revoke = operation(schema, "players/{player_id}/revoke-tokens")
    assert set(revoke["responses"]) >= {"200", "401", "403", "404"}
