"""Declare timeout benchmark: how late timeouts land, with a real Celery worker, beat and Redis.

Not a test: prints a table. 20 tables (2 players, simultaneous declare, 1 s timeout) play 10 deals
each in which nobody declares: 200 timeouts. The first deals start spread over one timeout (or all
at once with --burst); a table starts its next deal as soon as its timeout is recorded (about 20
timeouts a second in all). Lateness = the DeclareTimedOut event's recorded_at minus the deadline
its DeclareOpened carried (both stamped by this machine's clock). Runs in a scratch database on
DATABASE_URL (default: the local PostgreSQL) and a queue of its own on CELERY_BROKER_URL (default:
the local Redis), with a worker and beat it starts and stops; beat's dispatcher sends the timers
(docs/timers.md), so the 1 s timeout is its tightest case.

    python bench/timeouts.py [--tables 20] [--deals 10] [--pool prefork|threads] [--burst] [--logs DIR]

Target: p99 under 250 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from event_store import DEFAULT_URL, ScratchDatabase, setup_django  # noqa: E402

from tests.e2e.processes import (  # noqa: E402
    BEAT_READY,
    WORKER_READY,
    celery_env,
    forget_queue,
    start_beat,
    start_worker,
    unique_queue,
)

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
TIMEOUT = 1  # seconds, the smallest declare_timeout a table accepts
TARGET_P99_MS = 250.0
POLL_SECONDS = 0.05
STALL_SECONDS = 30.0  # no timeout at all for this long: the run has failed


@dataclass(frozen=True, slots=True)
class Sample:
    late_ms: float
    source: str


def open_tables(count: int) -> list[str]:
    """`count` tables with two funded players each."""
    from django.test import override_settings

    from ledger.cashier import cashier_deposit, player_create
    from tables import service
    from tables.engine.decider import commands as cmd

    tables = []
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        for index in range(count):
            table = service.table_open(
                variant="guts2",
                options={"ante": 1, "declare_timeout": TIMEOUT, "declare_mode": "simultaneous"},
            ).table_id
            for seat in range(2):
                player = player_create(username=f"bench-{index}-{seat}", password="bench-not-used")
                cashier_deposit(player_id=player.pk, amount=10_000)
                service.table_command(table_id=table, command=cmd.SitDown(str(player.pk), 1_000))
            tables.append(table)
    return tables


def start_deal(table: str) -> datetime:
    """Start the table's next deal; the deadline of the window it opened."""
    from tables import service
    from tables.engine.decider import commands as cmd
    from tables.engine.decider.program import parse_iso

    started = service.table_command(table_id=table, command=cmd.StartDeal())
    return next(parse_iso(e.data["deadline"]) for e in started.events if e.type == "DeclareOpened")


def start_first_deals(tables: list[str], *, burst: bool) -> dict[str, datetime]:
    """The first deal everywhere: spread evenly over one timeout (a steady load, as tables that are
    not in step give), or all at once (`burst`: every table's deadline within a few ms)."""
    deadlines = {}
    gap = 0.0 if burst else TIMEOUT / len(tables)
    for table in tables:
        deadlines[table] = start_deal(table)
        time.sleep(gap)
    return deadlines


def play(tables: list[str], deals: int, *, burst: bool) -> list[Sample]:
    """Every table plays `deals` deals in which nobody declares, each starting as soon as the last
    one's timeout is recorded (so the tables' deadlines drift apart as they would in a club). One
    read of the log per poll gets the timeouts recorded since the last: `read_all`, which follows
    the log below the watermark (concurrent expiries commit out of position order; a plain
    `position > cursor` read could skip one for good)."""
    from ledger.store import last_position, read_all

    cursor = last_position()
    deadlines = start_first_deals(tables, burst=burst)  # the first expire while we start
    played = dict.fromkeys(tables, 0)
    streams = {f"table-{table}": table for table in tables}
    samples: list[Sample] = []
    quiet_since = time.monotonic()
    while len(samples) < deals * len(tables):
        timed_out = read_all(after=cursor, types=["DeclareTimedOut"])
        for event in timed_out:
            cursor, table = event.position, streams[event.stream]
            late_ms = (event.recorded_at - deadlines[table]).total_seconds() * 1000
            samples.append(Sample(late_ms, event.meta.get("source", "?")))
            played[table] += 1
            if played[table] < deals:
                deadlines[table] = start_deal(table)
        if timed_out:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > STALL_SECONDS:
            raise SystemExit(
                f"no timeout for {STALL_SECONDS} s after {len(samples)} of {deals * len(tables)}"
            )
        time.sleep(POLL_SECONDS)
    return samples


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(samples: list[Sample], tables: int, seconds: float) -> None:
    late = [s.late_ms for s in samples]
    p99 = percentile(late, 0.99)
    by_source = Counter(s.source for s in samples)
    sources = ", ".join(f"{name} {count}" for name, count in sorted(by_source.items()))
    print(f"{len(samples)} timeouts across {tables} tables in {seconds:.1f} s (applied by: {sources})")
    print(f"{'lateness (ms)':<16} {'min':>8} {'p50':>8} {'p99':>8} {'max':>8} {'mean':>8}  target")
    print("-" * 72)
    print(
        f"{'deadline->event':<16} {min(late):>8.1f} {percentile(late, 0.5):>8.1f} {p99:>8.1f} "
        f"{max(late):>8.1f} {statistics.fmean(late):>8.1f}  p99 < {TARGET_P99_MS:.0f} ms "
        f"{'(met)' if p99 < TARGET_P99_MS else '(MISSED)'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--deals", type=int, default=10, help="deals (timeouts) per table")
    parser.add_argument(
        "--pool",
        choices=("prefork", "threads"),
        default="prefork",
        help="the worker pool: prefork as docker-compose runs it, threads as `make run`",
    )
    parser.add_argument("--burst", action="store_true", help="start every table's first deal at once")
    parser.add_argument("--logs", type=Path, default=None, help="keep the worker and beat logs here")
    args = parser.parse_args()
    broker = os.environ.get("CELERY_BROKER_URL", DEFAULT_BROKER)
    queue = unique_queue()
    os.environ.update(CELERY_BROKER_URL=broker, GUTS_CELERY_QUEUE=queue)
    with (
        ScratchDatabase(os.environ.get("DATABASE_URL", DEFAULT_URL)) as scratch,
        tempfile.TemporaryDirectory() as scratch_logs,
    ):
        setup_django(scratch.url)
        logs = args.logs or Path(scratch_logs)
        logs.mkdir(parents=True, exist_ok=True)
        env = celery_env(database_url=scratch.url, broker_url=broker, queue=queue)
        processes = [start_worker(env, logs, pool=args.pool), start_beat(env, logs)]
        try:
            for process in processes:
                process.wait_for(BEAT_READY if process.name == "beat" else WORKER_READY)
            tables = open_tables(args.tables)
            started = time.monotonic()
            samples = play(tables, args.deals, burst=args.burst)
            seconds = time.monotonic() - started
        finally:
            for process in processes:
                process.stop()
            forget_queue(broker, queue)
        from django.conf import settings

        print(
            f"database: {'PostgreSQL' if scratch.postgres else 'SQLite'} (scratch {scratch.name}); "
            f"broker: {broker}; worker: {args.pool} x4; timers dispatched from beat every "
            f"{settings.GUTS_TIMER_DISPATCH_INTERVAL:g} s, {settings.GUTS_TIMER_LOOKAHEAD:g} s ahead; "
            f"sweep every {settings.GUTS_SWEEP_INTERVAL:g} s"
        )
        print(f"first deals: {'all at once' if args.burst else 'spread over one timeout'}")
        report(samples, args.tables, seconds)


if __name__ == "__main__":
    main()
