"""Fixtures for the tournament service tests: funded players, fresh caches, no Celery sends."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from ledger.cashier import cashier_deposit, player_create
from tables.state import cache as table_cache
from tournaments.state import cache as tournament_cache

_names = itertools.count(1)
T0 = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fresh_caches(settings: Any) -> Iterator[None]:
    """Each test rolls back: no cached state may outlive it. The service sends no Celery task:
    these tests drive the clock and the reactions themselves (tournament_tick)."""
    settings.GUTS_TOURNAMENT_TASKS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table_cache.clear()
    tournament_cache.clear()
    yield
    table_cache.clear()
    tournament_cache.clear()


@pytest.fixture
def funded_player(db: Any) -> Callable[..., int]:
    def make(bankroll: int = 10_000) -> int:
        user = player_create(username=f"tt{next(_names)}", password="pw-not-used")
        if bankroll:
            cashier_deposit(player_id=user.pk, amount=bankroll)
        return user.pk

    return make


def tournament_fields(**changes: Any) -> dict[str, Any]:
    base = {
        "name": "Sunday",
        "variant": "guts2",
        "options": {},
        "buy_in": 100,
        "fee": 10,
        "starting_chips": 1000,
        "seats_per_table": 6,
        "min_entrants": 4,
        "max_entrants": 20,
        "start_at": "2026-12-01T01:00:00Z",
        "levels": [{"ante": 5, "minutes": 10}, {"ante": 10, "minutes": 10}],
        "late_registration_level": 1,
        "payouts": [50, 30, 20],
        "pause_seconds": 5,
    }
    return {**base, **changes}
