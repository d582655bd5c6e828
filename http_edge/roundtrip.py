"""PostgreSQL: a transaction's first statement in the same round trip as its BEGIN.

Two hot paths open their transaction with one locking read: the event store's lock and stream head
(`ledger.dbapi.lock_head`) and the claim of an Idempotency-Key (`http_edge.idempotency`). It
lives here, below both, because the edge imports none of the apps.
"""

from __future__ import annotations

from typing import Any

import psycopg
import psycopg.sql
from django.db import connection
from psycopg import generators, pq


def first_statement(query: psycopg.sql.Composable) -> tuple[Any, ...]:
    """The one row of `query`, sent together with the transaction's BEGIN when the transaction
    has not started yet (one round trip instead of two).

    psycopg sends BEGIN on its own before the first statement of a transaction and waits for it.
    Here "BEGIN; <query>" goes as one simple-protocol message (parameters inlined as literals);
    psycopg reads the server's transaction status afterwards, so it sends no BEGIN of its own and
    COMMIT/ROLLBACK work as usual; the values come back as text (NULL as None), so queries cast
    what they return to text. Inside a started transaction it is a plain statement."""
    connection.ensure_connection()
    raw = connection.connection
    if raw.autocommit or raw.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        with psycopg.Cursor(raw) as cur:
            cur.execute(query)
            return cur.fetchone()
    with raw.lock:
        raw.pgconn.send_query(b"BEGIN; " + query.as_bytes(raw))
        results = raw.wait(generators.execute(raw.pgconn))
    for result in results:
        if result.status == pq.ExecStatus.FATAL_ERROR:
            raise psycopg.errors.error_from_result(result, encoding=raw.pgconn._encoding)
    rows = results[-1]
    values = (rows.get_value(0, column) for column in range(rows.nfields))
    return tuple(None if value is None else value.decode() for value in values)
