"""A Redis outage with a tournament running: worker and beat, started with docker-compose.yml's
commands, ride it out by themselves, and the tournament deals on afterwards, with no manual restart
(docs/timers.md, "Broker outages").

The broker is a redis-server of the test's own on its own port, stopped (SIGTERM, as `docker
compose stop` does) for 6 s and started again with its append-only file, as compose's Redis keeps
one. Before the outage the worker holds unacknowledged ETA messages (as it always does with a
tournament running: the deals' pauses, the declare timers), the condition under which Celery 5.7.0
died on reconnecting (AttributeError: 'NoneType' object has no attribute 'hostname').
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from celery import Celery
from django.utils import timezone

from ledger.store import read_stream
from tests.e2e.conftest import worker_database_url
from tests.e2e.helpers import players, wait_until
from tests.e2e.processes import BEAT_READY, ROOT, WORKER_READY, Process, celery_env, start, unique_queue
from tests.redis_server import OwnRedis
from tournaments import service
from tournaments.state import tournament_stream

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-broker-outage"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]

OUTAGE = 6.0  # seconds, as the attack's scripted runs


def compose_argv(service_name: str, schedule: Path) -> list[str]:
    """The compose service's celery command, run by this interpreter (beat's schedule file moved)."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"][service_name]["command"]
    assert command[0] == "celery", command
    argv = [sys.executable, "-m", "celery", *command[1:]]
    if "--schedule" in argv:
        argv[argv.index("--schedule") + 1] = str(schedule)
    return argv


def hold_eta_messages(broker_url: str, queue: str, count: int = 20) -> None:
    """Messages the worker reserves and holds unacknowledged until their ETA (a minute away)."""
    app = Celery(broker=broker_url)
    eta = datetime.now(UTC) + timedelta(seconds=60)
    try:
        for _ in range(count):
            app.send_task("tables.sweep_overdue_declares", eta=eta, queue=queue)
    finally:
        app.close()


def processed(tournament_id: str) -> list[int]:
    stream = read_stream(tournament_stream(tournament_id))
    return [e.data["deal_no"] for e in stream if e.type == "DealProcessed"]


def test_worker_and_beat_ride_out_a_broker_outage(settings: Any, tmp_path: Path) -> None:
    settings.GUTS_TOURNAMENT_TASKS = False  # this process sends nothing: beat's sweeper starts it
    broker = OwnRedis(data_dir=tmp_path)
    broker.start()
    queue = unique_queue()
    env = celery_env(
        database_url=worker_database_url(),
        broker_url=broker.url,
        queue=queue,
        extra={"GUTS_TOURNAMENT_SWEEP_INTERVAL": "1", "GUTS_SWEEP_INTERVAL": "1"},
    )
    worker = start("worker", compose_argv("worker", tmp_path / "unused"), env, tmp_path / "worker.log")
    beat = start("beat", compose_argv("beat", tmp_path / "beat-schedule"), env, tmp_path / "beat.log")
    stack: list[Process] = [worker, beat]
    try:
        worker.wait_for(WORKER_READY, 60)
        beat.wait_for(BEAT_READY, 60)
        fields = {
            "name": "Outage",
            "variant": "guts2",
            "options": {"declare_timeout": 1},
            "buy_in": 10,
            "starting_chips": 10_000,
            "seats_per_table": 6,
            "min_entrants": 3,
            "max_entrants": 3,
            "start_at": (timezone.now() + timedelta(seconds=5)).isoformat(),
            "levels": [{"ante": 5, "minutes": 60}],
            "payouts": [100],
            "pause_seconds": 1,
        }
        tid = service.tournament_create(fields=fields).tournament_id
        for player in players(3):
            service.tournament_register(tournament_id=tid, player_id=player)
        assert wait_until(lambda: len(processed(tid)) >= 1, 60), worker.output()[-3000:]

        hold_eta_messages(broker.url, queue)
        time.sleep(1)  # reserved by the worker
        broker.stop()
        time.sleep(OUTAGE)
        before = max(processed(tid))
        broker.start()

        # The next deals are dealt and processed by the same processes, nobody restarting them.
        assert wait_until(lambda: max(processed(tid)) >= before + 2, 60), (
            worker.output()[-4000:],
            beat.output()[-2000:],
        )
        assert worker.popen.poll() is None, worker.output()[-4000:]
        assert beat.popen.poll() is None, beat.output()[-3000:]
        assert "Unrecoverable error" not in worker.output()
        assert processed(tid) == sorted(set(processed(tid)))  # each deal processed once
    finally:
        for process in stack:
            process.stop()
        broker.stop()
