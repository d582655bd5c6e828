"""Replay benchmark: one deal of a table with 10,000 deals behind it, and that table's rebuild.

Not a test: prints a table. Runs on DATABASE_URL (default: the local PostgreSQL) in a scratch
database it creates and drops (bench/event_store.py's ScratchDatabase).

    python bench/replay.py [--deals N] [--repeat N]

The history is built on the fast path: every deal is decided in memory by the engine and
appended as one write (so the tables projector snapshots the decider state at every deal
boundary, as it does for live play), 500 deals per transaction. Then:

(a) replaying one deal (`tables.audit.replay.deal_replay`, what GET .../replay runs) at the start,
    middle and end of the history, and through the HTTP API (Django test client, DRF included);
(b) the same with the table's snapshots deleted (the fold then starts at version 1);
(c) rebuilding the projections (`rebuild_projections`: the ledger's and the tables' rows and
    snapshots) and replaying again on the snapshots the rebuild left behind.

Target: any deal replayed in under 20 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from event_store import DEFAULT_URL, ScratchDatabase, setup_django  # noqa: E402

PLAYERS = 6
BUY_IN = 10**9
OPTIONS = {"ante": 1, "min_buy_in": 100, "pot_limit": 200}
DEALS_PER_TRANSACTION = 500
TARGET_MS = 20.0


def make_table() -> tuple[str, list[int]]:
    from ledger.cashier import cashier_deposit, player_create
    from tables import service
    from tables.engine.decider import commands as cmd

    players = []
    for _ in range(PLAYERS):
        user = player_create(username=f"r{os.urandom(6).hex()}", password="bench-pass")
        cashier_deposit(player_id=user.pk, amount=BUY_IN * 10)
        players.append(user.pk)
    table = service.table_open(variant="guts2", options=OPTIONS).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), BUY_IN))
    return table, players


def build_history(table: str, deals: int, rng: random.Random) -> int:
    """Decide `deals` deals in memory and append each as one write; returns the events appended."""
    from django.db import transaction

    from ledger.store import StreamWrite, append
    from tables.state import load_table, table_stream

    loaded = load_table(table)
    state, version, appended = loaded.state, loaded.version, 0
    for first in range(0, deals, DEALS_PER_TRANSACTION):
        with transaction.atomic():
            for _ in range(min(DEALS_PER_TRANSACTION, deals - first)):
                state, events = one_deal(state, rng)
                append([StreamWrite(table_stream(table), version, events)])
                version += len(events)
                appended += len(events)
    return appended


def one_deal(state: Any, rng: random.Random) -> tuple[Any, list[Any]]:
    """One whole deal decided by the engine (random declares): the state after it and its events."""
    from django.utils import timezone

    from ledger.store import NewEvent
    from tables.engine.decider import commands as cmd
    from tables.engine.decider.decide import decide
    from tables.engine.decider.evolve import evolve
    from tables.engine.deck import new_seed

    events: list[NewEvent] = []
    command: cmd.Command = cmd.StartDeal(seed=new_seed())
    while True:
        for event in decide(state, command, timezone.now()):
            state = evolve(state, event)
            events.append(NewEvent(event.type, event.data))
        if state.live is None:
            return state, events
        command = cmd.Declare(state.live.awaiting[0], state.deal_no, rng.choice(("in", "out")))


def timed_ms(action: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median wall, worst wall, median CPU of this process) milliseconds of `repeat` runs after one
    warm-up run. CPU time leaves out waiting for PostgreSQL and for other processes on the machine."""
    action()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus)


def replay_rows(table: str, deals: int, repeat: int, label: str) -> list[tuple[str, float, float, float]]:
    from django.test import Client

    from http_edge.roles import AUDITOR, grant_role
    from http_edge.tokens import token_issue
    from tables.audit.replay import deal_replay
    from tables.engine.decider.view import Viewer

    auditor = Viewer(role="auditor")
    rows = []
    for deal_no in (1, deals // 2, deals):
        timings = timed_ms(lambda n=deal_no: deal_replay(table_id=table, deal_no=n, viewer=auditor), repeat)
        rows.append((f"{label}: deal_replay(deal {deal_no})", *timings))
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="bench-auditor")
    grant_role(user, AUDITOR)
    client = Client(HTTP_AUTHORIZATION=f"Token {token_issue(user=user).key}")
    url = f"/api/v1/tables/{table}/deals/{deals // 2}/replay"

    def http() -> None:
        response = client.get(url)
        assert response.status_code == 200, response.content[:200]

    rows.append((f"{label}: GET .../deals/{deals // 2}/replay", *timed_ms(http, repeat)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    with ScratchDatabase(url) as scratch:
        setup_django(scratch.url)
        run(args.deals, args.repeat)


def run(deals: int, repeat: int) -> None:
    from ledger.projections import rebuild_all
    from tables.models import TableSnapshot
    from tables.state import cache

    table, _ = make_table()
    started = time.perf_counter()
    events = build_history(table, deals, random.Random(20261129))
    build = time.perf_counter() - started
    snapshots = TableSnapshot.objects.filter(table_id=table).count()
    print(f"history: {deals} deals, {events} events in {build:.1f} s; {snapshots} snapshots of the table")
    rows = replay_rows(table, deals, repeat, "snapshot at every deal")
    cache.clear()
    started = time.perf_counter()
    report = rebuild_all()
    rebuild = time.perf_counter() - started
    after = TableSnapshot.objects.filter(table_id=table).count()
    rows += replay_rows(table, deals, repeat, f"after rebuild ({after} snapshots)")
    TableSnapshot.objects.filter(table_id=table).delete()
    rows += replay_rows(table, deals, max(3, repeat // 5), "no snapshot (fold from version 1)")
    print(
        f"rebuild_projections: {report.events} events in {rebuild:.2f} s "
        f"({report.events / rebuild:,.0f} events/s)"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"\n{'case':<62} {'median ms':>9} {'worst ms':>9} {'CPU ms':>7}  median < {TARGET_MS:.0f} ms")
    for case, median, worst, cpu in rows:
        mark = "ok" if median < TARGET_MS else "MISSED"
        print(f"{case:<62} {median:>9.2f} {worst:>9.2f} {cpu:>7.2f}  {mark}")


if __name__ == "__main__":
    main()
