"""`manage.py serve`: the API, a Celery worker and Celery beat together, for `make run`.

One command a newcomer can run: it starts the three processes, forwards their output, and once the
API answers on its address and the worker and beat say they are up, prints last (so nothing
scrolls it away) where everything is served and the demo logins `seed_demo` wrote to
`var/demo-tokens.txt`, with the address actually served. It forwards Ctrl-C to all of them and
stops everything if any one dies. The API runs under ASGI (uvicorn, one process), as in
production, so live streams (SSE) hold no thread while open. Celery logs at
`GUTS_CELERY_LOG_LEVEL` (WARNING: an idle demo prints nothing), uvicorn at `GUTS_SERVER_LOG_LEVEL`.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from guts_backend.management.commands.seed_demo import BASE_URL_LINE, TOKENS_FILE

READY_MARKERS = {"worker": " ready.", "beat": "beat: Starting..."}  # guts_backend.celery says them
START_TIMEOUT = 60.0  # seconds to wait for everything before the banner is printed anyway
UNSPECIFIED_HOSTS = ("", "0.0.0.0", "::", "[::]")  # listen everywhere: browse to the loopback


def served_url(addr: str) -> tuple[str, str | None]:
    """The URL to browse to for `host:port`, and the address listened on if that is not it
    (0.0.0.0: every interface, browsed at the loopback)."""
    host, _, port = addr.rpartition(":")
    if host in UNSPECIFIED_HOSTS:
        return f"http://127.0.0.1:{port}", f"{host or '0.0.0.0'}:{port}"
    return f"http://{host}:{port}", None


def banner(addr: str, tokens_file: Path) -> str:
    """Where everything is served, then the demo logins (from `tokens_file`, at this address)."""
    base, listening = served_url(addr)
    lines = [
        "",
        f"Guts club backend is serving on {base}" + (f" (listening on {listening})" if listening else ""),
        f"  API docs (Swagger UI): {base}/api/docs/",
        f"  ReDoc:                 {base}/api/redoc/",
        f"  OpenAPI schema:        {base}/api/schema/",
        f"  Admin:                 {base}/admin/",
        f"  Broker: {settings.CELERY_BROKER_URL}   Database: {settings.DATABASES['default']['ENGINE']}",
    ]
    if tokens_file.exists():
        text = tokens_file.read_text()
        first, _, rest = text.partition("\n")
        written_for = first.removeprefix(BASE_URL_LINE) if first.startswith(BASE_URL_LINE) else None
        lines += ["", (rest.replace(written_for, base) if written_for else text).rstrip("\n")]
        lines.append(f"(also in {tokens_file})")
    else:
        lines.append(f"No demo logins yet: run `manage.py seed_demo` (they go to {tokens_file}).")
    lines.append("Press Ctrl-C to stop.")
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Run the API server, a Celery worker and Celery beat on the configured settings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port for the API")
        parser.add_argument("--no-worker", action="store_true", help="API only")

    def handle(self, *args: Any, **options: Any) -> None:
        addr: str = options["addr"]
        ready = {"api": threading.Event()}
        processes = {"api": self._start(self._uvicorn(addr), "api", ready)}
        if not options["no_worker"]:
            for name in READY_MARKERS:
                ready[name] = threading.Event()
            processes["worker"] = self._start(
                self._celery("worker", "--pool=threads", "--concurrency=4"), "worker", ready
            )
            processes["beat"] = self._start(
                self._celery("beat", "--schedule", str(settings.VAR_DIR / "celerybeat-schedule")),
                "beat",
                ready,
            )
        threading.Thread(target=self._announce_when_up, args=(addr, ready, processes), daemon=True).start()
        self._supervise(processes)

    @staticmethod
    def _uvicorn(addr: str) -> list[str]:
        """The ASGI server; streams are cut after 5 s on Ctrl-C (clients resume with Last-Event-ID)."""
        host, _, port = addr.rpartition(":")
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "guts_backend.asgi:application",
            "--host",
            host or "127.0.0.1",
            "--port",
            port,
            "--timeout-graceful-shutdown",
            "5",
            "--log-level",
            settings.GUTS_SERVER_LOG_LEVEL,
        ]

    @staticmethod
    def _celery(*args: str) -> list[str]:
        level = settings.GUTS_CELERY_LOG_LEVEL
        quiet = ["--quiet"] if level not in ("DEBUG", "INFO") else []  # no start-up banner either
        return [sys.executable, "-m", "celery", "-A", "guts_backend", *quiet, *args, f"--loglevel={level}"]

    def _start(
        self, argv: list[str], name: str, ready: dict[str, threading.Event]
    ) -> subprocess.Popen[bytes]:
        """The process, its output forwarded line by line; its ready marker sets `ready[name]`."""
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        marker = READY_MARKERS.get(name)
        assert process.stdout is not None
        threading.Thread(
            target=forward, args=(process.stdout, sys.stdout.buffer, marker, ready.get(name)), daemon=True
        ).start()
        return process

    def _announce_when_up(
        self, addr: str, ready: dict[str, threading.Event], processes: dict[str, subprocess.Popen[bytes]]
    ) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        host, _, port = served_url(addr)[0].removeprefix("http://").rpartition(":")
        if wait_until(lambda: accepts(host, int(port)), deadline):
            ready["api"].set()
        for event in ready.values():
            event.wait(max(0.0, deadline - time.monotonic()))
        if all(process.poll() is None for process in processes.values()):
            self.stdout.write(self.style.SUCCESS(banner(addr, settings.VAR_DIR / TOKENS_FILE)))
            self.stdout.flush()

    def _supervise(self, processes: dict[str, subprocess.Popen[bytes]]) -> None:
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        while not stopping:
            for name, process in processes.items():
                if process.poll() is not None:
                    self.stderr.write(f"{name} exited with {process.returncode}; stopping the rest")
                    stopping = True
            time.sleep(0.5)
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def forward(source: IO[bytes], sink: IO[bytes], marker: str | None, seen: threading.Event | None) -> None:
    """Copy a child's output to ours, line by line, noting the line that says it is ready."""
    for line in iter(source.readline, b""):
        sink.write(line)
        sink.flush()
        if marker is not None and seen is not None and marker.encode() in line:
            seen.set()


def accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def wait_until(check: Callable[[], bool], deadline: float) -> bool:
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False
