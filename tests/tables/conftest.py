"""Fixtures for the tables service tests: funded players and a fresh state cache per test."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ledger.cashier import cashier_deposit, player_create
from tables.state import cache

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """The in-process state cache must never leak state across tests (each test rolls back)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def funded_player(db: Any) -> Callable[..., int]:
    """A registered player with `bankroll` chips; returns the player id (user pk)."""

    def make(bankroll: int = 10_000) -> int:
        user = player_create(username=f"tp{next(_names)}", password="pw-not-used")
        if bankroll:
            cashier_deposit(player_id=user.pk, amount=bankroll)
        return user.pk

    return make


def stack_deck(*hands: str) -> list[str]:
    """A stacked deck giving these hands in deal order (the dealer's left first, the dealer last),
    dealt one card at a time (D-G2-01)."""
    split = [h.split() for h in hands]
    return [h[r] for r in range(len(split[0])) for h in split]
