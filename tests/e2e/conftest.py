"""Fixtures for the end-to-end timer tests: real Celery workers and beat on the test's database.

The subprocesses use the test database itself (its real name, from the connection), so tests that
use them are transactional (`django_db(transaction=True)`): the worker must see what the test
commits, and the test what the worker commits. Each `CeleryStack` has a queue of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from tests.e2e.processes import (
    BEAT_READY,
    WORKER_READY,
    Process,
    celery_env,
    forget_queue,
    start_beat,
    start_worker,
    unique_queue,
)


def broker_is_redis() -> bool:
    return settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))


def worker_database_url() -> str:
    """DATABASE_URL naming the database this test process really uses (test_<name>[_gwN])."""
    parts = urlsplit(settings.DATABASE_URL)
    return urlunsplit(parts._replace(path=f"/{connection.settings_dict['NAME']}"))


class CeleryStack:
    """Workers and beat for one queue of their own; `close()` stops every process it started."""

    def __init__(self, log_dir: Path) -> None:
        self.queue = unique_queue()
        self.log_dir = log_dir
        self.env = celery_env(
            database_url=worker_database_url(), broker_url=settings.CELERY_BROKER_URL, queue=self.queue
        )
        self.processes: list[Process] = []

    def start(self, *workers: str, beat: bool = False) -> list[Process]:
        """Start the named workers (and beat) together and wait until all are ready."""
        started = [start_worker(self.env, self.log_dir, name=name) for name in workers]
        if beat:
            started.append(start_beat(self.env, self.log_dir))
        self.processes += started
        for process in started:
            process.wait_for(BEAT_READY if process.name == "beat" else WORKER_READY)
        return started

    def close(self) -> None:
        for process in self.processes:
            process.stop()
        forget_queue(settings.CELERY_BROKER_URL, self.queue)


def require_redis() -> None:
    if not broker_is_redis():
        pytest.skip("needs Redis: set CELERY_BROKER_URL=redis://...")


@pytest.fixture(scope="module")
def shared_stack(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CeleryStack]:
    """One worker and beat for a module's tests (starting them costs seconds on a busy machine)."""
    require_redis()
    stack = CeleryStack(tmp_path_factory.mktemp("celery"))
    try:
        stack.start("worker", beat=True)
        yield stack
    finally:
        stack.close()


@pytest.fixture
def timers(shared_stack: CeleryStack, settings: Any) -> CeleryStack:
    """The shared stack, with this test's timers sent to its queue."""
    settings.CELERY_TASK_DEFAULT_QUEUE = shared_stack.queue
    return shared_stack


@pytest.fixture
def celery_stack(settings: Any, tmp_path: Path) -> Iterator[CeleryStack]:
    """A stack of this test's own (nothing started yet), for tests that kill processes."""
    require_redis()
    stack = CeleryStack(tmp_path)
    settings.CELERY_TASK_DEFAULT_QUEUE = stack.queue
    try:
        yield stack
    finally:
        stack.close()


@pytest.fixture
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
