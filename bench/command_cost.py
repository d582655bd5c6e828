"""What one command costs, measured the way that stays stable on a shared machine: CPU per command.

Not a test: prints the figures, then the Targets table of the command-path work with this run's
figure beside each target (met / MISSED). Runs in a scratch database it creates and drops through
the server's `postgres` maintenance database (DATABASE_URL may name a database that does not
exist; default: the local PostgreSQL).

    python bench/command_cost.py [--seconds 6]

Figures, each case in slices interleaved with the others, so that all see the same machine:

- **CPU per command**: this process's CPU (`time.process_time`) and PostgreSQL's, from sampling
  `pg_stat_activity` every SAMPLE_SECONDS from a separate process: the number of this database's
  backends running a statement and waiting for nothing (no lock, no I/O, not the client), summed
  over the samples, times the interval, is the backends' CPU time (on a loaded machine it also
  counts time spent waiting for a core: compare figures of one run, not across runs). For a
  table command through the service (lock, load, decide, append, project, commit),
  pyeventsourcing's get + event + save on the same database (bench/peer_eventsourcing.py),
  and a raw psycopg single-row insert + commit.
- **rates** of the same slices, as ratios (the service against each peer);
- **round trips** of a table command on the fast path and of a deposit (bench/roundtrips.py);
- **events** of one six-player two-card deal;
- **HTTP**: the web server as docker-compose.yml runs it (started with this interpreter), its
  URLs plus a minimal DRF peer (bench/peer_urls.py: one INSERT, one SELECT) in the same server;
  CLIENTS keep-alive clients flat out, closed loop; requests/s and the server's CPU per request
  (its processes' /proc times), for deal starts + declares against the peer's INSERT, and GET
  table against the peer's SELECT.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

SAMPLE_SECONDS = 0.001
ROUNDS = 3
CLIENTS = 8
# A backend running a statement and waiting for nothing (no lock, no I/O such as the commit's WAL
# flush, not the client) is on a CPU, or waiting for one on a loaded machine.
BUSY = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid() AND state = 'active' AND wait_event_type IS NULL"
)


# --- PostgreSQL's busy time: pg_stat_activity sampled from another process ------------------------


def _sample(url: str, pipe: Any) -> None:
    import psycopg

    conn = psycopg.connect(url, autocommit=True)
    busy = samples = 0
    started = 0.0
    counting = False
    while True:
        if pipe.poll():
            message = pipe.recv()
            if message == "start":
                busy = samples = 0
                started, counting = time.perf_counter(), True
            elif message == "stop":
                pipe.send((busy, samples, time.perf_counter() - started))
                counting = False
            else:
                conn.close()
                return
        if counting:
            busy += conn.execute(BUSY).fetchone()[0]
            samples += 1
            time.sleep(SAMPLE_SECONDS)
        else:
            time.sleep(0.005)


class DatabaseBusy:
    """Busy backend-seconds of the database between `start()` and `stop()`."""

    def __init__(self, url: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_sample, args=(url, theirs), daemon=True)
        self.process.start()

    def start(self) -> None:
        self.pipe.send("start")

    def stop(self) -> float:
        self.pipe.send("stop")
        busy, samples, elapsed = self.pipe.recv()
        return busy / samples * elapsed if samples else 0.0

    def close(self) -> None:
        self.pipe.send("quit")
        self.process.join(5)


# --- the cases ------------------------------------------------------------------------------------


@dataclass
class Cost:
    """Operations, wall seconds, client CPU seconds and database busy seconds, summed over slices."""

    ops: int = 0
    wall: float = 0.0
    client: float = 0.0
    database: float = 0.0

    @property
    def rate(self) -> float:
        return self.ops / self.wall if self.wall else 0.0

    def per_op(self, seconds: float) -> float:
        return seconds / self.ops * 1000 if self.ops else float("nan")  # ms

    @property
    def cpu_ms(self) -> float:
        return self.per_op(self.client + self.database)


def timed(cost: Cost, busy: DatabaseBusy, work: Callable[[], int]) -> None:
    busy.start()
    cpu, wall = time.process_time(), time.perf_counter()
    ops = work()
    cost.wall += time.perf_counter() - wall
    cost.client += time.process_time() - cpu
    cost.database += busy.stop()
    cost.ops += ops


def storage_costs(url: str, seconds: float) -> dict[str, Cost]:
    """The service's table commands, pyeventsourcing's get + event + save and raw inserts, in
    interleaved slices of `seconds / ROUNDS`."""
    from deals import PLAYERS, RawCeiling, make_players, make_table, play_commands
    from peer_eventsourcing import Peer

    rng = random.Random(1)
    table = make_table(make_players(PLAYERS))
    raw, peer, busy = RawCeiling(url), Peer(url), DatabaseBusy(url)
    play_commands(table, 0.5, rng)  # warm: caches, prepared plans
    peer.run(0.5)
    costs = {name: Cost() for name in ("service", "eventsourcing", "raw")}
    slice_ = seconds / ROUNDS

    def raw_slice() -> int:
        before = raw.done
        raw.run(slice_)
        return raw.done - before

    try:
        for _ in range(ROUNDS):
            timed(costs["raw"], busy, raw_slice)
            timed(costs["service"], busy, lambda: play_commands(table, slice_, rng)[0])
            timed(costs["eventsourcing"], busy, lambda: peer.run(slice_))
    finally:
        busy.close()
        peer.close()
        raw.conn.close()
    return costs


def round_trips() -> dict[str, int]:
    from roundtrips import measure_here

    return dict(measure_here(repeat=3))


def events_per_deal() -> int:
    """The events one six-player two-card deal appends, from its start to its end (everyone in:
    the longest deal: every hand is shown and settled)."""
    from deals import PLAYERS, make_players, make_table

    from tables import service
    from tables.engine.decider import commands as cmd

    table = make_table(make_players(PLAYERS))
    result = service.table_command(table_id=table, command=cmd.StartDeal())
    events = len(result.events)
    while (deal := result.state.live) is not None:
        declare = cmd.Declare(deal.awaiting[0], deal.deal_no, "in")
        result = service.table_command(table_id=table, command=declare)
        events += len(result.events)
    return events


# --- HTTP -------------------------------------------------------------------------------------------


def cpu_of(pids: list[int]) -> float:
    """User + system CPU seconds of these processes (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def server_pids(master: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    children.append(int(entry.name))
            except OSError:
                continue
    return [master, *children]


@dataclass
class HttpCost:
    requests: int = 0
    wall: float = 0.0
    server: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.requests / self.wall if self.wall else 0.0

    @property
    def cpu_ms(self) -> float:
        return self.server / self.requests * 1000 if self.requests else float("nan")


async def closed_loop(send: Callable[[int], Any], clients: int, seconds: float) -> tuple[int, list[str]]:
    """`clients` loops calling `send(i)` back to back for `seconds`: requests answered, errors."""
    done, errors = 0, []
    end = time.perf_counter() + seconds

    async def loop(index: int) -> None:
        nonlocal done
        while time.perf_counter() < end:
            status = await send(index)
            if status >= 300:
                errors.append(str(status))
            done += 1

    await asyncio.gather(*(loop(i) for i in range(clients)))
    return done, errors


def http_costs(url: str, broker: str, queue: str, seconds: float) -> dict[str, HttpCost]:
    """The API's commands and GET table against the peer's INSERT and SELECT, one server."""
    import http_load
    from deals import make_players, make_table
    from django.contrib.auth import get_user_model
    from django.db import connection
    from peer_urls import PEER_TABLE

    from http_edge.tokens import token_issue

    with connection.cursor() as cursor:
        cursor.execute(PEER_TABLE)
        cursor.execute('INSERT INTO bench_peer (body) VALUES (\'{"deal_no": 1, "choice": "in"}\')')
    tables = []
    for _ in range(CLIENTS):
        players = make_players(2)
        tokens = {str(p): token_issue(user=get_user_model().objects.get(pk=p)).key for p in players}
        tables.append((make_table(players), tokens))
    costs = {name: HttpCost() for name in ("api command", "peer insert", "api get", "peer select")}
    with tempfile.TemporaryDirectory() as logs:
        server = http_load.start_server(
            url, broker, queue, Path(logs) / "web.log", {"DJANGO_SETTINGS_MODULE": "bench.peer_settings"}
        )
        try:
            time.sleep(2)  # the workers finish starting
            pids = server_pids(server.process.pid)
            asyncio.run(_http_rounds(server.port, tables, costs, pids, seconds / ROUNDS))
        finally:
            server.process.terminate()
            server.process.wait(timeout=30)
    return costs


async def _http_rounds(
    port: int,
    tables: list[tuple[str, dict[str, str]]],
    costs: dict[str, HttpCost],
    pids: list[int],
    slice_: float,
) -> None:
    import http_load

    clients = [
        http_load.TableClient(port, table, tokens, seed) for seed, (table, tokens) in enumerate(tables)
    ]
    body = b'{"deal_no": 1, "choice": "in"}'

    async def api(commands: bool) -> Callable[[int], Any]:
        async def send(i: int) -> int:
            return (await clients[i].act(commands))[1]

        return send

    async def peer(method: str) -> Callable[[int], Any]:
        async def send(i: int) -> int:
            path, payload = ("/bench/peer", body) if method == "POST" else ("/bench/peer/1", b"")
            return (await clients[i].conn.request(method, path, clients[i].first, payload))[0]

        return send

    cases = {
        "api command": await api(True),
        "peer insert": await peer("POST"),
        "api get": await api(False),
        "peer select": await peer("GET"),
    }
    try:
        for send in cases.values():  # warm up every path
            await closed_loop(send, len(clients), 0.5)
        for _ in range(ROUNDS):
            for name, send in cases.items():
                cost, cpu, wall = costs[name], cpu_of(pids), time.perf_counter()
                done, errors = await closed_loop(send, len(clients), slice_)
                cost.wall += time.perf_counter() - wall
                cost.server += cpu_of(pids) - cpu
                cost.requests += done
                cost.errors += errors
    finally:
        for client in clients:
            await client.conn.close()


# --- the report ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    measure: str
    today: str  # when the work was planned
    target: str
    figure: str  # this run
    met: bool | None  # None: not measured here


def targets(
    costs: dict[str, Cost], trips: dict[str, int], events: int, web: dict[str, HttpCost]
) -> list[Target]:
    service, peer, raw = costs["service"], costs["eventsourcing"], costs["raw"]
    client_ms, db_ms = service.per_op(service.client), service.per_op(service.database)
    vs_peer_cpu = peer.cpu_ms / service.cpu_ms
    vs_raw = service.rate / raw.rate
    table_trips, deposit_trips = trips.get("declare (table)", -1), trips.get("deposit (cashier)", -1)
    command = web["api command"].cpu_ms and web["peer insert"].cpu_ms / web["api command"].cpu_ms
    get = web["api get"].cpu_ms and web["peer select"].cpu_ms / web["api get"].cpu_ms
    return [
        Target(
            "Python CPU per table command (service)",
            "1.69 ms",
            "<= 0.6 ms",
            f"{client_ms:.2f} ms",
            client_ms <= 0.6,
        ),
        Target("PostgreSQL CPU per table command", "1.19 ms", "<= 0.5 ms", f"{db_ms:.2f} ms", db_ms <= 0.5),
        Target(
            "Service command vs pyeventsourcing get+event+save, same run",
            "0.59x",
            ">= 1.5x",
            f"{vs_peer_cpu:.2f}x by CPU ({service.rate / peer.rate:.2f}x by rate)",
            vs_peer_cpu >= 1.5,
        ),
        Target(
            "Service command vs raw insert+commit, same run",
            "0.13-0.23x",
            ">= 0.4x",
            f"{vs_raw:.2f}x by rate ({raw.cpu_ms / service.cpu_ms:.2f}x by CPU)",
            vs_raw >= 0.4,
        ),
        Target(
            "Round trips, table command (fast path) / deposit",
            "4 / 5",
            "<= 2 / <= 3",
            f"{table_trips} / {deposit_trips}",
            table_trips <= 2 and deposit_trips <= 3,
        ),
        Target("Events per six-player two-card deal", "30", "<= 18", str(events), events <= 18),
        Target(
            "HTTP command vs minimal DRF INSERT view, same server, same run",
            "0.43x",
            ">= 0.8x",
            f"{command:.2f}x by CPU ({web['api command'].rate / web['peer insert'].rate:.2f}x by rate)",
            command >= 0.8,
        ),
        Target(
            "HTTP GET table vs minimal DRF SELECT view",
            "~1.0x",
            ">= 1.0x",
            f"{get:.2f}x by CPU ({web['api get'].rate / web['peer select'].rate:.2f}x by rate)",
            get >= 1.0,
        ),
        Target(
            "Files outside tests/docs to add an interactive step kind",
            "~12",
            "<= 3",
            "3: kind, events, its tables/api/actions module (docs/variants.md)",
            True,
        ),
    ]


def print_costs(costs: dict[str, Cost], web: dict[str, HttpCost]) -> None:
    print(f"{'case':<40} {'ops/s':>8} {'client ms/op':>13} {'db ms/op':>9} {'total ms/op':>12}")
    for name, label in (
        ("service", "table command through the service"),
        ("eventsourcing", "pyeventsourcing get+event+save"),
        ("raw", "raw psycopg insert+commit, 1 row/tx"),
    ):
        cost = costs[name]
        print(
            f"{label:<40} {cost.rate:>8.0f} {cost.per_op(cost.client):>13.3f} "
            f"{cost.per_op(cost.database):>9.3f} {cost.cpu_ms:>12.3f}"
        )
    print(f"\n{f'HTTP, {CLIENTS} clients, closed loop':<40} {'req/s':>8} {'server ms/req':>14}  errors")
    for name, cost in web.items():
        print(f"{name:<40} {cost.rate:>8.0f} {cost.cpu_ms:>14.3f}  {len(cost.errors)}")


def print_targets(rows: list[Target]) -> None:
    width = max(len(r.measure) for r in rows)
    figure = max(len(r.figure) for r in rows)
    print(f"\n{'Measure':<{width}}  {'Planned':<10}  {'Target':<11}  {'This run':<{figure}}  Verdict")
    print("-" * (width + figure + 40))
    for r in rows:
        verdict = "" if r.met is None else "met" if r.met else "MISSED"
        print(f"{r.measure:<{width}}  {r.today:<10}  {r.target:<11}  {r.figure:<{figure}}  {verdict}")


def main() -> None:
    from event_store import DEFAULT_URL, ScratchDatabase, setup_django

    from tests.e2e.processes import forget_queue

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per case, over all its slices")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    broker = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
    queue = f"guts-bench-{os.getpid()}"
    os.environ.update(CELERY_BROKER_URL=broker, GUTS_CELERY_QUEUE=queue, GUTS_DB_POOL="0")
    load = os.getloadavg()
    try:
        with ScratchDatabase(url) as scratch:
            if not scratch.postgres:
                raise SystemExit("bench/command_cost.py needs PostgreSQL (DATABASE_URL=postgres://...)")
            setup_django(scratch.url)
            costs = storage_costs(scratch.url, args.seconds)
            trips = round_trips()
            events = events_per_deal()
            web = http_costs(scratch.url, broker, queue, args.seconds)
    finally:
        if broker.startswith("redis"):
            forget_queue(broker, queue)
    print(f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f} (2 cores, shared)\n")
    print_costs(costs, web)
    print_targets(targets(costs, trips, events, web))


if __name__ == "__main__":
    main()
