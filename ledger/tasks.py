"""Celery tasks of the ledger: dispute expiry and periodic checkpoints.

Dispute expiry follows the timers' pattern (docs/timers.md): the deadline lives in a projection
(`Dispute.deadline`), beat's dispatcher (every GUTS_DISPUTE_SWEEP_INTERVAL) reads the overdue ones
and sends one `ledger.expire_dispute` each, and that task runs the idempotent `dispute_expire`
command: a duplicate delivery, a retry or a dispute decided meanwhile appends nothing.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from celery import current_app as celery_app
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from ledger.checkpoints import checkpoint_publish
from ledger.disputes.selectors import overdue_disputes
from ledger.disputes.service import dispute_expire
from ledger.errors import ConcurrencyConflict, UnknownDispute

logger = logging.getLogger(__name__)

EXPIRE_TASK = "ledger.expire_dispute"
DISPATCH_TASK = "ledger.dispatch_dispute_expiries"
CHECKPOINT_TASK = "ledger.publish_checkpoint"


@shared_task(
    bind=True,
    name=EXPIRE_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=0.5,
    max_retries=5,
)
def expire_dispute(self: Task, dispute_id: str) -> int:
    """Close the dispute if it is open and due (its hold voided); 0 if there was nothing to do."""
    try:
        return dispute_expire(
            dispute_id=dispute_id, now=timezone.now(), meta={"actor": "system", "source": "timer"}
        )
    except UnknownDispute:
        logger.warning("expiry of unknown dispute %s dropped", dispute_id)
        return 0
    except ConcurrencyConflict as clash:
        raise self.retry(exc=clash, countdown=0.05) from clash


@shared_task(name=DISPATCH_TASK, ignore_result=True)
def dispatch_dispute_expiries() -> int:
    """Beat: send the expiry of every open dispute past its deadline; how many were sent."""
    due = overdue_disputes(timezone.now())
    for dispute_id in due:
        celery_app.send_task(
            EXPIRE_TASK, kwargs={"dispute_id": dispute_id}, queue=settings.CELERY_TASK_DEFAULT_QUEUE
        )
    return len(due)


@shared_task(name=CHECKPOINT_TASK, ignore_result=True)
def publish_checkpoint() -> int:
    """Beat, every GUTS_CHECKPOINT_INTERVAL: a checkpoint if the log grew; its number."""
    checkpoint = checkpoint_publish(now=timezone.now(), meta={"actor": "system", "source": "beat"})
    return checkpoint["number"] if checkpoint else 0
