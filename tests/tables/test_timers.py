"""Declare timers without a worker (DESIGN §2.8): the timer's command path with an explicit clock,
scheduling on commit (the message really lands in the configured broker with its ETA), early
delivery, and the sweeper's read of the projection. Timing with a real worker: tests/e2e/.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from guts_backend.celery import app as celery_app
from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.program import parse_iso
from tables.models import TableView
from tables.state import table_stream
from tables.tasks import expire, expire_declare, sweep_overdue_declares
from tables.timers import EXPIRE_TASK, Deadline, deadlines_opened, overdue_deadlines
from tests.e2e.processes import forget_queue, unique_queue

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TIMEOUT = 30


def later(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def table_with(players: list[int], *, now: datetime = T0, **options: Any) -> str:
    options = {"ante": 10, "declare_timeout": TIMEOUT, **options}
    table = service.table_open(variant="guts2", options=options, now=now).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 500), now=now)
    return table


def event_types(table: str) -> list[str]:
    return [e.type for e in read_stream(table_stream(table))]


def open_deadline(table: str) -> Deadline:
    """The deadline of the latest DeclareOpened of the table."""
    opened = [e for e in read_stream(table_stream(table)) if e.type == "DeclareOpened"][-1]
    return Deadline(table, opened.data["deal_no"], opened.data["deadline"])


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def three(funded_player: Callable[..., int]) -> list[int]:
    return [funded_player() for _ in range(3)]


@pytest.fixture
def timer_queue(settings: Any) -> Iterator[str]:
    """A queue of this test's own on the configured broker (no worker consumes it)."""
    settings.CELERY_TASK_DEFAULT_QUEUE = unique_queue()
    yield settings.CELERY_TASK_DEFAULT_QUEUE
    if settings.CELERY_BROKER_URL.startswith("redis"):
        forget_queue(settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE)


def queued(queue: str) -> list[Any]:
    """Take every message now in `queue` (acknowledged: the queue is left empty)."""
    messages = []
    with celery_app.connection_for_read() as connection:
        inbox = connection.SimpleQueue(queue)
        try:
            while True:
                message = inbox.get(timeout=0.5)
                message.ack()
                messages.append(message)
        except inbox.Empty:
            return messages
        finally:
            inbox.close()


# --- the timer's command path with an explicit clock ------------------------------------------------

def test_expiry_before_the_deadline_appends_nothing(three: list[int]) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    timer = open_deadline(table)
    assert timer.due == later(TIMEOUT)
    before = event_types(table)
    assert expire(timer, now=later(TIMEOUT - 0.001), source="timer") == 0
    assert event_types(table) == before


def test_expiry_at_the_deadline_times_the_turn_out_and_opens_the_next(three: list[int]) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    first = open_deadline(table)
    assert expire(first, now=later(TIMEOUT), source="timer") == 2
    timed_out, opened = read_stream(table_stream(table))[-2:]
    assert (timed_out.type, timed_out.data["effect"], timed_out.meta["source"]) == \
        ("DeclareTimedOut", "out", "timer")
    assert timed_out.data["players"] == first_turn_players(table)
    assert opened.type == "DeclareOpened"
    assert parse_iso(opened.data["deadline"]) == later(2 * TIMEOUT)      # the next turn's own clock


def first_turn_players(table: str) -> list[str]:
    return next(e.data["players"] for e in read_stream(table_stream(table)) if e.type == "DeclareOpened")


def test_repeated_expiry_of_the_same_deadline_appends_once(three: list[int]) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    timer = open_deadline(table)
    appended = [expire(timer, now=later(TIMEOUT + k), source="timer") for k in range(3)]
    assert appended == [2, 0, 0]
    assert event_types(table).count("DeclareTimedOut") == 1


def test_expiry_after_the_window_closed_appends_nothing(three: list[int]) -> None:
    table = table_with(three, declare_mode="simultaneous")
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    timer = open_deadline(table)
    for player in three:
        service.table_command(table_id=table, command=cmd.Declare(str(player), 1, "out"), now=later(1))
    before = event_types(table)
    assert "DealEnded" in before
    assert expire(timer, now=later(TIMEOUT + 1), source="timer") == 0
    assert event_types(table) == before


def test_simultaneous_window_times_out_everyone_silent(three: list[int]) -> None:
    table = table_with(three, declare_mode="simultaneous")
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    service.table_command(table_id=table, command=cmd.Declare(str(three[0]), 1, "in"), now=later(1))
    expire(open_deadline(table), now=later(TIMEOUT), source="timer")
    timed_out = next(e for e in read_stream(table_stream(table)) if e.type == "DeclareTimedOut")
    assert sorted(timed_out.data["players"]) == sorted(str(p) for p in three[1:])


def test_an_unknown_table_is_dropped() -> None:
    ghost = Deadline("6f1c0c52-0000-4000-8000-000000000000", 1, "2026-11-29T12:00:30.000000Z")
    assert expire(ghost, now=later(TIMEOUT), source="timer") == 0


# --- scheduling on commit, early delivery ---------------------------------------------------------

def test_deadlines_opened_names_each_turn_and_window(three: list[int]) -> None:
    table = table_with(three)
    started = service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    assert deadlines_opened(table, started.events) == [open_deadline(table)]
    assert deadlines_opened(table, []) == []


def test_a_committed_window_sends_its_expiry_with_the_deadline_as_eta(
        three: list[int], timer_queue: str, django_capture_on_commit_callbacks: Any) -> None:
    table = table_with(three)
    with django_capture_on_commit_callbacks(execute=True):
        service.table_command(table_id=table, command=cmd.StartDeal())
    [message] = queued(timer_queue)
    timer = open_deadline(table)
    assert message.headers["task"] == EXPIRE_TASK
    assert parse_iso(message.headers["eta"]) == timer.due
    assert message.payload[1] == {"table_id": table, "deal_no": 1, "deadline": timer.deadline}


def test_a_rolled_back_window_sends_nothing(
        three: list[int], timer_queue: str, django_capture_on_commit_callbacks: Any) -> None:
    table = table_with(three)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                service.table_command(table_id=table, command=cmd.StartDeal())
                raise RuntimeError("the outer transaction fails")
        except RuntimeError:
            pass
    assert callbacks == []
    assert queued(timer_queue) == []
    assert "DeclareOpened" not in event_types(table)


def test_early_delivery_reschedules_for_the_deadline_and_appends_nothing(
        three: list[int], timer_queue: str) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal())      # real clock: due in TIMEOUT s
    timer = open_deadline(table)
    before = event_types(table)
    assert expire_declare(table_id=table, deal_no=1, deadline=timer.deadline) == 0
    assert event_types(table) == before
    [message] = queued(timer_queue)
    assert parse_iso(message.headers["eta"]) == timer.due


# --- the sweeper ------------------------------------------------------------------------------------

def test_the_projection_shows_the_deadline_the_sweeper_reads(three: list[int]) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    timer = open_deadline(table)
    assert TableView.objects.get(table_id=table).deadline == timer.due
    assert overdue_deadlines(later(TIMEOUT - 1)) == []
    [overdue] = overdue_deadlines(later(TIMEOUT))
    assert (overdue.table_id, overdue.deal_no, overdue.due) == (table, 1, timer.due)


def test_the_sweeper_times_out_overdue_windows_only(three: list[int], funded_player: Callable) -> None:
    past = timezone.now() - timedelta(seconds=2 * TIMEOUT)
    overdue = table_with(three, now=past, declare_mode="simultaneous")
    service.table_command(table_id=overdue, command=cmd.StartDeal(), now=past)
    waiting = table_with([funded_player(), funded_player()])
    service.table_command(table_id=waiting, command=cmd.StartDeal())
    assert sweep_overdue_declares() == 1
    timed_out = next(e for e in read_stream(table_stream(overdue)) if e.type == "DeclareTimedOut")
    assert timed_out.meta["source"] == "sweeper"
    assert sorted(timed_out.data["players"]) == sorted(str(p) for p in three)
    assert "DeclareTimedOut" not in event_types(waiting)
    assert sweep_overdue_declares() == 0                     # the window closed: nothing twice
    assert event_types(overdue).count("DeclareTimedOut") == 1


def test_settings_schedule_the_sweeper_every_interval() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-overdue-declares"]
    assert entry["task"] == sweep_overdue_declares.name
    assert entry["schedule"] == settings.GUTS_SWEEP_INTERVAL
    assert entry["options"]["expires"] == settings.GUTS_SWEEP_INTERVAL
