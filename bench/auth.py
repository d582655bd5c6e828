"""Auth benchmark: what resolving a token to a user and roles costs a request, before and after the
per-process auth cache (http_edge.principal).

Not a test: prints a table. Runs in a scratch database it creates and drops on DATABASE_URL
(default: the local PostgreSQL; SQLite when DATABASE_URL is sqlite://).

    python bench/auth.py [--quick]

Rows, each the cost of one request's authentication plus the role checks a view makes
(`IsSelfOrAuditorOrAdmin`, `viewer_of`, `player_id_of`), in microseconds and database round trips:
(a) the issue-9 lookup, reproduced here: the token with its user, then the user's groups;
(b) `token_authenticate` with the cache off (GUTS_AUTH_CACHE_SECONDS=0): one query;
(c) `token_authenticate` with a warm cache.
Then whole requests in process (Django's test client, no network): (d) GET /me and (e) GET a
table's view, cache off and warm.
Targets: (c) 0 round trips and (e) warm 0 round trips for authentication and roles.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from event_store import DEFAULT_URL, ScratchDatabase, setup_django  # noqa: E402

ROUNDS = 5


@dataclass(frozen=True, slots=True)
class Row:
    case: str
    micros: float  # median over the rounds, per operation
    trips: float  # database round trips per operation
    target: str = ""


class TripCounter:
    """Counts statements sent to the database (connection.execute_wrapper)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


@dataclass
class Case:
    name: str
    operation: Callable[[], object]
    per_round: int
    cache_seconds: float  # GUTS_AUTH_CACHE_SECONDS while it runs
    target: str = ""
    timings: list[float] = field(default_factory=list)
    trips: TripCounter = field(default_factory=TripCounter)


def measure(cases: list[Case]) -> list[Row]:
    """Interleaved rounds (the machine's load swings): each round times every case in turn."""
    from django.conf import settings
    from django.db import connection

    from http_edge.principal import principals

    for _ in range(ROUNDS):
        for case in cases:
            settings.GUTS_AUTH_CACHE_SECONDS = case.cache_seconds
            principals.clear()
            case.operation()  # warm: the cache, if on
            with connection.execute_wrapper(case.trips):
                started = time.perf_counter()
                for _ in range(case.per_round):
                    case.operation()
                case.timings.append((time.perf_counter() - started) / case.per_round)
    return [
        Row(c.name, statistics.median(c.timings) * 1e6, c.trips.count / (ROUNDS * c.per_round), c.target)
        for c in cases
    ]


def role_checks(user: Any) -> None:
    """What a table GET and a players' read ask of the user."""
    from http_edge.roles import can_view_player, player_id_of
    from tables.selectors import viewer_of

    can_view_player(user, user.pk)
    viewer_of(user)
    player_id_of(user)


def two_trip_lookup(key: str) -> Any:
    """The lookup before the cache: token with user (1 trip), then the user's groups (1 trip)."""
    from django.utils import timezone

    from http_edge.models import ApiToken
    from http_edge.roles import roles_attach
    from http_edge.tokens import key_digest

    token = ApiToken.objects.select_related("user").filter(digest=key_digest(key)).first()
    assert token is not None
    assert timezone.now() < token.expires_at
    assert token.user.is_active
    roles_attach(token.user, frozenset(token.user.groups.values_list("name", flat=True)))
    return token


def setup_club() -> tuple[str, str]:
    """A player's token and a table where he sits, mid-deal."""
    from django.contrib.auth import get_user_model

    from http_edge.roles import CLUB_ADMIN, grant_role
    from http_edge.tokens import token_issue
    from ledger.cashier import cashier_deposit, player_create
    from tables import service

    admin = get_user_model().objects.create_user(username="bench-admin", password="x")
    grant_role(admin, CLUB_ADMIN)
    players = [player_create(username=f"bench-player-{n}", password="x").pk for n in range(2)]
    for pk in players:
        cashier_deposit(player_id=pk, amount=10_000)
    return token_issue(user=get_user_model().objects.get(pk=players[0])).key, open_table(service, players)


def open_table(service: Any, players: list[int]) -> str:
    from tables.engine.decider import commands as cmd

    options = {"ante": 1, "min_buy_in": 100, "pot_limit": 200}
    table = service.table_open(variant="guts2", options=options).table_id
    for pk in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(pk), 1000))
    service.table_command(table_id=table, command=cmd.StartDeal(by_player_id=str(players[0])))
    return str(table)


def rows(per_round: int) -> list[Row]:
    from rest_framework.test import APIClient

    from http_edge.tokens import token_authenticate

    key, table = setup_club()
    client = APIClient(headers={"Authorization": f"Token {key}"})

    def get(path: str) -> Callable[[], object]:
        def call() -> None:
            response = client.get(path)
            assert response.status_code == 200, response.content

        return call

    def two_trips() -> None:
        role_checks(two_trip_lookup(key).user)

    def authenticate() -> None:
        role_checks(token_authenticate(key).user)

    requests = per_round // 10
    me, view = get("/api/v1/me"), get(f"/api/v1/tables/{table}")
    return measure(
        [
            Case("(a) two-trip lookup: token+user, then groups", two_trips, per_round, 0),
            Case("(b) token_authenticate, cache off", authenticate, per_round, 0),
            Case("(c) token_authenticate, warm cache", authenticate, per_round, 5, "0 trips"),
            Case("(d) GET /me, cache off", me, requests, 0),
            Case("(d) GET /me, warm cache", me, requests, 5, "0 trips"),
            Case("(e) GET table view, cache off", view, requests, 0),
            Case("(e) GET table view, warm cache", view, requests, 5, "0 auth trips"),
        ]
    )


def print_table(table: list[Row]) -> None:
    width = max(len(r.case) for r in table)
    print(f"{'case':<{width}}  {'µs/op':>9}  {'trips/op':>8}  target")
    for r in table:
        print(f"{r.case:<{width}}  {r.micros:>9.1f}  {r.trips:>8.2f}  {r.target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer operations per round")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    os.environ.setdefault("GUTS_SECURE_SSL_REDIRECT", "0")
    with ScratchDatabase(url) as scratch:
        setup_django(scratch.url)
        print_table(rows(200 if args.quick else 2000))


if __name__ == "__main__":
    main()
