"""The Celery app. Configuration comes from Django settings under the CELERY_ namespace.

Above INFO (`--loglevel=WARNING`, what `make run` uses unless `GUTS_CELERY_LOG_LEVEL` says
otherwise) Celery says nothing when the worker is ready or beat starts; those two lines are printed
anyway, as Celery would log them, so a supervisor (`manage.py serve`, the end-to-end tests) can tell
the processes are up.

Once a worker (or a pool process of it) has started, everything loaded so far is frozen out of the
garbage collector's scans, as the web server does (guts_backend.asgi): a full collection would
otherwise walk Django's objects again, some 100 ms, every few hundred tasks.
"""

import gc
import logging
import os
from typing import Any

from celery import Celery
from celery.signals import beat_init, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guts_backend.settings")

app = Celery("guts_backend")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The apps send tasks through `celery.current_app` (and their `shared_task`s resolve through it),
# never importing this module; current_app is per thread, so this app is every thread's default.
app.set_default()
app.autodiscover_tasks()


def _quiet(logger: str) -> bool:
    """Whether Celery's own INFO line from `logger` is not shown (the process's log level)."""
    return logging.getLogger(logger).getEffectiveLevel() > logging.INFO


@worker_ready.connect
def _say_worker_ready(sender: Any = None, **kwargs: Any) -> None:
    if _quiet("celery.apps.worker"):
        print(f"{getattr(sender, 'hostname', 'celery')} ready.", flush=True)


@worker_process_init.connect
@worker_ready.connect
def _freeze_start_up(**kwargs: Any) -> None:
    gc.collect()
    gc.freeze()


@beat_init.connect
def _say_beat_starting(sender: Any = None, **kwargs: Any) -> None:
    if _quiet("celery.beat"):
        print("beat: Starting...", flush=True)
