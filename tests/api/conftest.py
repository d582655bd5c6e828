"""Fixtures for the API tests: users in each role and API clients authenticated by token."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue
from ledger.cashier import player_create
from ledger.models import Event

_names = itertools.count(1)


def unique_name(prefix: str) -> str:
    return f"{prefix}{next(_names)}"


def client_for(user: AbstractUser) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    return client


def event_count() -> int:
    return Event.objects.count()


@pytest.fixture(autouse=True)
def private_cache(settings: Any) -> None:
    """Login throttling counts in Redis or a cache table, which outlive a test and are shared by
    parallel workers (whose fixtures reuse usernames): each test gets a key prefix of its own."""
    settings.CACHES = {
        alias: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
        for alias, config in settings.CACHES.items()
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """PBKDF2 costs ~0.3 s a user; tests create hundreds of users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_staff(db: Any) -> Callable[[str], AbstractUser]:
    def make(role: str) -> AbstractUser:
        user = get_user_model().objects.create_user(username=unique_name(role), password="pw-not-used")
        grant_role(user, role)
        return user

    return make


@pytest.fixture
def make_player(db: Any) -> Callable[..., AbstractUser]:
    def make(display_name: str = "") -> AbstractUser:
        return player_create(
            username=unique_name("player"), password="player-pass", display_name=display_name
        )

    return make


@pytest.fixture
def admin_user(make_staff: Callable[[str], AbstractUser]) -> AbstractUser:
    return make_staff(CLUB_ADMIN)


@pytest.fixture
def admin_api(admin_user: AbstractUser) -> APIClient:
    return client_for(admin_user)


@pytest.fixture
def auditor_api(make_staff: Callable[[str], AbstractUser]) -> APIClient:
    return client_for(make_staff(AUDITOR))


@pytest.fixture
def player(make_player: Callable[..., AbstractUser]) -> AbstractUser:
    return make_player("Alice")


@pytest.fixture
def player_api(player: AbstractUser) -> APIClient:
    return client_for(player)


def deposits_url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/deposits"


def withdrawals_url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/withdrawals"


def post_json(client: APIClient, url: str, body: Any, **headers: str) -> Any:
    return client.post(url, body, format="json", headers=headers)
