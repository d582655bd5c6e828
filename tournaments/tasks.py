"""Celery tasks of the tournaments app (DESIGN §2.8, issue 13 items 4-6, 10).

- `tournaments.tick(tournament_id)`: everything due now (the start at its time, a reconcile of the
  tables, the deals whose pause is over). Sent with an ETA for the start time and each next level,
  and at once after every table command that ended a deal of a tournament table.
- `tournaments.start_deal(tournament_id, table_id, after_deal_no)`: sent with eta = the end of the
  pause; starts the deal if it is still scheduled (idempotent: the table's StartDeal after a deal
  number appends nothing twice).
- `tournaments.sweep` (beat, every GUTS_TOURNAMENT_SWEEP_INTERVAL): a tick of every tournament that
  is running or due to start, so a lost task, a dead worker or a crash between a table's commit and
  the reaction delays the reaction by at most one interval.

All of them are safe under duplicate delivery: the reconcile decides nothing twice (per-table
checkpoints in the tournament stream) and the service serialises them per tournament.
"""
from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import timezone

from guts_backend.celery import app as celery_app
from ledger.errors import DomainError
from tables.engine.decider import errors as rules
from tournaments import service
from tournaments.engine import events as ev
from tournaments.engine.config import parse_time
from tournaments.engine.state import TournamentState
from tournaments.models import TournamentView

logger = logging.getLogger(__name__)

TICK_TASK = "tournaments.tick"
START_DEAL_TASK = "tournaments.start_deal"
SWEEP_TASK = "tournaments.sweep"
SWEEP_BATCH = 200
REFUSALS = (DomainError, rules.DomainError)
SOURCE = {"actor": "system", "source": "celery"}


@shared_task(name=TICK_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5)
def tick(tournament_id: str) -> int:
    try:
        return len(service.tournament_tick(tournament_id=tournament_id, meta=SOURCE).events)
    except REFUSALS:
        logger.exception("tournament %s: tick refused", tournament_id)
        return 0


@shared_task(name=START_DEAL_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError, InterfaceError), retry_backoff=0.5, max_retries=5)
def start_deal(tournament_id: str, table_id: str, after_deal_no: int) -> bool:
    try:
        return service.tournament_start_deal(tournament_id=tournament_id, table_id=table_id,
                                             after_deal_no=after_deal_no, meta=SOURCE)
    except REFUSALS:
        logger.exception("tournament %s: the deal after %s at %s did not start", tournament_id,
                         after_deal_no, table_id)
        return False


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> int:
    """A tick of every running tournament and of every one whose start time has passed."""
    now = timezone.now()
    due = (TournamentView.objects.filter(status="running") |
           TournamentView.objects.filter(status="registering", start_at__lte=now))
    done = 0
    for tournament_id in due.order_by("start_at").values_list("tournament_id", flat=True)[:SWEEP_BATCH]:
        try:
            done += len(service.tournament_tick(tournament_id=str(tournament_id), now=timezone.now(),
                                                meta={"actor": "system", "source": "sweeper"}).events)
        except (*REFUSALS, DatabaseError):
            logger.exception("sweeper could not tick tournament %s", tournament_id)
    return done


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
            celery_app.send_task(START_DEAL_TASK, args=[tournament_id, event.table_id, event.after_deal_no],
                                 eta=parse_time(event.at, "at"), queue=queue())
    if any(isinstance(e, ev.TournamentCreated) for e in decided):
        send_tick(tournament_id, parse_time(state.rules.start_at))
    leveled = any(isinstance(e, ev.TournamentStarted | ev.LevelStarted) for e in decided)
    if leveled and state.status == "running" and state.level < len(state.rules.levels):
        send_tick(tournament_id, state.rules.level_start(state.start, state.level + 1))
