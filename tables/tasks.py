"""Celery tasks of the tables app: the declare timer and the overdue sweeper (DESIGN §2.8).

Both submit the ordinary `ExpireDeclare` through the application service with `now` from the
worker's clock. The decider appends nothing unless that deal's turn/window is open and overdue,
and the service serialises commands per table, so a duplicate delivery, a retry, or a sweep racing
the timer all end in exactly one `DeclareTimedOut` (hence `acks_late` is safe: a task lost with its
worker is redelivered, and running it twice is harmless).

Early delivery (a clock behind the scheduler's, or a broker redelivering an ETA task before its
time) re-schedules the task for its deadline rather than waiting for the sweeper: the timeout then
lands on time instead of up to one sweep interval late.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import Task, shared_task
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone

from ledger.errors import ConcurrencyConflict, DomainError
from tables import service
from tables.engine.decider import errors as rules
from tables.errors import UnknownTable
from tables.timers import EXPIRE_TASK, SWEEP_TASK, Deadline, overdue_deadlines, schedule_expiry

logger = logging.getLogger(__name__)

CLASH_RETRY_SECONDS = 0.05


def expire(timer: Deadline, *, now: datetime, source: str) -> int:
    """Submit ExpireDeclare for `timer` at `now`; the number of table events appended (0: the turn
    or window had already closed, or is not yet due). A table that does not exist (a message from
    another database, a flushed test run) is logged and dropped."""
    try:
        result = service.deal_expire(
            table_id=timer.table_id,
            deal_no=timer.deal_no,
            now=now,
            meta={"actor": "system", "source": source},
        )
    except UnknownTable:
        logger.warning("timeout for unknown table %s dropped", timer.table_id)
        return 0
    if result.events:
        late_ms = (now - timer.due).total_seconds() * 1000
        logger.info(
            "%s timed out table %s deal %s, %.0f ms after its deadline",
            source,
            timer.table_id,
            timer.deal_no,
            late_ms,
        )
    return len(result.events)


@shared_task(
    bind=True,
    name=EXPIRE_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    retry_backoff_max=5,
    max_retries=5,
)
def expire_declare(self: Task, table_id: str, deal_no: int, deadline: str) -> int:
    """Time out the turn/window of `deal_no` that opened with `deadline` (sent with eta=deadline)."""
    timer = Deadline(table_id, deal_no, deadline)
    now = timezone.now()
    if now < timer.due:
        schedule_expiry(timer)
        return 0
    try:
        return expire(timer, now=now, source="timer")
    except ConcurrencyConflict as clash:
        raise self.retry(exc=clash, countdown=CLASH_RETRY_SECONDS) from clash


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_overdue_declares() -> int:
    """Beat, every GUTS_SWEEP_INTERVAL: time out every overdue turn/window the projection shows, so a
    lost task or a dead worker delays a timeout by at most one interval; returns how many it timed
    out. One table's failure is logged and does not stop the sweep; the next sweep retries it."""
    expired = 0
    for timer in overdue_deadlines(timezone.now()):
        try:
            expired += bool(expire(timer, now=timezone.now(), source="sweeper"))
        except (DomainError, rules.DomainError, DatabaseError):
            logger.exception("sweeper could not time out table %s deal %s", timer.table_id, timer.deal_no)
    return expired
