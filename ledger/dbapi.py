"""SQL for the ledger's hot paths, per backend.

On PostgreSQL the statements run on a server-binding psycopg cursor over Django's own connection
(so inside Django's transaction) and pass whole columns as arrays through `unnest`: the query text
stays short and constant, and psycopg does not re-parse a statement with thousands of
placeholders, which Django's client-binding cursor would (that alone cost 80% of a rebuild).
Rebuilds load statement entries with COPY. On SQLite the same statements use multi-row VALUES.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from django.db import connection
from django.utils.dateparse import parse_datetime
from psycopg.types.datetime import TimestamptzLoader

CHUNK = 500  # rows per multi-row VALUES statement on SQLite (it caps bound parameters)
EVENT_COLUMNS = "position, stream, version, type, data, meta, recorded_at, prev_hash, hash"
INSERT_EVENT = ("INSERT INTO ledger_event (stream, version, type, data, meta, recorded_at, prev_hash, hash) ")
INSERT_BALANCE = "INSERT INTO ledger_accountbalance (account, unit, balance) "
ENTRY_COLUMNS = ("account, unit, position, stream, event_type, recorded_at, amount, balance_after, "
                 "counterparty, reason")

EventRow = tuple[str, int, str, str, str, datetime, str, str]   # stream .. hash, data/meta as JSON text
EntryRow = tuple[str, str, int, str, str, datetime, int, int, str, str]


def on_postgres() -> bool:
    return connection.vendor == "postgresql"


@contextmanager
def cursor() -> Iterator[Any]:
    """A cursor in the current transaction: server-binding psycopg on PostgreSQL, Django's elsewhere."""
    if on_postgres():
        connection.ensure_connection()
        with psycopg.Cursor(connection.connection) as raw:
            yield raw
    else:
        with connection.cursor() as django_cursor:
            yield django_cursor


def insert_events(rows: Sequence[EventRow]) -> list[tuple[int, str, int]]:
    """Insert events; return (position, stream, version) for each."""
    if not rows:
        return []
    if on_postgres():
        with cursor() as cur:
            cur.execute(
                INSERT_EVENT + "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], "
                "%s::jsonb[], %s::jsonb[], %s::timestamptz[], %s::varchar[], %s::varchar[]) "
                "RETURNING position, stream, version",
                _columns(rows))
            return cur.fetchall()
    placeholder = "(%s, %s, %s, %s, %s, %s, %s, %s)"
    result = []
    with cursor() as cur:
        for chunk in _chunks(rows):
            params = [value for row in chunk for value in _sqlite_row(row, 5)]
            cur.execute(f"{INSERT_EVENT} VALUES {', '.join([placeholder] * len(chunk))} "
                        "RETURNING position, stream, version", params)
            result += cur.fetchall()
    return result


def add_to_balances(changes: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    """Add each change to its (account, unit) balance, creating rows; return the new balances."""
    upsert = ("ON CONFLICT (account, unit) DO UPDATE SET balance = ledger_accountbalance.balance + "
              "excluded.balance RETURNING account, unit, balance")
    accounts, units = zip(*changes, strict=True)
    with cursor() as cur:
        if on_postgres():
            cur.execute(INSERT_BALANCE + "SELECT * FROM "
                        f"unnest(%s::varchar[], %s::varchar[], %s::bigint[]) {upsert}",
                        [list(accounts), list(units), list(changes.values())])
        else:
            values = ", ".join(["(%s, %s, %s)"] * len(changes))
            params = [item for (account, unit), change in changes.items() for item in (account, unit, change)]
            cur.execute(f"{INSERT_BALANCE} VALUES {values} {upsert}", params)
        return {(account, unit): amount for account, unit, amount in cur.fetchall()}


def insert_entries(rows: Sequence[EntryRow], *, bulk: bool = False) -> None:
    """Insert statement entries; `bulk` (rebuilds) uses COPY on PostgreSQL."""
    with cursor() as cur:
        if on_postgres() and bulk:
            with cur.copy(f"COPY ledger_accountentry ({ENTRY_COLUMNS}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        elif on_postgres():
            cur.execute(
                f"INSERT INTO ledger_accountentry ({ENTRY_COLUMNS}) SELECT * FROM unnest(%s::varchar[], "
                "%s::varchar[], %s::bigint[], %s::varchar[], %s::varchar[], %s::timestamptz[], %s::bigint[], "
                "%s::bigint[], %s::varchar[], %s::text[])", _columns(rows))
        else:
            placeholder = "(" + ", ".join(["%s"] * 10) + ")"
            for chunk in _chunks(rows):
                params = [value for row in chunk for value in _sqlite_row(row, 5)]
                cur.execute(f"INSERT INTO ledger_accountentry ({ENTRY_COLUMNS}) "
                            f"VALUES {', '.join([placeholder] * len(chunk))}", params)


def fetch_events(where: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Event rows `SELECT {EVENT_COLUMNS} FROM ledger_event {where}`, data/meta as dicts, aware times."""
    with cursor() as cur:
        if on_postgres():
            cur.adapters.register_loader("timestamptz", MemoTimestamptzLoader)
        cur.execute(f"SELECT {EVENT_COLUMNS} FROM ledger_event {where}", params)
        rows = cur.fetchall()
    loads = json.loads
    return [(position, stream, version, type_, loads(data) if isinstance(data, str) else data,
             loads(meta) if isinstance(meta, str) else meta, _aware(recorded_at), prev_hash, hash_)
            for position, stream, version, type_, data, meta, recorded_at, prev_hash, hash_ in rows]


class MemoTimestamptzLoader(TimestamptzLoader):
    """Parses each distinct timestamptz text once: every event of one append shares its
    recorded_at, and the general loader was half the cost of reading events."""

    def __init__(self, oid: int, context: Any = None) -> None:
        super().__init__(oid, context)
        self.memo: dict[bytes, datetime] = {}

    def load(self, data: Any) -> datetime:
        key = bytes(data)
        moment = self.memo.get(key)
        if moment is None:
            try:  # PostgreSQL's ISO output, e.g. "2026-11-29 13:55:01.123456+00"
                moment = datetime.fromisoformat(key.decode())
            except ValueError:
                moment = super().load(data)
            self.memo[key] = moment
        return moment


def _aware(value: datetime | str) -> datetime:
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        raise ValueError(f"unreadable recorded_at {value!r}")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows to columns, each a list (psycopg sends a list as an array; a tuple would be a record)."""
    return [list(column) for column in zip(*rows, strict=True)]


def _sqlite_row(row: Sequence[Any], time_index: int) -> list[Any]:
    values = list(row)
    values[time_index] = connection.ops.adapt_datetimefield_value(values[time_index])
    return values


def _chunks(rows: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start:start + CHUNK]
