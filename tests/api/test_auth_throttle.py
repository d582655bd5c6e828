"""Failed logins are throttled per username and per client address (docs/api.md, Throttling): 429
`throttled` with `Retry-After`, honest users on other usernames unaffected, and the state shared by
every process through the cache (Redis, or the database cache of the embedded default)."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection
from rest_framework.exceptions import Throttled
from rest_framework.test import APIClient

from http_edge.login import login_check_allowed, login_record_failure

pytestmark = pytest.mark.django_db  # the embedded default's cache is a database table

LOGIN = "/api/v1/auth/token"
ROOT = Path(__file__).resolve().parents[2]
USERNAME_LIMIT, ADDRESS_LIMIT, LOCKOUT = 5, 30, 300  # the defaults


@pytest.fixture(autouse=True)
def default_limits(settings: Any) -> None:
    settings.GUTS_LOGIN_FAILURES_PER_USERNAME = USERNAME_LIMIT
    settings.GUTS_LOGIN_FAILURES_PER_ADDRESS = ADDRESS_LIMIT
    settings.GUTS_LOGIN_FAILURE_WINDOW = 60
    settings.GUTS_LOGIN_LOCKOUT = LOCKOUT


def fresh_address() -> str:
    """A client address no other test uses."""
    value = uuid.uuid4().int
    return f"10.{value % 250}.{value // 250 % 250}.{value // 62500 % 250 + 1}"


def fresh_username() -> str:
    return f"target-{uuid.uuid4().hex[:12]}"


def login(username: str, password: str, address: str, **headers: str) -> Any:
    return APIClient(REMOTE_ADDR=address).post(
        LOGIN, {"username": username, "password": password}, format="json", headers=headers
    )


def fail_logins(username: str, address: str, count: int) -> None:
    for attempt in range(count):
        response = login(username, f"wrong-{attempt}", address)
        assert response.status_code == 400, (attempt, response.content)
        assert response.json()["code"] == "invalid_credentials"


def assert_throttled(response: Any, scope: str) -> None:
    assert response.status_code == 429, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "throttled"
    assert f"this {scope}" in response.json()["detail"]
    assert 0 < int(response["Retry-After"]) <= LOCKOUT


def test_bad_logins_for_one_username_end_in_429_with_retry_after(player: AbstractUser) -> None:
    address = fresh_address()
    fail_logins(player.username, address, USERNAME_LIMIT)
    assert_throttled(login(player.username, "wrong-again", address), "username")
    # Locked out: even the right password waits, and no password is checked meanwhile.
    assert_throttled(login(player.username, "player-pass", fresh_address()), "username")


def test_other_usernames_still_log_in_while_one_is_attacked(make_player: Callable[..., AbstractUser]) -> None:
    attacked, honest = make_player(), make_player()
    attacker = fresh_address()
    fail_logins(attacked.username, attacker, USERNAME_LIMIT)
    assert_throttled(login(attacked.username, "guess", attacker), "username")
    for address in (attacker, fresh_address()):  # behind the same NAT, or not
        assert login(honest.username, "player-pass", address).status_code == 200


def test_too_many_failures_from_one_address_lock_that_address(player: AbstractUser) -> None:
    spraying = fresh_address()
    for _ in range(ADDRESS_LIMIT // 3):  # 3 guesses a username: none is locked
        fail_logins(fresh_username(), spraying, 3)
    assert_throttled(login(player.username, "player-pass", spraying), "address")
    assert login(player.username, "player-pass", fresh_address()).status_code == 200


def test_a_forged_x_forwarded_for_does_not_dodge_the_address_limit(settings: Any) -> None:
    address = fresh_address()
    for attempt in range(ADDRESS_LIMIT):
        response = login(fresh_username(), "wrong", address, **{"X-Forwarded-For": fresh_address()})
        assert response.status_code == 400, attempt
    assert_throttled(login(fresh_username(), "wrong", address), "address")


def test_behind_a_trusted_proxy_the_forwarded_address_counts(settings: Any, player: AbstractUser) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy, client = fresh_address(), fresh_address()
    for _ in range(ADDRESS_LIMIT):
        login(fresh_username(), "wrong", proxy, **{"X-Forwarded-For": client})
    assert_throttled(login(player.username, "player-pass", proxy, **{"X-Forwarded-For": client}), "address")
    other_client = login(player.username, "player-pass", proxy, **{"X-Forwarded-For": fresh_address()})
    assert other_client.status_code == 200


def test_invalid_input_is_not_counted(player: AbstractUser) -> None:
    address = fresh_address()
    for _ in range(USERNAME_LIMIT * 2):
        response = APIClient(REMOTE_ADDR=address).post(LOGIN, {"username": player.username}, format="json")
        assert response.json()["code"] == "invalid_input"
    assert login(player.username, "player-pass", address).status_code == 200


# The clock: windows and lockouts -------------------------------------------------------------------


def test_failures_more_than_a_window_apart_do_not_add_up() -> None:
    username, address, start = fresh_username(), fresh_address(), 1_000_020.0  # a window's first second
    for second in range(USERNAME_LIMIT - 1):
        login_record_failure(username=username, address=address, now=start + second)
    login_record_failure(username=username, address=address, now=start + 120)  # two windows on
    login_check_allowed(username=username, address=address, now=start + 121)


def test_failures_across_a_window_boundary_add_up() -> None:
    username, address, boundary = fresh_username(), fresh_address(), 3_000_000.0
    for _ in range(USERNAME_LIMIT - 1):
        login_record_failure(username=username, address=address, now=boundary - 0.5)
    login_record_failure(username=username, address=address, now=boundary + 0.5)
    with pytest.raises(Throttled):
        login_check_allowed(username=username, address=address, now=boundary + 1)


def test_the_lockout_ends_after_its_time() -> None:
    username, address, start = fresh_username(), fresh_address(), 2_000_040.0
    for _ in range(USERNAME_LIMIT):
        login_record_failure(username=username, address=address, now=start)
    with pytest.raises(Throttled) as locked:
        login_check_allowed(username=username, address=address, now=start + LOCKOUT - 1)
    assert locked.value.wait == 1
    login_check_allowed(username=username, address=address, now=start + LOCKOUT)


# Shared by every process ---------------------------------------------------------------------------

PROBE = """
import django
django.setup()
from django.test import Client
import sys
username, address, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for attempt in range(count):
    response = Client(REMOTE_ADDR=address).post("/api/v1/auth/token", {"username": username, "password": "x"},
                                                content_type="application/json")
    print(response.status_code)
"""


def cache_config(cache_url: str) -> dict[str, Any]:
    if cache_url == "db://":
        return {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "guts_cache"}
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": cache_url,
        "KEY_PREFIX": "guts",
    }


def redis_url() -> str:
    broker = os.environ.get("CELERY_BROKER_URL", "")
    return broker if broker.startswith("redis://") else ""


@pytest.fixture(params=["db://", "redis"])
def shared_cache(request: pytest.FixtureRequest, settings: Any) -> str:
    """This process's cache, configured as settings.py configures it for this CACHE_URL."""
    cache_url = request.param if request.param == "db://" else redis_url()
    if not cache_url:
        pytest.skip("needs Redis: set CELERY_BROKER_URL=redis://...")
    settings.CACHES = {"default": cache_config(cache_url)}
    return cache_url


@pytest.mark.postgres
def test_failures_counted_in_another_process_lock_the_username_here(shared_cache: str) -> None:
    """Another web worker (a real process, its own cache connection) sees the same counters."""
    username = fresh_username()
    db = connection.settings_dict
    env = {
        **os.environ,
        "CACHE_URL": shared_cache,
        "DJANGO_SETTINGS_MODULE": "guts_backend.settings",
        "GUTS_SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    argv = [sys.executable, "-c", PROBE, username, fresh_address(), str(USERNAME_LIMIT)]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["400"] * USERNAME_LIMIT
    assert_throttled(login(username, "any", fresh_address()), "username")
