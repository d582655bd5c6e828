"""A worker killed while it holds a timer (DESIGN §2.8): the sweeper, not the lost task, applies
the timeout, within one sweep interval of a new worker starting. Redis would hand the killed
worker's ETA task back only after `visibility_timeout`.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from tables import service
from tables.engine.decider import commands as cmd
from tables.timers import EXPIRE_TASK
from tests.e2e.conftest import CeleryStack
from tests.e2e.helpers import MARGIN, TIMEOUT, deadline_of, events, table_with, wait_for_events

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-worker-loss"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]


def test_a_killed_worker_is_covered_by_the_sweeper_within_one_interval(celery_stack: CeleryStack) -> None:
    [first, _] = celery_stack.start("doomed", beat=True)
    table = table_with(2, declare_mode="simultaneous")
    service.table_command(table_id=table, command=cmd.StartDeal())
    [opened] = events(table, "DeclareOpened")
    first.wait_for(f"Task {EXPIRE_TASK}[", timeout=TIMEOUT)  # the worker holds the ETA task
    first.kill()  # before the deadline

    time.sleep((deadline_of(opened) - timezone.now()).total_seconds() + 0.5)
    assert events(table, "DeclareTimedOut") == []  # nobody left to fire it
    celery_stack.start("replacement")
    ready = timezone.now()

    [timed_out] = wait_for_events(table, "DeclareTimedOut", 1, settings.GUTS_SWEEP_INTERVAL + 5)
    assert timed_out.meta["source"] == "sweeper"
    assert timed_out.recorded_at <= ready + timedelta(seconds=settings.GUTS_SWEEP_INTERVAL) + MARGIN
