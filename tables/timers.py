"""Declare timers: schedule the expiry of every turn/window a command opened (DESIGN §2.8).

`schedule_deadlines` is registered with the service's after-commit hook, so a Celery task is sent
only for a `DeclareOpened` that committed (a rolled-back window never fires). The task carries the
deadline and is sent with `eta=deadline`; the worker holds it until then and submits
`ExpireDeclare` (tables.tasks). If sending fails (broker down), the request still succeeds: the
sweeper finds the overdue window in `TableView` within one sweep interval.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from kombu.exceptions import OperationalError

from guts_backend.celery import app as celery_app
from ledger.store import StoredEvent
from tables.engine.decider import events as ev
from tables.engine.decider.program import parse_iso
from tables.models import TableView

logger = logging.getLogger(__name__)

EXPIRE_TASK = "tables.expire_declare"
SWEEP_TASK = "tables.sweep_overdue_declares"
SWEEP_BATCH = 500           # overdue windows one sweep handles; the next sweep takes the rest


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the open turn/window of a deal must be timed out (`deadline`: the event's ISO string)."""

    table_id: str
    deal_no: int
    deadline: str

    @property
    def due(self) -> datetime:
        return parse_iso(self.deadline)


WINDOWS_WITH_DEADLINES = frozenset({ev.DECLARE_OPENED, ev.PASS_OPENED})   # AO-06 passes time out too


def deadlines_opened(table_id: str, events: list[StoredEvent]) -> list[Deadline]:
    """The deadlines of the turns and windows these events opened, in order."""
    return [Deadline(table_id, event.data["deal_no"], event.data["deadline"])
            for event in events if event.type in WINDOWS_WITH_DEADLINES and event.data.get("deadline")]


def timer_queue() -> str:
    """Read at send time, so a test can give itself a queue no other worker consumes."""
    return settings.CELERY_TASK_DEFAULT_QUEUE


def schedule_expiry(deadline: Deadline) -> None:
    """Send the expiry task for `deadline`; it waits in a worker until then (acks_late, idempotent)."""
    celery_app.send_task(EXPIRE_TASK, kwargs={"table_id": deadline.table_id, "deal_no": deadline.deal_no,
                                               "deadline": deadline.deadline},
                          eta=deadline.due, queue=timer_queue())


def schedule_deadlines(table_id: str, events: list[StoredEvent]) -> None:
    """The after-commit hook: one expiry task per deadline opened. Never raises into the request,
    which has committed: a deadline that could not be sent is left to the sweeper."""
    for deadline in deadlines_opened(table_id, events):
        try:
            schedule_expiry(deadline)
        except OperationalError:
            logger.exception("could not schedule the timeout of table %s deal %s at %s; the sweeper "
                             "will apply it", deadline.table_id, deadline.deal_no, deadline.deadline)


def overdue_deadlines(now: datetime, limit: int = SWEEP_BATCH) -> list[Deadline]:
    """The open turns/windows whose deadline has passed at `now`, oldest first (the sweeper's read;
    `TableView.deadline` is indexed and null when nothing is awaited)."""
    rows = (TableView.objects.filter(deadline__lte=now, status="open").order_by("deadline")
            .values_list("table_id", "deal_no", "deadline")[:limit])
    return [Deadline(str(table_id), deal_no, due.isoformat()) for table_id, deal_no, due in rows]


def register_timers() -> None:
    """Called from the tables app's ready(): schedule timers after every committed command."""
    from tables.service import register_after_commit

    register_after_commit(schedule_deadlines)
