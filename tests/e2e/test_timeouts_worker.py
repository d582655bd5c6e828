"""Declare timeouts with a real Celery worker and beat, Redis and PostgreSQL (DESIGN §2.8).

Nobody declares at a table with a 2 s timeout: the players are out within deadline + 1 s, turn after
turn, each timer sent by the dispatcher in beat. A process killed right after it committed a window
leaves nothing undone. The same task delivered twice: one set of events. K consecutive timeouts
sit a player out. A worker killed while it holds a timer: tests/e2e/test_worker_loss.py.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections import Counter

import pytest

from guts_backend.celery import app as celery_app
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.events import PROGRESS
from tables.models import SeatView, TableView
from tables.timers import EXPIRE_TASK
from tests.e2e.conftest import CeleryStack
from tests.e2e.helpers import MARGIN, TIMEOUT, deadline_of, events, table_with, wait_for_events, wait_until
from tests.e2e.processes import ROOT

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-timers"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]

# Starts a deal and dies by SIGKILL the moment its transaction has committed, before anything else
# runs in that process (the first on-commit callback; the service's own come after it).
KILLED_AFTER_COMMIT = """
import os, signal, sys
import django
django.setup()
from django.db import transaction
from tables import service
from tables.engine.decider import commands as cmd
with transaction.atomic():
    transaction.on_commit(lambda: os.kill(os.getpid(), signal.SIGKILL))
    service.table_command(table_id=sys.argv[1], command=cmd.StartDeal())
"""


def test_nobody_declares_and_everyone_is_out_within_a_second_of_the_deadline(timers: CeleryStack) -> None:
    table = table_with(3, declare_mode="simultaneous")
    service.table_command(table_id=table, command=cmd.StartDeal())
    [opened] = events(table, "DeclareOpened")
    assert TableView.objects.get(table_id=table).deadline == deadline_of(opened)

    [timed_out] = wait_for_events(table, "DeclareTimedOut", 1, TIMEOUT + 5)
    assert deadline_of(opened) <= timed_out.recorded_at <= deadline_of(opened) + MARGIN
    assert sorted(timed_out.data["players"]) == sorted(opened.data["players"])
    assert timed_out.data["effect"] == "out"
    revealed = events(table, "DeclaresRevealed")[0].data["choices"]
    assert set(revealed.values()) == {"out"}
    assert wait_until(lambda: events(table, "DealEnded"), 2)
    assert TableView.objects.get(table_id=table).deadline is None


def test_sequential_turns_time_out_one_after_another(timers: CeleryStack) -> None:
    table = table_with(3)  # sequential: b, then c; the dealer is forced in (G2-10)
    service.table_command(table_id=table, command=cmd.StartDeal())
    timed_out = wait_for_events(table, "DeclareTimedOut", 2, 2 * TIMEOUT + 5)
    opened = events(table, "DeclareOpened")
    assert [e.data["players"] for e in timed_out] == [e.data["players"] for e in opened]
    for turn, expired in zip(opened, timed_out, strict=True):
        assert deadline_of(turn) <= expired.recorded_at <= deadline_of(turn) + MARGIN
    assert [e.data["forced"] for e in events(table, "Declared")] == [True]


def test_a_process_killed_right_after_its_commit_still_times_out_on_time(timers: CeleryStack) -> None:
    table = table_with(3, declare_mode="simultaneous")
    died = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_COMMIT, table],
        env=timers.env,
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert died.returncode == -9, died.stderr[-2000:]
    [opened] = events(table, "DeclareOpened")

    [timed_out] = wait_for_events(table, "DeclareTimedOut", 1, TIMEOUT + 5)
    assert timed_out.meta["source"] == "timer"  # not left to the sweeper
    assert deadline_of(opened) <= timed_out.recorded_at <= deadline_of(opened) + MARGIN


def test_the_same_task_delivered_twice_appends_one_set_of_events(timers: CeleryStack) -> None:
    [worker] = [p for p in timers.processes if p.name == "worker"]
    table = table_with(3, declare_mode="simultaneous")
    service.table_command(table_id=table, command=cmd.StartDeal())  # the dispatcher sends one
    [opened] = events(table, "DeclareOpened")
    duplicate = str(uuid.uuid4())
    for _ in range(2):  # and the same task twice more
        celery_app.send_task(
            EXPIRE_TASK,
            task_id=duplicate,
            eta=deadline_of(opened),
            queue=timers.queue,
            kwargs={"table_id": table, "deal_no": 1, "deadline": opened.data["deadline"]},
        )

    wait_for_events(table, "DealEnded", 1, TIMEOUT + 5)
    assert wait_until(lambda: worker.output().count(f"[{duplicate}] succeeded") == 2, 5)
    after = [e.type for e in events(table) if e.version > opened.version and e.type not in PROGRESS]
    assert Counter(after)["DeclareTimedOut"] == 1
    assert max(Counter(after).values()) == 1, after  # every fact of the ending once
    assert events(table)[-1].type == "DealEnded"


def test_k_consecutive_timeouts_sit_the_players_out(timers: CeleryStack) -> None:
    table = table_with(2, declare_mode="simultaneous", sit_out_after=1)
    service.table_command(table_id=table, command=cmd.StartDeal())
    [timed_out] = wait_for_events(table, "DeclareTimedOut", 1, TIMEOUT + 5)
    sat_out = wait_for_events(table, "PlayerSatOut", 2, 2)
    assert sorted(e.data["player"] for e in sat_out) == sorted(timed_out.data["players"])
    assert {e.data["reason"] for e in sat_out} == {"timeouts"}
    seats = SeatView.objects.filter(table_id=table).values_list("status", flat=True)
    assert sorted(seats) == ["sitting_out", "sitting_out"]  # the seats are kept
