"""The web server's pool checks a connection without a query per request (guts_backend.dbpool):
a connection that recently worked and whose socket is quiet is handed out as is; one the
database terminated is found dead before any request uses it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from guts_backend import dbpool

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def raw() -> Iterator[psycopg.Connection]:
    params = connection.get_connection_params()
    conn = psycopg.connect(**{**params, "autocommit": True})
    yield conn
    conn.close()


@pytest.fixture
def queries(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    sent: list[Any] = []
    real = dbpool.ConnectionPool.check_connection

    def counting(conn: Any) -> None:
        sent.append(conn)
        real(conn)

    monkeypatch.setattr(dbpool.ConnectionPool, "check_connection", staticmethod(counting))
    return sent


def test_a_healthy_connection_is_queried_once_then_handed_out_without_a_query(
    raw: psycopg.Connection, queries: list[Any]
) -> None:
    for _ in range(5):
        dbpool.check_connection(raw)
    assert len(queries) == 1  # its first checkout only


def test_a_terminated_connection_is_found_dead_before_use(
    raw: psycopg.Connection, queries: list[Any]
) -> None:
    dbpool.check_connection(raw)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [raw.info.backend_pid])
    deadline = time.monotonic() + 5
    with pytest.raises(psycopg.Error):  # noqa: PT012 - the socket says so within moments
        while time.monotonic() < deadline:
            dbpool.check_connection(raw)
            time.sleep(0.01)
    assert len(queries) == 2


def test_a_long_idle_connection_is_queried(
    raw: psycopg.Connection, queries: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    dbpool.check_connection(raw)
    monkeypatch.setattr(dbpool, "IDLE_CHECK_SECONDS", 0.0)
    time.sleep(0.01)
    dbpool.check_connection(raw)
    assert len(queries) == 2
