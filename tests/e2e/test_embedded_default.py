"""`make run`'s embedded default fires declare timeouts too: SQLite and kombu's filesystem broker,
no server. The service is started as `make run` starts it (migrate, seed_demo, serve) in a fresh
GUTS_VAR_DIR with no DATABASE_URL or CELERY_BROKER_URL, and driven over HTTP like a client would.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import wait_until
from tests.e2e.processes import BEAT_READY, ROOT, WORKER_READY, Process, celery_env, start

pytestmark = pytest.mark.e2e

TIMEOUT = 2
# The filesystem transport polls every second; the ETA task is held by the worker long before its
# deadline, so the margin is the second plus a second of polling for this HTTP observer.
MARGIN = timedelta(seconds=2)
TOKEN_LINE = re.compile(r"^\s+(\w+)\s+\S+\s+([0-9a-f]{40})\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Embedded:
    base_url: str
    tokens: dict[str, str]
    serve: Process

    def call(self, method: str, path: str, user: str, body: Any = None) -> Any:
        request = urllib.request.Request(
            f"{self.base_url}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Token {self.tokens[user]}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read()[:500]!r}") from error


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def answering(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # up (401 without a token)
    except OSError:
        return False


@pytest.fixture
def embedded(tmp_path: Path) -> Iterator[Embedded]:
    """migrate, seed_demo and serve exactly as `make run` does, in a fresh var/ directory."""
    env = celery_env(
        database_url=None, broker_url=None, queue=None, var_dir=tmp_path / "var", extra={"DEBUG": "1"}
    )
    manage(env, "migrate", "--noinput")
    tokens = dict(TOKEN_LINE.findall(manage(env, "seed_demo")))
    addr = f"127.0.0.1:{free_port()}"
    serve = start(
        "serve", [sys.executable, "manage.py", "serve", "--addr", addr], env, tmp_path / "serve.log"
    )
    try:
        serve.wait_for(WORKER_READY)
        serve.wait_for(BEAT_READY)
        assert wait_until(lambda: answering(f"http://{addr}/api/v1/tables"), 30), serve.output()[-3000:]
        yield Embedded(f"http://{addr}", tokens, serve)
    finally:
        serve.stop(grace=5)


def test_make_run_configuration_times_out_a_declare_window(embedded: Embedded) -> None:
    table = embedded.call(
        "POST",
        "/api/v1/tables",
        "admin",
        {
            "variant": "guts2",
            "options": {"ante": 10, "declare_timeout": TIMEOUT, "declare_mode": "simultaneous"},
        },
    )["table_id"]
    for player in ("alice", "bob", "carol"):
        embedded.call("POST", f"/api/v1/tables/{table}/seats", player, {"buy_in": 200})
    started = embedded.call("POST", f"/api/v1/tables/{table}/deals", "admin")
    deadline = datetime.fromisoformat(started["deadline"])
    assert started["deal"]["deadline"] == started["deadline"]

    def all_out() -> dict[str, Any] | None:
        view = embedded.call("GET", f"/api/v1/tables/{table}", "alice")
        players = view["deal"]["players"]
        return view if all(p["timed_out"] and p["declared"] == "out" for p in players) else None

    view = wait_until(all_out, TIMEOUT + 10, step=0.1)
    seen = datetime.now(deadline.tzinfo)
    assert view, embedded.serve.output()[-3000:]
    assert seen <= deadline + MARGIN, f"timed out {seen - deadline} after the deadline"
    assert view["deal"]["over"]
    assert view["deadline"] is None
