"""Paced open-loop HTTP load against the web server as docker-compose.yml runs it (bench/deals.py (e)).

The server: compose's web command (gunicorn with uvicorn workers) and environment, bound to
127.0.0.1. The clients: one asyncio loop, each client a keep-alive connection acting for the
players of its own table. Requests go out on a fixed schedule whatever the answers do (open loop),
and a request's latency counts from its scheduled send, so a server that falls behind shows it
as queueing instead of quietly being offered less; the rate steps up until p99 passes a limit.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import shlex
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
P99_LIMIT = 0.050  # seconds: a step is sustained if its p99 is within this, without errors
GRACE = 2.0  # a step's requests still unsent this long after its end count as lost
PAUSE = 1.0  # between steps, so one step's backlog never meets the next
REQUEST_TIMEOUT = 30.0
IDLE_REOPEN = 4.0  # reconnect before the server's keep-alive (5 s) closes an idle connection


# --- the server ---------------------------------------------------------------------------------------


def compose_web(port: int) -> tuple[list[str], dict[str, str]]:
    """docker-compose.yml's web service: the gunicorn command its `sh -c` execs (bound to
    127.0.0.1:`port`, run by this interpreter: `python -m gunicorn`) and its environment
    (${VAR:-default} as the default, as `docker compose up` without those variables set)."""
    spec = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]
    shell = shlex.split(spec["command"])[-1]
    execs = [part.strip() for part in shell.split("&&") if part.strip().startswith("exec ")]
    if len(execs) != 1:
        raise SystemExit(f"docker-compose.yml: web's command execs no single server: {shell!r}")
    argv = shlex.split(execs[0])[1:]
    argv[:1] = [sys.executable, "-m", argv[0]]  # this interpreter's environment
    bind = argv.index("--bind") + 1
    argv[bind] = f"127.0.0.1:{port}"
    env = {
        name: re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(value)) for name, value in spec["environment"].items()
    }
    return argv, env


@dataclass(frozen=True, slots=True)
class Server:
    process: subprocess.Popen[bytes]
    port: int
    workers: int


def start_server(
    url: str, broker: str, queue: str, log: Path, extra_env: dict[str, str] | None = None
) -> Server:
    """The web service as compose runs it, on the scratch database and this run's timer queue.
    Not from compose: the key (this process's, which issued the tokens), the access log's
    destination (a file, not a terminal) and `extra_env` (a benchmark's settings module)."""
    from django.conf import settings

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    argv, compose_env = compose_web(port)
    ours = {"DATABASE_URL", "CELERY_BROKER_URL", "GUTS_CELERY_QUEUE", "GUTS_DB_POOL", "LOG_LEVEL", "DEBUG"}
    env = {
        **{k: v for k, v in os.environ.items() if k not in ours},
        **compose_env,
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": broker,
        "GUTS_CELERY_QUEUE": queue,
        "SECRET_KEY": settings.SECRET_KEY,
        **(extra_env or {}),
    }
    with log.open("wb") as out:
        server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 1
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return Server(server, port, workers)
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"the web server did not start:\n{log.read_text()[-3000:]}")


# --- the clients -------------------------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection: a few lines of asyncio rather than a client library,
    so that 1,000 requests a second cost the load generator (on the same 2 cores) little."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.used = 0.0

    async def request(self, method: str, path: str, token: str, body: bytes = b"") -> tuple[int, bytes]:
        if self.streams is None or time.perf_counter() - self.used > IDLE_REOPEN:
            await self.reopen()
        try:
            answer = await asyncio.wait_for(self._exchange(method, path, token, body), REQUEST_TIMEOUT)
        except BaseException:
            await self.close()
            raise
        self.used = time.perf_counter()
        return answer

    async def _exchange(self, method: str, path: str, token: str, body: bytes) -> tuple[int, bytes]:
        assert self.streams is not None
        reader, writer = self.streams
        writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers = dict(line.lower().split(": ", 1) for line in head[1:] if ": " in line)
        if "content-length" in headers:
            data = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            data = await self._chunks(reader)
        else:
            data = b""
        if headers.get("connection") == "close":
            await self.close()
        return status, data

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        await reader.readuntil(b"\r\n")
        return b"".join(parts)

    async def reopen(self) -> None:
        await self.close()
        self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        self.used = time.perf_counter()

    def worker(self) -> str | None:
        """The pid of the server process holding this connection (from `ss`; None if unknown)."""
        if self.streams is None:
            return None
        local = self.streams[1].get_extra_info("sockname")[1]
        try:
            out = subprocess.run(
                ["ss", "-tnpH", "state", "established", f"( sport = :{self.port} and dport = :{local} )"],
                capture_output=True,
                text=True,
                timeout=5,
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        found = re.search(r"pid=(\d+)", out)
        return found[1] if found else None

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class TableClient:
    """One client: a connection and a table with its players' tokens. With `commands` it plays deals
    request by request (a start, then the declares the table asks for); otherwise it reads the
    table. After an error it first re-reads the table (the answer tells where the deal is)."""

    def __init__(self, port: int, table: str, tokens: dict[str, str], seed: int) -> None:
        self.conn = Connection(port)
        self.base = f"/api/v1/tables/{table}"
        self.tokens = tokens
        self.first = next(iter(tokens.values()))
        self.rng = random.Random(seed)
        self.view: dict | None = None
        self.lost = False

    async def act(self, commands: bool) -> tuple[str, int]:
        """One request: (its kind, the status)."""
        if not commands or self.lost:
            kind, status, data = "GET table", *await self.conn.request("GET", self.base, self.first)
        elif self.view is None or not self.view["turn"]:
            kind, status, data = (
                "POST deals",
                *await self.conn.request("POST", f"{self.base}/deals", self.first, b"{}"),
            )
        else:
            player = self.view["turn"][0]
            body = json.dumps({"deal_no": self.view["deal_no"], "choice": self.rng.choice(("in", "out"))})
            kind, status, data = (
                "POST declares",
                *await self.conn.request("POST", f"{self.base}/declares", self.tokens[player], body.encode()),
            )
        self.lost = status >= 300
        if not self.lost:
            self.view = json.loads(data)
        return kind, status


# --- the steps ---------------------------------------------------------------------------------------


@dataclass
class Step:
    """One rate held for a while: the latency of every request scheduled in it, from its
    scheduled send time; requests never sent count as infinitely late."""

    rate: float
    latencies: list[float] = field(default_factory=list)
    unsent: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies) + [math.inf] * self.unsent
        return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)] if ordered else math.inf

    @property
    def sustained(self) -> bool:
        return self.percentile(0.99) <= P99_LIMIT and not self.errors

    def describe(self) -> str:
        parts = [
            f"done {len(self.latencies) / self.seconds:.0f} req/s",
            f"p50 {self.percentile(0.5) * 1000:.1f} ms",
            f"p99 {self.percentile(0.99) * 1000:.1f} ms",
        ]
        if self.unsent:
            parts.append(f"{self.unsent} never sent")
        if self.errors:
            parts.append("errors: " + ", ".join(f"{kind} {n}" for kind, n in sorted(self.errors.items())))
        return ", ".join(parts)


async def run_step(clients: list[TableClient], rate: float, seconds: float, commands: bool) -> Step:
    """Client i sends its k-th request at start + (k * clients + i) / rate (the rate spread evenly
    over the clients), or at once when it is behind; the step ends when every request scheduled
    in `seconds` has been answered, or GRACE after that."""
    step = Step(rate)
    start = time.perf_counter() + 0.05
    end, give_up = start + seconds, start + seconds + GRACE

    async def drive(index: int, client: TableClient) -> None:
        k = 0
        while (at := start + (k * len(clients) + index) / rate) < end:
            now = time.perf_counter()
            if now < at:
                await asyncio.sleep(at - now)
            elif now > give_up:
                step.unsent += 1
                k += 1
                continue
            try:
                kind, status = await client.act(commands)
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                kind, status = f"{type(exc).__name__}", 599
                client.lost = True
            step.latencies.append(time.perf_counter() - at)
            if status >= 300:
                step.errors[f"{kind} {status}"] += 1
            k += 1

    await asyncio.gather(*(drive(i, client) for i, client in enumerate(clients)))
    step.seconds = time.perf_counter() - start
    return step


async def spread(clients: list[TableClient], workers: int) -> str:
    """Connect the clients one by one, each again until it lands on a server worker that holds
    fewer than its share: uvicorn workers accept greedily, and 20 connections opened at once all
    land on one of them (the other workers then idle however fast the server could be); many
    independent clients spread about evenly. The connections per worker, e.g. "7/7/6"."""
    share, held = math.ceil(len(clients) / workers), Counter[str]()
    for client in clients:
        for _ in range(100):
            await client.conn.reopen()
            await client.conn.request("GET", client.base, client.first)  # accepted and served
            worker = client.conn.worker()
            if worker is None:
                return "unknown (no ss)"
            if held[worker] < share:
                held[worker] += 1
                break
            await asyncio.sleep(0.01)
    return "/".join(str(n) for n in sorted(held.values(), reverse=True))


@dataclass
class Search:
    """The steps of one search (rate, whether it was a second try, the step) and what it found."""

    steps: list[tuple[int, bool, Step]] = field(default_factory=list)
    best: int = 0  # the highest rate sustained (0: not even the first)
    missed: int | None = None  # the rate that missed twice (None: every rate held)
    spread: str = ""  # connections per server worker


async def search(
    clients: list[TableClient], workers: int, rates: tuple[int, ...], seconds: float, *, commands: bool
) -> Search:
    """Step up through `rates` (each held `seconds`) until one misses twice in a row."""
    found = Search(spread=await spread(clients, workers))
    await run_step(clients, 50, 1.0, commands)  # warm up: caches, plans
    for rate in rates:
        for again in (False, True):
            await asyncio.sleep(PAUSE)
            step = await run_step(clients, rate, seconds, commands)
            found.steps.append((rate, again, step))
            if step.sustained:
                break
        if not step.sustained:
            found.missed = rate
            return found
        found.best = rate
    return found
