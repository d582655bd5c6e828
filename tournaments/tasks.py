"""Celery tasks of the tournaments app (DESIGN §2.8 items 4-6, 10).

- `tournaments.tick(tournament_id)`: everything due now (the start at its time, a reconcile of the
  tables, the deals whose pause is over). Sent with an ETA for the start time and each next level,
  and at once after every table command that ended a deal of a tournament table.
- `tournaments.start_deal(tournament_id, table_id, after_deal_no)`: sent with eta = the end of the
  pause; starts the deal if it is still scheduled (idempotent: the table's StartDeal after a deal
  number appends nothing twice).
- `tournaments.sweep` (beat, every GUTS_TOURNAMENT_SWEEP_INTERVAL): a tick of every tournament that
  is running, being cancelled or due to start, so a lost task, a dead worker or a crash between a
  table's commit and the reaction delays the reaction by at most one interval. A tournament whose
  tick fails is recorded as failing (TournamentTickHealth, in the admin) and tried after the others.

All of them are safe under duplicate delivery: the reconcile decides nothing twice (per-table
checkpoints in the tournament stream) and the service serialises them per tournament.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from celery import current_app as celery_app
from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.db.models import F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ledger.errors import DomainError
from tables.engine.decider import errors as rules
from tournaments import service
from tournaments.engine import events as ev
from tournaments.engine.config import parse_time
from tournaments.engine.state import TournamentState
from tournaments.models import TournamentTickHealth, TournamentView

logger = logging.getLogger(__name__)

TICK_TASK = "tournaments.tick"
START_DEAL_TASK = "tournaments.start_deal"
SWEEP_TASK = "tournaments.sweep"
SWEPT = ("running", "cancelling")  # ticked every sweep (and "registering" once due)
REFUSALS = (DomainError, rules.DomainError)
SOURCE = {"actor": "system", "source": "celery"}


@shared_task(
    name=TICK_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    max_retries=5,
)
def tick(tournament_id: str) -> int:
    try:
        return len(service.tournament_tick(tournament_id=tournament_id, meta=SOURCE).events)
    except REFUSALS:
        logger.exception("tournament %s: tick refused", tournament_id)
        return 0


@shared_task(
    name=START_DEAL_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    max_retries=5,
)
def start_deal(tournament_id: str, table_id: str, after_deal_no: int) -> bool:
    try:
        return service.tournament_start_deal(
            tournament_id=tournament_id, table_id=table_id, after_deal_no=after_deal_no, meta=SOURCE
        )
    except REFUSALS:
        logger.exception(
            "tournament %s: the deal after %s at %s did not start", tournament_id, after_deal_no, table_id
        )
        return False


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> int:
    """A tick of every running (or cancelling) tournament and of every one whose start time has
    passed, at most GUTS_TOURNAMENT_SWEEP_BATCH a sweep. Healthy tournaments first, the least
    recently tried first: tournaments whose ticks keep failing never starve the others, and one
    failure never stops the sweep (it is logged and recorded in TournamentTickHealth, which staff
    see in the admin)."""
    done = 0
    for tournament_id in due_tournaments(timezone.now()):
        done += sweep_one(str(tournament_id))
    return done


def due_tournaments(now: datetime) -> list[str]:
    health = TournamentTickHealth.objects.filter(tournament_id=OuterRef("tournament_id"))
    due = TournamentView.objects.filter(Q(status__in=SWEPT) | Q(status="registering", start_at__lte=now))
    due = due.annotate(
        failures=Coalesce(Subquery(health.values("consecutive_failures")[:1]), 0),
        tried=Subquery(health.values("last_attempt_at")[:1]),
    )
    ordered = due.order_by("failures", F("tried").asc(nulls_first=True), "start_at", "tournament_id")
    batch = settings.GUTS_TOURNAMENT_SWEEP_BATCH
    return [str(t) for t in ordered.values_list("tournament_id", flat=True)[:batch]]


def sweep_one(tournament_id: str) -> int:
    """One tournament's tick for the sweeper: the events it appended (0 if it failed)."""
    try:
        events = service.tournament_tick(
            tournament_id=tournament_id, now=timezone.now(), meta={"actor": "system", "source": "sweeper"}
        ).events
    except Exception as error:  # whatever it is: the next tournaments are still ticked
        logger.exception("sweeper could not tick tournament %s", tournament_id)
        record_tick(tournament_id, error=error)
        return 0
    record_tick(tournament_id, error=None)
    return len(events)


def describe(error: Exception) -> str:
    """A refusal by its code and message; anything else by its type and message."""
    code = getattr(error, "code", None)
    return (f"{code}: {error}" if isinstance(code, str) else repr(error))[:500]


def record_tick(tournament_id: str, *, error: Exception | None) -> None:
    """Keep the tick's outcome (best effort: with the database down there is nothing to keep)."""
    now = timezone.now()
    if error is None:
        changes: dict[str, Any] = {
            "consecutive_failures": 0,
            "failing_since": None,
            "last_error": "",
            "last_success_at": now,
        }
    else:
        changes = {
            "consecutive_failures": F("consecutive_failures") + 1,
            "last_error": describe(error),
            "failing_since": Coalesce(F("failing_since"), Value(now)),
        }
    try:
        rows = TournamentTickHealth.objects.filter(tournament_id=tournament_id)
        if not rows.update(last_attempt_at=now, **changes):
            first = {
                **changes,
                "consecutive_failures": 0 if error is None else 1,
                "failing_since": None if error is None else now,
            }
            TournamentTickHealth.objects.get_or_create(
                tournament_id=tournament_id, defaults={"last_attempt_at": now, **first}
            )
    except DatabaseError:
        logger.exception("could not record the tick of tournament %s", tournament_id)


# --- sending ------------------------------------------------------------------------------------------


def queue() -> str:
    return settings.CELERY_TASK_DEFAULT_QUEUE


def send_tick(tournament_id: str, eta: datetime | None = None) -> None:
    celery_app.send_task(TICK_TASK, args=[tournament_id], eta=eta, queue=queue())


def schedule_after_commit(tournament_id: str, decided: list[ev.Event], state: TournamentState) -> None:
    """After a tournament transaction: the scheduled deals at their time, the start, the next level."""
    if not settings.GUTS_TOURNAMENT_TASKS:
        return
    for event in decided:
        if isinstance(event, ev.DealScheduled):
            celery_app.send_task(
                START_DEAL_TASK,
                args=[tournament_id, event.table_id, event.after_deal_no],
                eta=parse_time(event.at, "at"),
                queue=queue(),
            )
    if any(isinstance(e, ev.TournamentCreated) for e in decided):
        send_tick(tournament_id, parse_time(state.rules.start_at))
    leveled = any(isinstance(e, ev.TournamentStarted | ev.LevelStarted) for e in decided)
    if leveled and state.status == "running" and state.level < len(state.rules.levels):
        send_tick(tournament_id, state.rules.level_start(state.start, state.level + 1))
