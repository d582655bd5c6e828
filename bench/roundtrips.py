"""Round trips per command: how many times a command waits for PostgreSQL.

Not a test: prints a table. A command's latency on a real network is dominated by its round trips
to the database, not by the statements' work, so they are counted exactly, not inferred: the
Django process connects through a small TCP proxy on 127.0.0.1 that delays every answer of the
database by DELAY: the extra time a command then takes, divided by DELAY, is the number of times
it waits for the database (BEGIN, a statement or a pipelined group of statements, COMMIT).

    python bench/roundtrips.py

The cashier's commands are measured as services and as HTTP POSTs (a warm token, so
authentication costs nothing), with and without an Idempotency-Key, and a replay of a finished key.

Runs in a scratch database it creates and drops on DATABASE_URL (default: the local PostgreSQL).
Target: a table command in at most 2 round trips, a deposit in at most 3.
"""

from __future__ import annotations

import contextlib
import os
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from event_store import DEFAULT_URL, ScratchDatabase, setup_django  # noqa: E402

TARGET = 2
DELAY = 0.05  # seconds added to every answer of the database


class LatencyProxy:
    """A TCP proxy to PostgreSQL that holds every server-to-client packet for DELAY seconds.

    A command then takes about (round trips x DELAY) longer than without it, whatever the client
    sends in between: a pipelined statement the client does not wait for costs nothing, a wait
    costs DELAY. So round trips = extra time / DELAY, rounded: what a network between the web
    process and the database would make of the command, measured rather than inferred from bytes.
    """

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.delay = 0.0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self._listener.accept()
            server = socket.create_connection(self.upstream)
            for sock in (client, server):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket, delayed: bool) -> None:
        due: queue.Queue[tuple[float, bytes]] = queue.Queue()

        def deliver() -> None:
            while True:
                at, data = due.get()
                if not data:
                    return
                time.sleep(max(0.0, at - time.monotonic()))
                target.sendall(data)

        sender = threading.Thread(target=deliver, daemon=True)
        sender.start()
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                due.put((time.monotonic() + (self.delay if delayed else 0.0), data))
        due.put((0.0, b""))
        sender.join(timeout=5)
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def round_trips(
        self, prepare: Callable[[], Callable[[], object]], *, delay: float = DELAY, repeat: int = 3
    ) -> int:
        """Round trips of the command `prepare()` sets up (set-up not timed): the least of `repeat`
        runs of (time with the delay - time without) / delay."""

        def timed(seconds: float) -> float:
            work = prepare()
            self.delay = seconds
            start = time.perf_counter()
            work()
            elapsed = time.perf_counter() - start
            self.delay = 0.0
            return elapsed

        extra = min(timed(delay) - timed(0.0) for _ in range(repeat))
        return round(extra / delay)


def through(url: str, port: int) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2 else host))


def main() -> None:
    admin_url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    with ScratchDatabase(admin_url) as scratch:
        target = urlsplit(scratch.url)
        counter = LatencyProxy(target.hostname or "127.0.0.1", target.port or 5432)
        os.environ["GUTS_DB_POOL"] = "0"
        setup_django(through(scratch.url, counter.port))
        rows = measure(counter)
    width = max(len(name) for name, _ in rows)
    print(f"{'command':<{width}}  round trips  (target <= {TARGET} for a table command)")
    for name, turns in rows:
        print(f"{name:<{width}}  {turns:>11}")


def measure_here(*, repeat: int = 3) -> list[tuple[str, int]]:
    """`measure` in a process whose Django is set up already (without a connection pool): its
    connection goes through a LatencyProxy to the same server for the measurement, then back."""
    from django.db import connection

    settings = connection.settings_dict
    saved = settings["HOST"], settings["PORT"]
    proxy = LatencyProxy(saved[0] or "127.0.0.1", int(saved[1] or 5432))
    connection.close()
    settings["HOST"], settings["PORT"] = "127.0.0.1", proxy.port
    try:
        return measure(proxy, repeat=repeat)
    finally:
        connection.close()
        settings["HOST"], settings["PORT"] = saved


def measure(proxy: LatencyProxy, *, repeat: int = 3) -> list[tuple[str, int]]:
    """Round trips of each kind of command, through `proxy` (Django's connection must use it)."""
    from django.db import connection

    from ledger.cashier import cashier_deposit, cashier_withdraw, player_create
    from tables import service
    from tables.engine.decider import commands as cmd
    from tables.state import load_table

    players = [player_create(username=f"rt{os.urandom(4).hex()}", password="bench-pass").pk for _ in range(3)]
    for player in players:
        cashier_deposit(player_id=player, amount=10**9)
    connection.ensure_connection()

    def new_table() -> str:
        table = service.table_open(variant="guts2", options={"ante": 1, "pot_limit": 1000}).table_id
        for player in players:
            service.table_command(table_id=table, command=cmd.SitDown(str(player), 1000))
        return table

    def deal_start() -> Callable[[], object]:
        table = new_table()
        return lambda: service.table_command(table_id=table, command=cmd.StartDeal())

    def declare(last: bool) -> Callable[[], Callable[[], object]]:
        """The first declare of a deal, or its last one (everyone in: a showdown and a settlement)."""

        def prepare() -> Callable[[], object]:
            table = new_table()
            service.table_command(table_id=table, command=cmd.StartDeal())
            while True:
                deal = load_table(table).state.live
                assert deal is not None
                player = deal.awaiting[0]

                def act(player: str = player, deal_no: int = deal.deal_no) -> object:
                    return service.table_command(table_id=table, command=cmd.Declare(player, deal_no, "in"))

                if not last or player == deal.order[-1]:
                    return act
                act()

        return prepare

    post = http_poster(players[0])
    return [
        (
            "deposit (cashier)",
            proxy.round_trips(lambda: lambda: cashier_deposit(player_id=players[0], amount=5), repeat=repeat),
        ),
        (
            "withdrawal (cashier)",
            proxy.round_trips(
                lambda: lambda: cashier_withdraw(player_id=players[0], amount=5), repeat=repeat
            ),
        ),
        ("deposit (HTTP)", proxy.round_trips(lambda: post("deposits"), repeat=repeat)),
        (
            "deposit (HTTP, Idempotency-Key)",
            proxy.round_trips(lambda: post("deposits", key=True), repeat=repeat),
        ),
        ("withdrawal (HTTP)", proxy.round_trips(lambda: post("withdrawals"), repeat=repeat)),
        (
            "withdrawal (HTTP, Idempotency-Key)",
            proxy.round_trips(lambda: post("withdrawals", key=True), repeat=repeat),
        ),
        (
            "replay of a deposit (HTTP)",
            proxy.round_trips(lambda: post("deposits", replay=True), repeat=repeat),
        ),
        ("deal start (table)", proxy.round_trips(deal_start, repeat=repeat)),
        ("declare (table)", proxy.round_trips(declare(last=False), repeat=repeat)),
        ("last declare, settles (table)", proxy.round_trips(declare(last=True), repeat=repeat)),
    ]


def http_poster(player: int) -> Callable[..., Callable[[], object]]:
    """`post(kind, key=, replay=)` sets up a cashier POST over HTTP by a club admin whose token is
    in the auth cache already (so only the command's own round trips count) and returns it."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from http_edge.roles import CLUB_ADMIN, grant_role
    from http_edge.tokens import token_issue

    admin = get_user_model().objects.create_user(username=f"rt-admin-{os.urandom(4).hex()}")
    grant_role(admin, CLUB_ADMIN)
    client = Client(HTTP_AUTHORIZATION=f"Token {token_issue(user=admin).key}")

    def send(kind: str, key: str | None) -> None:
        headers = {"Idempotency-Key": key} if key else {}
        response = client.post(
            f"/api/v1/players/{player}/{kind}",
            {"amount": 5},
            secure=True,
            content_type="application/json",
            headers=headers,
        )
        assert response.status_code == 201, response.content

    def post(kind: str, *, key: bool = False, replay: bool = False) -> Callable[[], object]:
        fresh = os.urandom(8).hex() if key or replay else None
        send(kind, fresh if replay else None)  # warms the auth cache (or stores the key)
        return lambda: send(kind, fresh)

    return post


if __name__ == "__main__":
    main()
