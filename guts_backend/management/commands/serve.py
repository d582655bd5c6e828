"""`manage.py serve`: the API, a Celery worker and Celery beat together, for `make run`.

One command a newcomer can run: it starts the three processes, prints where the API docs are,
forwards Ctrl-C to all of them and stops everything if any one dies. The API runs under ASGI
(uvicorn, one process), as in production, so live streams (SSE) hold no thread while open.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Run the API server, a Celery worker and Celery beat on the configured settings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port for the API")
        parser.add_argument("--no-worker", action="store_true", help="API only")

    def handle(self, *args: Any, **options: Any) -> None:
        addr: str = options["addr"]
        processes = {"api": self._start(self._uvicorn(addr))}
        if not options["no_worker"]:
            processes["worker"] = self._start(self._celery("worker", "--pool=threads", "--concurrency=4"))
            processes["beat"] = self._start(
                self._celery("beat", "--schedule", str(settings.VAR_DIR / "celerybeat-schedule"))
            )
        self._announce(addr)
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
        ]

    @staticmethod
    def _celery(*args: str) -> list[str]:
        return [sys.executable, "-m", "celery", "-A", "guts_backend", *args, "--loglevel=INFO"]

    @staticmethod
    def _start(argv: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv)

    def _announce(self, addr: str) -> None:
        base = f"http://{addr}"
        self.stdout.write(
            self.style.SUCCESS(
                f"\nGuts club backend is starting on {base}\n"
                f"  API docs (Swagger UI): {base}/api/docs/\n"
                f"  ReDoc:                 {base}/api/redoc/\n"
                f"  OpenAPI schema:        {base}/api/schema/\n"
                f"  Admin:                 {base}/admin/\n"
                f"  Broker: {settings.CELERY_BROKER_URL}   "
                f"Database: {settings.DATABASES['default']['ENGINE']}\n"
                "Press Ctrl-C to stop.\n"
            )
        )

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
