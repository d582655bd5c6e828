"""The web service as docker-compose.yml runs it, on a free local port, for end-to-end tests.

`compose_web_argv()` is the server command of the compose file's `web` service (after its
`migrate &&`); `start_web` runs exactly that, with `--bind` moved to 127.0.0.1:<free port>, in the
given environment, and waits until it answers HTTP.
"""

from __future__ import annotations

import shlex
import socket
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.e2e.processes import ROOT, Process, start

SHELL_PREFIX = 'sh -c "'


def compose_web_argv() -> list[str]:
    """The web service's server command from docker-compose.yml, as an argument list."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    assert command.startswith(SHELL_PREFIX), command
    assert command.endswith('"'), command
    migrate, _, server = command[len(SHELL_PREFIX) : -1].partition("&&")
    assert "manage.py migrate" in migrate, command
    argv = shlex.split(server)
    return argv[1:] if argv[0] == "exec" else argv


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answering(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # up (401 without a token)
    except OSError:
        return False


@dataclass
class WebServer:
    host: str
    port: int
    process: Process

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def workers(self) -> list[int]:
        """The process ids of gunicorn's workers."""
        return sorted(children_of(self.process.popen.pid))

    def threads(self) -> int:
        """Threads of the master and all workers together."""
        return sum(threads_of(pid) for pid in [self.process.popen.pid, *self.workers()])


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def threads_of(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))


def server_argv(port: int) -> list[str]:
    """The compose command, bound to 127.0.0.1:`port`, its executables from this virtualenv."""
    argv = compose_web_argv()
    argv[argv.index("--bind") + 1] = f"127.0.0.1:{port}"
    return [str(Path(sys.executable).parent / argv[0]), *argv[1:]]


def start_web(env: Mapping[str, str], log_dir: Path, timeout: float = 60.0) -> WebServer:
    """Start the compose web server and wait until every worker is up and it answers."""
    port = free_port()
    process = start("web", server_argv(port), env, log_dir / f"web-{uuid.uuid4().hex[:6]}.log")
    server = WebServer("127.0.0.1", port, process)
    workers = int(compose_web_argv()[compose_web_argv().index("--workers") + 1])
    end = time.monotonic() + timeout
    while process.output().count("Application startup complete") < workers or not answering(
        f"{server.base_url}/api/v1/me"
    ):
        if process.popen.poll() is not None or time.monotonic() > end:
            process.stop()
            raise RuntimeError(f"the web server did not start:\n{process.output()[-3000:]}")
        time.sleep(0.1)
    return server


@contextmanager
def stream_web(
    log_dir: Path, *, lifetime: float, heartbeat: float, safety_poll: float
) -> Iterator[WebServer]:
    """The compose web server on the test's database with the live streams' timings set (its own
    Celery queue, forgotten after), stopped at the end of the block."""
    from django.conf import settings

    from tests.e2e.conftest import broker_is_redis, worker_database_url
    from tests.e2e.processes import celery_env, forget_queue, unique_queue

    queue = unique_queue()
    env = celery_env(
        database_url=worker_database_url(),
        broker_url=settings.CELERY_BROKER_URL,
        queue=queue,
        extra={
            "DJANGO_SETTINGS_MODULE": "tests.e2e.stream_settings",
            "GUTS_SSE_MAX_DURATION": str(lifetime),
            "GUTS_SSE_HEARTBEAT": str(heartbeat),
            "GUTS_SSE_SAFETY_POLL": str(safety_poll),
        },
    )
    server = start_web(env, log_dir)
    try:
        yield server
    finally:
        server.process.stop(grace=15)
        if broker_is_redis():
            forget_queue(settings.CELERY_BROKER_URL, queue)
