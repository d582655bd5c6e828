"""Ledger test helpers. (The PostgreSQL flush option every test connection needs is set in the
root conftest.)"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from ledger import registry
from ledger.money import CASHIER, Transfer, player_account
from ledger.store import NewEvent, StreamWrite, append, stream_version

_counter = itertools.count()


def unique(prefix: str) -> str:
    """A name no other test uses (tests share one database per xdist worker)."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}-{next(_counter)}"


def deposit_event(player: str, amount: int, *, unit: str = "chips") -> NewEvent:
    transfer = Transfer(
        source=CASHIER, target=player_account(player), amount=amount, reason="deposit", unit=unit
    )
    return NewEvent("DepositMade", {"transfers": [transfer.to_json()]})


def withdraw_event(player: str, amount: int, *, unit: str = "chips") -> NewEvent:
    transfer = Transfer(
        source=player_account(player), target=CASHIER, amount=amount, reason="withdrawal", unit=unit
    )
    return NewEvent("WithdrawalMade", {"transfers": [transfer.to_json()]})


def append_one(stream: str, event: NewEvent, **meta: Any) -> None:
    """Append one event at the stream's current version."""
    append([StreamWrite(stream, stream_version(stream), [event])], meta=meta or None)


@pytest.fixture
def throwaway_type() -> Iterator[str]:
    """An event type name registered only for one test."""
    name = unique("Throwaway")
    yield name
    registry.unregister_event_type(name)
