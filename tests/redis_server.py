"""A redis-server of a test's own, on a free port, that the test stops and starts (broker and cache
outages without mocks)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnRedis:
    """`start()` and `stop()` (SIGTERM, as `docker compose stop` sends) a redis-server on `port`;
    with `data_dir` it keeps an append-only file there across restarts, as compose's Redis does."""

    def __init__(self, data_dir: Path | None = None) -> None:
        if shutil.which("redis-server") is None:
            pytest.skip("needs redis-server")
        self.port = free_port()
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        persist = (
            ["--appendonly", "yes", "--dir", str(self.data_dir)]
            if self.data_dir is not None
            else ["--appendonly", "no"]
        )
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", *persist],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        try:
            for _ in range(200):
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
        finally:
            client.close()
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None
