"""Login while the shared cache (Redis) is unreachable: never a 500. The throttle degrades to the
database cache, says so in the log, and keeps limiting failed logins (docs/api.md, Throttling).

No mocks: the cache is a Redis on a closed port, or a redis-server of the test's own that it stops
and starts again.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from tests.redis_server import OwnRedis, free_port

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/token"
USERNAME_LIMIT = 5


def redis_cache_at(settings: Any, port: int) -> None:
    """The default cache a Redis at `port` (the fallback stays the database cache)."""
    prefix = f"outage-{uuid.uuid4().hex}"
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    settings.GUTS_LOGIN_FAILURES_PER_USERNAME = USERNAME_LIMIT


def login(username: str, password: str) -> Any:
    return APIClient(REMOTE_ADDR="10.9.8.7").post(
        LOGIN, {"username": username, "password": password}, format="json"
    )


def test_login_works_with_the_cache_on_a_closed_port(
    settings: Any, player: AbstractUser, caplog: pytest.LogCaptureFixture
) -> None:
    redis_cache_at(settings, free_port())  # nothing listens there
    with caplog.at_level(logging.WARNING, logger="http_edge.login"):
        response = login(player.username, "player-pass")
    assert response.status_code == 200, response.content
    assert response.json()["token"]
    assert "login throttle degraded" in caplog.text


def test_failed_logins_are_still_limited_while_the_cache_is_down(settings: Any, player: AbstractUser) -> None:
    redis_cache_at(settings, free_port())
    for attempt in range(USERNAME_LIMIT):
        assert login(player.username, f"wrong-{attempt}").status_code == 400
    locked = login(player.username, "player-pass")
    assert locked.status_code == 429, locked.content
    assert locked.json()["code"] == "throttled"
    assert int(locked["Retry-After"]) > 0


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_redis_outage_during_logins(
    settings: Any, player: AbstractUser, own_redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    redis_cache_at(settings, own_redis.port)
    assert login(player.username, "player-pass").status_code == 200  # Redis up
    own_redis.stop()
    with caplog.at_level(logging.WARNING, logger="http_edge.login"):
        assert login(player.username, "player-pass").status_code == 200  # Redis down
        assert login(player.username, "wrong").status_code == 400
        assert "login throttle degraded" in caplog.text
        own_redis.start()
        assert login(player.username, "player-pass").status_code == 200  # Redis back
        assert "login throttle restored" in caplog.text
