"""Deals benchmark: the tables application service and its HTTP API on PostgreSQL.

Not a test: prints a table. Runs in a scratch database it creates and drops on DATABASE_URL
(default: the local PostgreSQL).

    python bench/deals.py [--quick]

Rows: (a) the ceiling, raw psycopg single-row insert-and-commit transactions per second;
(b) commands per second through the service (lock, load, decide, append, project, commit; each
command its own transaction) as a ratio to (a); (c) complete six-player two-card deals per second;
(d) (b) on a table with 10,000 deals behind it (warm cache, and cold: snapshot + tail every time);
(e) HTTP: 20 concurrent clients on separate tables against gunicorn on 127.0.0.1, p50/p99 per action.
Targets: (b) >= 0.5 x (a); (d) within 10% of (b); (e) p99 < 50 ms.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from event_store import DEFAULT_URL, ScratchDatabase, raw_ceiling, setup_django  # noqa: E402

PLAYERS = 6
HISTORY_DEALS = 10_000
HTTP_CLIENTS = 20
BUY_IN = 10**9
OPTIONS = {"ante": 1, "min_buy_in": 100, "pot_limit": 200}


@dataclass(frozen=True, slots=True)
class Row:
    case: str
    count: int
    seconds: float
    unit: str
    note: str = ""

    @property
    def rate(self) -> float:
        return self.count / self.seconds


# --- set-up -----------------------------------------------------------------------------------------

def make_players(count: int) -> list[int]:
    from ledger.cashier import cashier_deposit, player_create

    ids = []
    for _ in range(count):
        user = player_create(username=f"b{os.urandom(6).hex()}", password="bench-pass")
        cashier_deposit(player_id=user.pk, amount=BUY_IN * 10)
        ids.append(user.pk)
    return ids


def make_table(players: list[int], mode: str = "sequential") -> str:
    from tables import service

    table = service.table_open(variant="guts2", options={**OPTIONS, "declare_mode": mode}).table_id
    for player in players:
        service.table_sit_down(table_id=table, player_id=player, buy_in=BUY_IN)
    return table


# --- (b), (c), (d): the service ---------------------------------------------------------------------

def play_commands(table: str, seconds: float, rng: random.Random,
                  before_each: Callable[[], None] = lambda: None) -> tuple[int, int, float]:
    """Play deals command by command for about `seconds`: (commands, complete deals, elapsed)."""
    from tables import service

    commands = deals = 0
    state = None
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or (state is not None and state.live is not None):
        before_each()
        if state is None or state.live is None:
            state = service.deal_start(table_id=table).state
        else:
            player = int(state.live.awaiting[0])
            state = service.deal_declare(table_id=table, player_id=player, deal_no=state.deal_no,
                                         choice=rng.choice(("in", "out"))).state
            deals += state.live is None
        commands += 1
    return commands, deals, time.perf_counter() - started


def build_history(table: str, deals: int, rng: random.Random, batch: int = 250) -> None:
    """Give `table` `deals` finished deals quickly: decide them in memory, append in batches
    (the same events, projections and snapshots the service would have written)."""
    from django.utils import timezone

    from ledger.store import NewEvent, StreamWrite, append
    from tables.engine.decider import commands as cmd
    from tables.engine.decider.decide import decide
    from tables.engine.decider.evolve import evolve
    from tables.engine.deck import new_seed
    from tables.state import load_table, table_stream

    loaded = load_table(table)
    state, version = loaded.state, loaded.version
    pending: list[NewEvent] = []

    def apply(command: cmd.Command) -> None:
        nonlocal state
        for event in decide(state, command, timezone.now()):
            state = evolve(state, event)
            pending.append(NewEvent(event.type, event.data))

    for done in range(1, deals + 1):
        apply(cmd.StartDeal(seed=new_seed()))
        while state.live is not None:
            apply(cmd.Declare(state.live.awaiting[0], state.deal_no, rng.choice(("in", "out"))))
        if done % batch == 0 or done == deals:
            append([StreamWrite(table_stream(table), version, pending)])
            version += len(pending)
            pending = []


def service_rows(ceiling: float, seconds: float, history: int) -> list[Row]:
    from tables.state import cache

    rng = random.Random(1)
    fresh = make_table(make_players(PLAYERS))
    play_commands(fresh, min(1.0, seconds / 4), rng)                        # warm up
    commands, deals, elapsed = play_commands(fresh, seconds, rng)
    rows = [Row("(b) service commands, each its own transaction", commands, elapsed, "cmd/s",
                f"{commands / elapsed / ceiling:.2f} x (a)"),
            Row("(c) complete 6-player two-card deals", deals, elapsed, "deals/s",
                f"{commands / max(deals, 1):.1f} commands per deal")]
    old = make_table(make_players(PLAYERS))
    started = time.perf_counter()
    build_history(old, history, rng)
    build = time.perf_counter() - started
    play_commands(old, min(1.0, seconds / 4), rng)
    commands_d, _, elapsed_d = play_commands(old, seconds, rng)
    rate_b = commands / elapsed
    rows.append(Row(f"(d) (b) after {history:,} deals, warm cache", commands_d, elapsed_d, "cmd/s",
                    f"{commands_d / elapsed_d / rate_b:.2f} x (b); history built in {build:.0f} s"))
    commands_c, _, elapsed_c = play_commands(old, seconds, rng, before_each=cache.clear)
    rows.append(Row(f"(d) (b) after {history:,} deals, cold (snapshot + tail)", commands_c, elapsed_c,
                    "cmd/s", f"{commands_c / elapsed_c / rate_b:.2f} x (b)"))
    return rows


# --- (e): HTTP ---------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(url: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "0", "LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "guts_backend.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "2", "-k", "gthread", "--threads", "10", "--log-level", "warning"],
        cwd=ROOT, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not start")


class Client:
    """One keep-alive connection acting for the players of one table."""

    def __init__(self, port: int, table: str, tokens: dict[str, str]) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.table = table
        self.tokens = tokens
        self.first = next(iter(tokens))
        self.timings: dict[str, list[float]] = {}

    def call(self, action: str, method: str, path: str, player: str, body: object = None) -> dict:
        headers = {"Authorization": f"Token {self.tokens[player]}", "Content-Type": "application/json"}
        started = time.perf_counter()
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        self.timings.setdefault(action, []).append(time.perf_counter() - started)
        if response.status >= 400:
            raise RuntimeError(f"{action}: {response.status} {data[:200]!r}")
        return json.loads(data)

    def run(self, until: float, rng: random.Random) -> None:
        base = f"/api/v1/tables/{self.table}"
        while time.perf_counter() < until:
            view = self.call("POST deals (start)", "POST", f"{base}/deals", self.first, {})
            self.call("GET table", "GET", base, self.first)
            while view["turn"]:
                player = view["turn"][0]
                view = self.call("POST declares", "POST", f"{base}/declares", player,
                                 {"deal_no": view["deal_no"], "choice": rng.choice(("in", "out"))})


def run_clients(clients: list[Client], seconds: float) -> float:
    until = time.perf_counter() + seconds
    threads = [threading.Thread(target=c.run, args=(until, random.Random(i))) for i, c in enumerate(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def http_rows(url: str, seconds: float) -> list[Row]:
    from rest_framework.authtoken.models import Token

    clients_setup = []
    for _ in range(HTTP_CLIENTS):
        players = make_players(2)
        table = make_table(players)
        tokens = {str(p): Token.objects.get_or_create(user_id=p)[0].key for p in players}
        clients_setup.append((table, tokens))
    port = free_port()
    server = start_server(url, port)
    try:
        clients = [Client(port, table, tokens) for table, tokens in clients_setup]
        run_clients(clients, 1.0)                      # warm up: connections, caches
        for client in clients:
            client.timings.clear()
        elapsed = run_clients(clients, seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)
    merged: dict[str, list[float]] = {}
    for client in clients:
        for action, times in client.timings.items():
            merged.setdefault(action, []).extend(times)
    rows = []
    for action, times in sorted(merged.items()):
        times.sort()
        p50 = statistics.median(times) * 1000
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
        rows.append(Row(f"(e) HTTP {HTTP_CLIENTS} clients: {action}", len(times), elapsed, "req/s",
                        f"p50 {p50:.1f} ms, p99 {p99:.1f} ms"))
    return rows


# --- main -------------------------------------------------------------------------------------------

def print_table(rows: list[Row]) -> None:
    width = max(len(r.case) for r in rows)
    print(f"{'case':<{width}}  {'count':>8}  {'seconds':>7}  {'rate':>10}  unit     note")
    for r in rows:
        print(f"{r.case:<{width}}  {r.count:>8}  {r.seconds:>7.2f}  {r.rate:>10.1f}  {r.unit:<7}  {r.note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs and 1,000 deals of history")
    args = parser.parse_args()
    seconds = 3.0 if args.quick else 10.0
    history = 1_000 if args.quick else HISTORY_DEALS
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    with ScratchDatabase(url) as scratch:
        if not scratch.postgres:
            raise SystemExit("bench/deals.py needs PostgreSQL (DATABASE_URL=postgres://...)")
        setup_django(scratch.url)
        raw = raw_ceiling(scratch.url, int(seconds * 600), 1)
        rows = [Row("(a) raw psycopg insert+commit, 1 row/tx", raw.events, raw.seconds, "tx/s", "ceiling")]
        rows += service_rows(raw.rate, seconds, history)
        rows += http_rows(scratch.url, seconds)
        print_table(rows)


if __name__ == "__main__":
    main()
