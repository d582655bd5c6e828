"""Helpers of the end-to-end timer tests: funded players, tables with a short timeout, polling."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ledger.cashier import cashier_deposit, player_create
from ledger.store import StoredEvent, read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.program import parse_iso
from tables.state import table_stream

TIMEOUT = 2  # seconds: the table's declare_timeout
MARGIN = timedelta(seconds=1)  # the bound: out within deadline + 1 s


def players(count: int) -> list[int]:
    made = []
    for _ in range(count):
        user = player_create(username=f"e2e-{uuid.uuid4().hex[:10]}", password="e2e-not-used")
        cashier_deposit(player_id=user.pk, amount=1_000)
        made.append(user.pk)
    return made


def table_with(count: int, **options: Any) -> str:
    table = service.table_open(
        variant="guts2", options={"ante": 10, "declare_timeout": TIMEOUT, **options}
    ).table_id
    for player in players(count):
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    return table


def events(table: str, kind: str | None = None) -> list[StoredEvent]:
    return [e for e in read_stream(table_stream(table)) if kind is None or e.type == kind]


def wait_for_events(table: str, kind: str, count: int, timeout: float) -> list[StoredEvent]:
    found = wait_until(lambda: len(events(table, kind)) >= count and events(table, kind), timeout)
    assert found, f"no {count} x {kind} in {timeout} s; the table has {[e.type for e in events(table)]}"
    return found


def deadline_of(opened: StoredEvent) -> datetime:
    return parse_iso(opened.data["deadline"])


def wait_until(found: Callable[[], Any], timeout: float, step: float = 0.05) -> Any:
    """Poll `found()` until it returns something truthy; that value, or None after `timeout` s."""
    end = time.monotonic() + timeout
    while True:
        value = found()
        if value or time.monotonic() >= end:
            return value
        time.sleep(step)
