"""Shared test set-up: PostgreSQL-only tests are skipped elsewhere, and required in CI."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.conf import settings


def on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


# On PostgreSQL, Django flushes the database after transactional tests with TRUNCATE, which the
# event table's trigger rejects unless the session sets `ledger.allow_truncate = on` (ledger
# migration 0002). Every test connection sets it; the trigger tests turn it off to prove the guard.
TRUNCATE_OPTION = "-c ledger.allow_truncate=on"


def pytest_configure(config: pytest.Config) -> None:
    # With DEBUG off (the default) requests are redirected to HTTPS; the test client speaks HTTP.
    settings.SECURE_SSL_REDIRECT = False
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.postgresql":
        options = database.setdefault("OPTIONS", {})
        if TRUNCATE_OPTION not in options.get("options", ""):
            options["options"] = f"{options.get('options', '')} {TRUNCATE_OPTION}".strip()


def purge_test_queue(config: pytest.Config) -> None:
    """`make test` sends the timers of committed test deals to its own queue (GUTS_CELERY_QUEUE),
    which no worker consumes; empty it around the run so nothing piles up in the broker."""
    queue = os.environ.get("GUTS_CELERY_QUEUE", "")
    if hasattr(config, "workerinput") or not queue.startswith("guts-test"):
        return
    from kombu.exceptions import OperationalError

    from guts_backend.celery import app

    try:
        with app.connection_for_write() as connection:
            connection.default_channel.queue_purge(queue)
    except (OSError, OperationalError) as error:  # no broker: nothing to purge
        print(f"could not purge {queue}: {error}")


def pytest_sessionstart(session: pytest.Session) -> None:
    purge_test_queue(session.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    purge_test_queue(session.config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if on_postgres():
        return
    if os.environ.get("GUTS_REQUIRE_SERVICES") == "1":
        raise pytest.UsageError("GUTS_REQUIRE_SERVICES=1 but DATABASE_URL is not PostgreSQL")
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def close_notify_publisher() -> Iterator[None]:
    """Committed appends wake live readers from a background connection (ledger.notify); close it
    after each test so it never holds the test database open when pytest-django drops it."""
    yield
    from ledger.notify import close_publisher

    close_publisher()


@pytest.fixture(autouse=True)
def forget_noted_checkpoints() -> None:
    """The inline projectors note their checkpoints in process memory (ledger.projections), which
    a test's rollback does not undo: a position noted by one test must not be written into the
    next, whose event positions may have restarted (reset sequences)."""
    from ledger.projections import _checkpoints

    _checkpoints.forget()
