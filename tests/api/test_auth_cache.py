"""The auth cache (http_edge.principal; docs/api.md, "How fast revocation reaches"): a warm
request resolves token, user and roles without a query, and expiry, revocation, deactivation and
role changes still beat it: expiry exactly, a change in this process at once, in another process
within GUTS_AUTH_CACHE_SYNC_SECONDS, a change no signal sees within GUTS_AUTH_CACHE_SECONDS.

"Another process" is a second PrincipalCache with a clock of its own: it shares nothing with this
process's cache but the database and Django's shared cache, exactly as another web worker does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from redis.exceptions import RedisError
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from http_edge import principal
from http_edge.principal import PrincipalCache, principals
from http_edge.roles import AUDITOR, PLAYER, grant_role, roles_of
from http_edge.tokens import principal_load, token_authenticate, token_issue
from ledger.deactivation import user_deactivate, user_reactivate
from tests.api.conftest import client_for, post_json
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"
PLAYERS = "/api/v1/players"  # auditors and club admins only
AUTH_TABLES = ("guts_backend_apitoken", "auth_user", "auth_group")  # auth_user_groups too
TTL, SYNC = 5.0, 1.0


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def bounds(settings: Any) -> Iterator[None]:
    settings.GUTS_AUTH_CACHE_SECONDS = TTL
    settings.GUTS_AUTH_CACHE_SYNC_SECONDS = SYNC
    principals.clear()
    yield
    principals.clear()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def other_process(clock: Clock) -> PrincipalCache:
    return PrincipalCache(clock=clock)


def auth_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if any(f'"{t}' in q["sql"] for t in AUTH_TABLES)]


def authenticates(key: str, cache: PrincipalCache) -> bool:
    try:
        token_authenticate(key, cache=cache)
    except AuthenticationFailed:
        return False
    return True


# No round trip when warm ---------------------------------------------------------------------------


def test_a_warm_get_of_me_costs_no_query_at_all(
    player: AbstractUser, player_api: APIClient, settings: Any
) -> None:
    assert player_api.get(ME).status_code == 200  # warms the cache
    settings.GUTS_AUTH_CACHE_SYNC_SECONDS = 3600  # no look at a db:// cache now
    with CaptureQueriesContext(connection) as queries:
        response = player_api.get(ME)
    assert response.json() == {
        "id": str(player.pk),
        "username": player.username,
        "display_name": "Alice",
        "roles": ["player"],
        "player_id": str(player.pk),
    }
    assert queries.captured_queries == []


def test_a_cold_request_resolves_token_user_and_roles_in_one_query(player_api: APIClient) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert player_api.get(ME).json()["roles"] == ["player"]
    assert len(auth_queries(queries)) == 1


def test_a_warm_table_get_and_declare_query_nothing_for_authentication_or_roles() -> None:
    club = Club.create(players=2, bankroll=1000)
    table = club.open_table({"ante": 10, "min_buy_in": 100, "pot_limit": 100})
    club.seat_all(table, 200)
    first, second = club.players.values()
    assert post(first, table_url(table, "deals")).status_code == 200
    for api in (first, club.auditor):
        assert api.get(table_url(table)).status_code == 200  # warm
        with CaptureQueriesContext(connection) as queries:
            view = api.get(table_url(table))
        assert view.status_code == 200
        assert auth_queries(queries) == []
    mover = first if view.json()["turn"] == [str(next(iter(club.players)))] else second
    with CaptureQueriesContext(connection) as queries:
        declared = post(mover, table_url(table, "declares"), {"deal_no": 1, "choice": "in"})
    assert declared.status_code == 200, declared.content
    assert auth_queries(queries) == []


def test_each_request_gets_a_user_object_of_its_own_with_the_password_deferred(player: AbstractUser) -> None:
    key = token_issue(user=player).key
    one, two = token_authenticate(key).user, token_authenticate(key).user
    assert one is not two
    assert one == two == player
    assert (one.username, one.is_active, one.is_authenticated, roles_of(one)) == (
        player.username,
        True,
        True,
        ["player"],
    )
    assert "password" not in one.__dict__
    assert one.check_password("player-pass")  # loads it when asked


# Expiry: exact, warm or not -----------------------------------------------------------------------


def test_expiry_is_exact_with_a_warm_cache(player: AbstractUser) -> None:
    issued = token_issue(user=player, now=timezone.now() - timedelta(days=1))
    just_before = issued.expires_at - timedelta(microseconds=1)
    assert token_authenticate(issued.key, now=just_before).user == player  # cached now
    with CaptureQueriesContext(connection) as queries, pytest.raises(AuthenticationFailed, match="expired"):
        token_authenticate(issued.key, now=issued.expires_at)
    assert queries.captured_queries == []  # refused from the entry


def test_a_token_expiring_while_cached_is_refused_over_http(player: AbstractUser, settings: Any) -> None:
    settings.GUTS_TOKEN_LIFETIME = 1
    issued = token_issue(user=player)
    api = APIClient(headers={"Authorization": f"Token {issued.key}"})
    assert api.get(ME).status_code == 200
    time.sleep(max(0.0, (issued.expires_at - timezone.now()).total_seconds()) + 0.01)
    assert len(principals) == 1  # still cached, within its TTL
    response = api.get(ME)
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
    assert "expired" in response.json()["detail"]


# Changes made in this process: at once ------------------------------------------------------------


def test_logout_beats_the_cache_at_once(player: AbstractUser) -> None:
    api = client_for(player)
    assert api.get(ME).status_code == 200
    assert api.post("/api/v1/auth/logout").status_code == 204
    assert api.get(ME).status_code == 401


def test_a_club_admins_revoke_beats_the_cache_at_once(player: AbstractUser, admin_api: APIClient) -> None:
    phone, laptop = client_for(player), client_for(player)
    assert phone.get(ME).status_code == laptop.get(ME).status_code == 200
    assert post_json(admin_api, f"/api/v1/players/{player.pk}/revoke-tokens", None).status_code == 200
    assert phone.get(ME).status_code == laptop.get(ME).status_code == 401


def test_deactivation_and_reactivation_beat_the_cache_at_once(
    player: AbstractUser, player_api: APIClient
) -> None:
    assert player_api.get(ME).status_code == 200
    user_deactivate(user_id=player.pk)
    refused = player_api.get(ME)
    assert (refused.status_code, "inactive" in refused.json()["detail"]) == (401, True)
    user_reactivate(user_id=player.pk)
    assert player_api.get(ME).status_code == 200


def test_granting_and_taking_a_role_beat_the_cache_at_once(
    player: AbstractUser, player_api: APIClient
) -> None:
    assert player_api.get(PLAYERS).status_code == 403
    grant_role(player, AUDITOR)
    assert player_api.get(PLAYERS).status_code == 200
    assert player_api.get(ME).json()["roles"] == ["auditor", "player"]
    player.groups.remove(*player.groups.filter(name=AUDITOR))
    assert player_api.get(PLAYERS).status_code == 403
    player.groups.clear()
    assert player_api.get(ME).json()["player_id"] is None


def test_the_superuser_flag_beats_the_cache_at_once(player: AbstractUser, player_api: APIClient) -> None:
    assert player_api.get(PLAYERS).status_code == 403
    player.is_superuser = True
    player.save()
    assert player_api.get(PLAYERS).status_code == 200


def test_a_login_does_not_clear_the_cache(
    player: AbstractUser, make_player: Callable[..., AbstractUser]
) -> None:
    bystander = client_for(make_player())
    assert bystander.get(ME).status_code == 200
    token_issue(user=player, now=timezone.now() - timedelta(days=30))  # an expired token to drop
    response = APIClient().post(
        "/api/v1/auth/token", {"username": player.username, "password": "player-pass"}, format="json"
    )
    assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert bystander.get(ME).status_code == 200
    assert auth_queries(queries) == []


# Changes made in another process: within GUTS_AUTH_CACHE_SYNC_SECONDS -------------------------------
# Committed for real: the other process is told only once the change commits.


@pytest.mark.django_db(transaction=True)
def test_a_revocation_elsewhere_reaches_another_process_within_the_sync_interval(
    player: AbstractUser, other_process: PrincipalCache, clock: Clock
) -> None:
    key = token_issue(user=player).key
    assert authenticates(key, other_process)
    assert APIClient(headers={"Authorization": f"Token {key}"}).post("/api/v1/auth/logout").status_code == 204
    assert not authenticates(key, principals)  # this process: at once
    clock.advance(SYNC / 2)
    assert authenticates(key, other_process), "the other process has not looked yet"
    clock.advance(SYNC / 2)
    assert not authenticates(key, other_process)


@pytest.mark.django_db(transaction=True)
def test_a_deactivation_and_a_role_change_reach_another_process_within_the_sync_interval(
    player: AbstractUser, other_process: PrincipalCache, clock: Clock
) -> None:
    key = token_issue(user=player).key
    assert roles_of(token_authenticate(key, cache=other_process).user) == [PLAYER]
    grant_role(player, AUDITOR)
    clock.advance(SYNC)
    assert roles_of(token_authenticate(key, cache=other_process).user) == [AUDITOR, PLAYER]
    user_deactivate(user_id=player.pk)
    clock.advance(SYNC)
    with pytest.raises(AuthenticationFailed, match="inactive"):
        token_authenticate(key, cache=other_process)


# Changes no signal sees, or an unreachable shared cache: within GUTS_AUTH_CACHE_SECONDS ------------


def test_a_change_no_signal_sees_is_beaten_by_the_age_limit(
    player: AbstractUser, other_process: PrincipalCache, clock: Clock
) -> None:
    key = token_issue(user=player).key
    assert authenticates(key, other_process)
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)  # no signal
    get_user_model().groups.through.objects.filter(user_id=player.pk).delete()  # no m2m_changed
    clock.advance(TTL - 0.01)
    assert roles_of(token_authenticate(key, cache=other_process).user) == [PLAYER]
    clock.advance(0.01)
    assert not authenticates(key, other_process)


def test_with_the_shared_cache_down_requests_and_revocations_still_work(
    player: AbstractUser, monkeypatch: pytest.MonkeyPatch, other_process: PrincipalCache, clock: Clock
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise RedisError("connection refused")

    monkeypatch.setattr(principal.shared_cache, "get", down)
    monkeypatch.setattr(principal.shared_cache, "set", down)
    key = token_issue(user=player).key
    api = APIClient(headers={"Authorization": f"Token {key}"})
    assert authenticates(key, other_process)
    assert api.get(ME).status_code == 200
    assert api.post("/api/v1/auth/logout").status_code == 204
    assert api.get(ME).status_code == 401
    clock.advance(TTL)
    assert not authenticates(key, other_process)


def test_a_zero_age_limit_turns_the_cache_off(player: AbstractUser, settings: Any) -> None:
    settings.GUTS_AUTH_CACHE_SECONDS = 0
    key = token_issue(user=player).key
    assert authenticates(key, principals)
    assert len(principals) == 0
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    assert not authenticates(key, principals)


# The cache itself ---------------------------------------------------------------------------------


def test_a_load_racing_a_clear_is_not_stored(player: AbstractUser, other_process: PrincipalCache) -> None:
    digest = token_issue(user=player).token.digest
    loads = []

    def load_then_revoked(digest: str) -> Any:
        loads.append(digest)
        found = principal_load(digest)
        other_process.clear()  # a revocation committed while the row was read
        return found

    other_process.get(digest, load=load_then_revoked)
    other_process.get(digest, load=load_then_revoked)
    assert len(loads) == 2
    assert len(other_process) == 0


def test_the_cache_is_bounded_oldest_first(
    make_player: Callable[..., AbstractUser], settings: Any, other_process: PrincipalCache
) -> None:
    settings.GUTS_AUTH_CACHE_SIZE = 2
    first, *rest = [token_issue(user=make_player()).key for _ in range(3)]
    for key in (first, *rest):
        assert authenticates(key, other_process)
    assert len(other_process) == 2
    with CaptureQueriesContext(connection) as queries:
        authenticates(rest[-1], other_process)
    assert queries.captured_queries == []
    with CaptureQueriesContext(connection) as queries:
        authenticates(first, other_process)
    assert len(queries.captured_queries) == 1


def test_unknown_tokens_are_not_cached(other_process: PrincipalCache) -> None:
    assert not authenticates("0" * 40, other_process)
    assert len(other_process) == 0
