"""Real Celery workers and beat as subprocesses, for the timer tests and bench/timeouts.py.

Each run gets its own queue name (`GUTS_CELERY_QUEUE`), so parallel test workers and other
developers on the same Redis never take each other's tasks; `forget_queue` removes every Redis
key the run left behind (the queue, its binding, unacknowledged ETA messages a killed worker held,
the worker's control queue). Processes are started in their own session and always stopped.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKER_READY = " ready."  # celery@host ready.
BEAT_READY = "beat: Starting..."
START_TIMEOUT = 30.0


def unique_queue() -> str:
    return f"guts-test-{uuid.uuid4().hex[:12]}"


def celery_env(
    *,
    database_url: str | None,
    broker_url: str | None,
    queue: str | None,
    var_dir: Path | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of a subprocess: ours minus the service settings, plus the given ones
    (None leaves a setting to its embedded default)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "GUTS_CELERY_QUEUE", "GUTS_VAR_DIR"}
    }
    given = {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "GUTS_CELERY_QUEUE": queue,
        "GUTS_VAR_DIR": str(var_dir) if var_dir else None,
    }
    env.update({k: v for k, v in given.items() if v is not None})
    env.update(
        DJANGO_SETTINGS_MODULE="guts_backend.settings",
        PYTHONUNBUFFERED="1",
        DEBUG="0",
        GUTS_SECURE_SSL_REDIRECT="0",
    )  # production settings, but plain HTTP on 127.0.0.1
    env.update(extra or {})
    return env


@dataclass
class Process:
    """A started subprocess whose output goes to `log`."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for(self, text: str, timeout: float = START_TIMEOUT) -> float:
        """Block until `text` is in the output; the monotonic time it was seen."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.output():
                return time.monotonic()
            if self.popen.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.popen.returncode}:\n{self.output()[-3000:]}"
                )
            time.sleep(0.05)
        raise TimeoutError(f"{self.name} did not print {text!r} in {timeout} s:\n{self.output()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crashed host would: no warm shutdown, no message given back."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM to the process (which stops its own children), SIGKILL to the whole group if it
        is still there after `grace` seconds."""
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill()


def start(name: str, argv: list[str], env: Mapping[str, str], log: Path) -> Process:
    handle = log.open("wb")
    try:
        popen = subprocess.Popen(
            argv, cwd=ROOT, env=dict(env), stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )
    finally:
        handle.close()
    return Process(name, popen, log)


def celery_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "guts_backend", *args, "--loglevel=INFO"]


def worker_argv(env: Mapping[str, str], name: str, pool: str = "threads", concurrency: int = 4) -> list[str]:
    """A worker consuming only the env's queue (the thread pool, as `make run` runs it)."""
    node = f"{name}-{env.get('GUTS_CELERY_QUEUE', 'celery')}@%h"
    return celery_argv(
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--without-mingle",
        "--without-gossip",
        "--without-heartbeat",
        "-n",
        node,
    )


def start_worker(
    env: Mapping[str, str], log_dir: Path, *, name: str = "worker", pool: str = "threads"
) -> Process:
    """Start a worker without waiting for it (`wait_for(WORKER_READY)`)."""
    return start(name, worker_argv(env, name, pool), env, log_dir / f"{name}-{uuid.uuid4().hex[:6]}.log")


def start_beat(env: Mapping[str, str], log_dir: Path) -> Process:
    """Start Celery beat with a schedule file of its own, without waiting (`wait_for(BEAT_READY)`)."""
    argv = celery_argv("beat", "--schedule", str(log_dir / f"beat-{uuid.uuid4().hex[:6]}"))
    return start("beat", argv, env, log_dir / f"beat-{uuid.uuid4().hex[:6]}.log")


def forget_queue(broker_url: str, queue: str) -> None:
    """Delete what a test run's queue left in Redis (keys, bindings, unacknowledged messages)."""
    import redis

    client = redis.Redis.from_url(broker_url)
    try:
        names = list(client.scan_iter(match=f"*{queue}*"))
        if names:
            client.delete(*names)
        for binding in client.scan_iter(match="_kombu.binding.*"):
            stale = [m for m in client.smembers(binding) if queue.encode() in m]
            if stale:
                client.srem(binding, *stale)
        for tag, raw in client.hgetall("unacked").items():
            _message, _exchange, routing_key = json.loads(raw)
            if routing_key == queue:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
    finally:
        client.close()
