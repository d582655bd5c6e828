"""Declare timers: each open turn/window's expiry reaches a worker in time (DESIGN §2.8).

Nothing happens on the request path: a command that opens a window commits its deadline to
`TableView.deadline` (the projection, written in the command's own transaction) and is done. The
dispatcher, a thread of the Celery beat process, reads the projection every
GUTS_TIMER_DISPATCH_INTERVAL seconds and sends one `tables.expire_declare` task with
`eta=deadline` for each window due within GUTS_TIMER_LOOKAHEAD seconds that it has not sent yet
(a tick's tasks in one publish batch); a worker holds the task until the deadline (tables.tasks).
The sweeper (beat, every GUTS_SWEEP_INTERVAL) times out whatever is overdue, whatever became of
its task. A rolled-back window never reaches the projection, so it never fires; a web process
that dies after its commit loses nothing. Worst cases: docs/timers.md.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from celery import current_app as celery_app
from celery.signals import beat_init
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from tables.engine.decider.program import parse_iso
from tables.models import TableView

logger = logging.getLogger(__name__)

EXPIRE_TASK = "tables.expire_declare"
SWEEP_TASK = "tables.sweep_overdue_declares"
SWEEP_BATCH = 500  # overdue windows one sweep handles; the next sweep takes the rest
DISPATCH_BATCH = 2_000  # upcoming windows one dispatcher tick reads; the next tick takes the rest


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the open turn/window of a deal must be timed out (`deadline`: an ISO string)."""

    table_id: str
    deal_no: int
    deadline: str

    @property
    def due(self) -> datetime:
        return parse_iso(self.deadline)


# --- reading the projection ---------------------------------------------------------------------------


def deadlines_between(after: datetime | None, until: datetime, limit: int) -> list[Deadline]:
    """The open turns/windows due in (after, until], soonest first (`TableView.deadline` is null
    when nothing is awaited; it is not indexed, so commands update the row in place)."""
    windows = TableView.objects.filter(deadline__lte=until, status="open")
    if after is not None:
        windows = windows.filter(deadline__gt=after)
    rows = windows.order_by("deadline").values_list("table_id", "deal_no", "deadline")[:limit]
    return [Deadline(str(table_id), deal_no, due.isoformat()) for table_id, deal_no, due in rows]


def overdue_deadlines(now: datetime, limit: int = SWEEP_BATCH) -> list[Deadline]:
    """The open turns/windows whose deadline has passed at `now`, oldest first (the sweeper's read)."""
    return deadlines_between(None, now, limit)


# --- sending the expiry tasks -------------------------------------------------------------------------


def timer_queue() -> str:
    """Read at send time, so a test can give itself a queue no other worker consumes."""
    return settings.CELERY_TASK_DEFAULT_QUEUE


def schedule_expiry(deadline: Deadline, producer: Any = None) -> None:
    """Send the expiry task for `deadline`; it waits in a worker until then (acks_late, idempotent)."""
    celery_app.send_task(
        EXPIRE_TASK,
        kwargs={"table_id": deadline.table_id, "deal_no": deadline.deal_no, "deadline": deadline.deadline},
        eta=deadline.due,
        queue=timer_queue(),
        producer=producer,
    )


def schedule_expiries(deadlines: list[Deadline]) -> None:
    """Send the expiry tasks of `deadlines` through one producer, as one publish batch where kombu
    has them (>= 5.7 on Redis: one pipeline, about a third of the CPU of sending one by one)."""
    with celery_app.producer_or_acquire() as producer:
        batch = getattr(producer, "batch", None)
        with batch(max_size=max(len(deadlines), 1)) if batch else contextlib.nullcontext():
            for deadline in deadlines:
                schedule_expiry(deadline, producer)


# --- the dispatcher ---------------------------------------------------------------------------------


@dataclass
class Dispatcher:
    """Sends the expiry of every window due within `lookahead` once, tick after tick.

    `sent` is what the last successful tick found upcoming (all of it sent by then), so it stays as
    small as the window. A window already overdue by up to `catch_up` (a beat that has just
    started) is still sent, to fire at once; older ones are the sweeper's. A restarted dispatcher
    sends its window again: the duplicates are harmless (the expiry is idempotent).
    """

    lookahead: timedelta
    catch_up: timedelta
    sent: set[Deadline] = field(default_factory=set)

    def tick(self, now: datetime) -> int:
        """Send the tasks not sent yet; how many. If sending fails, nothing counts as sent and the
        next tick tries again."""
        upcoming = deadlines_between(now - self.catch_up, now + self.lookahead, DISPATCH_BATCH)
        fresh = [deadline for deadline in upcoming if deadline not in self.sent]
        if fresh:
            schedule_expiries(fresh)
        self.sent = set(upcoming)
        return len(fresh)

    def run(self, stop: threading.Event, interval: float) -> None:
        """Tick every `interval` seconds until `stop` is set. A failed tick (database or broker
        down) is logged once per outage and retried; meanwhile the sweeper covers what falls due."""
        failing = False
        while not stop.is_set():
            started = time.monotonic()
            try:
                close_old_connections()  # a thread outside requests: as a request would
                self.tick(timezone.now())
            except Exception:  # the thread must outlive any outage
                if not failing:
                    logger.exception("timer dispatcher: tick failed; retrying every %s s", interval)
                failing = True
            else:
                if failing:
                    logger.info("timer dispatcher: ticking again")
                failing = False
            stop.wait(max(0.0, interval - (time.monotonic() - started)))


def start_dispatcher(**_: Any) -> threading.Thread:
    """On beat_init: run the dispatcher as a daemon thread of the beat process (there is one beat
    per deployment; it already runs the sweeper)."""
    dispatcher = Dispatcher(
        lookahead=timedelta(seconds=settings.GUTS_TIMER_LOOKAHEAD),
        catch_up=timedelta(seconds=settings.GUTS_SWEEP_INTERVAL),
    )
    thread = threading.Thread(
        target=dispatcher.run,
        name="timer-dispatcher",
        daemon=True,
        args=(threading.Event(), settings.GUTS_TIMER_DISPATCH_INTERVAL),
    )
    thread.start()
    logger.info(
        "timer dispatcher: every %s s, %s s ahead",
        settings.GUTS_TIMER_DISPATCH_INTERVAL,
        settings.GUTS_TIMER_LOOKAHEAD,
    )
    return thread


def register_timers() -> None:
    """Called from the tables app's ready(): start the dispatcher if this process becomes beat."""
    beat_init.connect(start_dispatcher, weak=False, dispatch_uid="tables.timers.start_dispatcher")
