"""Declare timers without a worker (DESIGN §2.8): the timer's command path with an explicit clock,
the dispatcher's ticks (the message really lands in the configured broker with its ETA, once, and
nothing is sent on the request path), early delivery, and the sweeper's read of the projection.
Timing with a real worker and beat: tests/e2e/.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from guts_backend.celery import app as celery_app
from ledger.store import read_stream
from tables import service, timers
from tables.engine.decider import commands as cmd
from tables.engine.decider.program import parse_iso
from tables.models import TableView
from tables.state import table_stream
from tables.tasks import expire, expire_declare, sweep_overdue_declares
from tables.timers import EXPIRE_TASK, Deadline, Dispatcher, overdue_deadlines
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
    assert (timed_out.type, timed_out.data["effect"], timed_out.meta["source"]) == (
        "DeclareTimedOut",
        "out",
        "timer",
    )
    assert timed_out.data["players"] == first_turn_players(table)
    assert opened.type == "DeclareOpened"
    assert parse_iso(opened.data["deadline"]) == later(2 * TIMEOUT)  # the next turn's own clock


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


# --- the dispatcher, early delivery ----------------------------------------------------------------


def dispatcher() -> Dispatcher:
    return Dispatcher(lookahead=timedelta(seconds=2), catch_up=timedelta(seconds=2))


def test_the_request_path_sends_nothing(
    three: list[int], timer_queue: str, django_capture_on_commit_callbacks: Any
) -> None:
    table = table_with(three)
    with django_capture_on_commit_callbacks(execute=True):
        service.table_command(table_id=table, command=cmd.StartDeal())
    assert queued(timer_queue) == []
    assert TableView.objects.get(table_id=table).deadline == open_deadline(table).due


def test_a_window_is_sent_once_with_its_deadline_as_eta_when_it_comes_within_the_lookahead(
    three: list[int], timer_queue: str
) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    timer, ticks = open_deadline(table), dispatcher()
    assert ticks.tick(later(TIMEOUT - 2.5)) == 0
    assert ticks.tick(later(TIMEOUT - 1.5)) == 1
    assert ticks.tick(later(TIMEOUT - 1)) == 0
    [message] = queued(timer_queue)
    assert message.headers["task"] == EXPIRE_TASK
    assert parse_iso(message.headers["eta"]) == timer.due
    kwargs = message.payload[1]
    assert (kwargs["table_id"], kwargs["deal_no"], parse_iso(kwargs["deadline"])) == (table, 1, timer.due)


def test_one_tick_sends_every_window_due_and_then_each_next_turn(
    three: list[int], funded_player: Callable[..., int], timer_queue: str
) -> None:
    sequential = table_with(three)
    simultaneous = table_with([funded_player(), funded_player()], declare_mode="simultaneous")
    for table in (sequential, simultaneous):
        service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    ticks = dispatcher()
    assert ticks.tick(later(TIMEOUT - 1)) == 2
    assert sorted(m.payload[1]["table_id"] for m in queued(timer_queue)) == sorted([sequential, simultaneous])
    expire(open_deadline(sequential), now=later(TIMEOUT), source="timer")  # the next turn opens
    assert ticks.tick(later(2 * TIMEOUT - 1)) == 1
    [message] = queued(timer_queue)
    assert parse_iso(message.headers["eta"]) == later(2 * TIMEOUT) == open_deadline(sequential).due


def test_a_rolled_back_or_closed_window_is_never_sent(three: list[int], timer_queue: str) -> None:
    rolled_back = table_with(three[:2])
    try:
        with transaction.atomic():
            service.table_command(table_id=rolled_back, command=cmd.StartDeal(), now=T0)
            raise RuntimeError("the outer transaction fails")
    except RuntimeError:
        pass
    closed = table_with(three, declare_mode="simultaneous")
    service.table_command(table_id=closed, command=cmd.StartDeal(), now=T0)
    for player in three:
        service.table_command(table_id=closed, command=cmd.Declare(str(player), 1, "out"), now=later(1))
    assert dispatcher().tick(later(TIMEOUT - 1)) == 0
    assert queued(timer_queue) == []


def test_a_window_just_overdue_is_sent_at_once_older_ones_are_the_sweepers(
    three: list[int], timer_queue: str
) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    assert dispatcher().tick(later(TIMEOUT + 3)) == 0  # a new beat, long after: the sweeper's
    assert dispatcher().tick(later(TIMEOUT + 1)) == 1  # a new beat, just after: fires at once
    assert len(queued(timer_queue)) == 1


def test_a_send_the_broker_refuses_is_retried_on_the_next_tick(
    three: list[int], timer_queue: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal(), now=T0)
    send = timers.schedule_expiries

    def refuse_once(deadlines: list[Deadline]) -> None:
        monkeypatch.setattr(timers, "schedule_expiries", send)
        raise OperationalError("broker down")

    monkeypatch.setattr(timers, "schedule_expiries", refuse_once)
    ticks = dispatcher()
    with pytest.raises(OperationalError):
        ticks.tick(later(TIMEOUT - 1))
    assert ticks.tick(later(TIMEOUT - 0.75)) == 1
    assert len(queued(timer_queue)) == 1


def test_the_dispatcher_outlives_failing_ticks_and_logs_each_outage_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    stop, outcomes = threading.Event(), iter([OSError("down"), OSError("down"), 0, OSError("down"), 0])

    def tick(self: Dispatcher, now: datetime) -> int:
        outcome = next(outcomes, None)
        if outcome is None:
            stop.set()
            return 0
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(Dispatcher, "tick", tick)
    caplog.set_level(logging.INFO, logger="tables.timers")
    runner = threading.Thread(target=dispatcher().run, args=(stop, 0.001))
    runner.start()
    runner.join(5)
    assert not runner.is_alive()
    messages = [record.getMessage() for record in caplog.records]
    assert sum("tick failed" in m for m in messages) == 2
    assert sum("ticking again" in m for m in messages) == 2


def test_early_delivery_reschedules_for_the_deadline_and_appends_nothing(
    three: list[int], timer_queue: str
) -> None:
    table = table_with(three)
    service.table_command(table_id=table, command=cmd.StartDeal())  # real clock: due in TIMEOUT s
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
    assert sweep_overdue_declares() == 0  # the window closed: nothing twice
    assert event_types(overdue).count("DeclareTimedOut") == 1


def test_settings_dispatch_each_window_before_the_smallest_timeout_runs_out() -> None:
    assert 0 < settings.GUTS_TIMER_DISPATCH_INTERVAL < 0.5  # declare_timeout >= 1 s
    assert settings.GUTS_TIMER_LOOKAHEAD >= 1 + settings.GUTS_TIMER_DISPATCH_INTERVAL


def test_settings_schedule_the_sweeper_every_interval() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-overdue-declares"]
    assert entry["task"] == sweep_overdue_declares.name
    assert entry["schedule"] == settings.GUTS_SWEEP_INTERVAL
    assert entry["options"]["expires"] == settings.GUTS_SWEEP_INTERVAL
