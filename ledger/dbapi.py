"""SQL for the ledger's hot paths, per backend.

On PostgreSQL the statements run on a server-binding psycopg cursor over Django's own connection
(so inside Django's transaction) and pass whole columns as arrays through `unnest`: the query text
stays short and constant, and psycopg does not re-parse a statement with thousands of
placeholders, which Django's client-binding cursor would (that alone cost 80% of a rebuild).
On SQLite the same work is done with multi-row VALUES and a little Python.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple

import psycopg
import psycopg.sql
from django.db import connection
from django.utils.dateparse import parse_datetime
from psycopg import generators, pq
from psycopg.types.datetime import TimestamptzLoader

CHUNK = 200  # rows per multi-row VALUES statement (SQLite caps bound parameters)
EVENT_COLUMNS = "position, stream, version, type, data, meta, recorded_at, prev_hash, hash"
INSERT_EVENT = ("INSERT INTO ledger_event (stream, version, type, data, meta, recorded_at, prev_hash, hash) ")
UPSERT_CHECKPOINT = ("INSERT INTO ledger_projectioncheckpoint (name, position) {values} "
                     "ON CONFLICT (name) DO UPDATE SET position = {position}")
ENTRY_COLUMNS = ("account, unit, position, stream, event_type, recorded_at, amount, balance_after, "
                 "counterparty, reason")

EventRow = tuple[str, int, str, str, str, datetime, str, str]   # stream .. hash, data/meta as JSON text
# account, unit, signed amount, position, stream, event type, recorded_at, counterparty, reason
Move = tuple[str, str, int, int, str, str, datetime, str, str]
Overdraft = tuple[str, str, int, int]   # account, unit, amount (negative), balance_after
Balances = dict[tuple[str, str], int]   # (account, unit) -> balance


class Applied(NamedTuple):
    """What `apply_moves` did: the outgoing moves that left their account below zero, in order,
    and the balance each moved account was left with."""

    overdrafts: list[Overdraft]
    balances: Balances


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


@contextmanager
def pipeline() -> Iterator[None]:
    """PostgreSQL: send the statements of the block together, one round trip for all of them
    (psycopg's pipeline mode; a fetch inside the block waits only for what was sent before it).
    Elsewhere: nothing changes."""
    if not on_postgres():
        yield
        return
    connection.ensure_connection()
    with connection.connection.pipeline():
        yield


def lock_head(lock_class: int, lock_key: int, stream: str) -> tuple[int, str]:
    """PostgreSQL: take the advisory lock (lock_class, lock_key) and read `stream`'s head
    (version, hash; 0 and '' for a new stream) with ledger_lock_head() (migration 0005), in one
    round trip, the transaction's BEGIN included when this is its first statement."""
    query = psycopg.sql.SQL("SELECT * FROM ledger_lock_head({}, {}, {})").format(
        psycopg.sql.Literal(lock_class), psycopg.sql.Literal(lock_key), psycopg.sql.Literal(stream))
    version, digest = first_statement(query)
    return int(version), digest


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
        with cursor() as cur:
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


def insert_events(rows: Sequence[EventRow]) -> list[tuple[int, str, int]]:
    """Insert events; return (position, stream, version) for each.

    PostgreSQL: plain VALUES for the usual few rows (cheapest to plan), one unnest of column
    arrays for big batches (constant query text, no parameter limit)."""
    if not rows:
        return []
    returning = " RETURNING position, stream, version"
    with cursor() as cur:
        if on_postgres() and len(rows) > CHUNK:
            cur.execute(INSERT_EVENT + "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], "
                        "%s::jsonb[], %s::jsonb[], %s::timestamptz[], %s::varchar[], %s::varchar[])"
                        + returning, _columns(rows))
            return cur.fetchall()
        cast = "::jsonb" if on_postgres() else ""
        placeholder = f"(%s, %s, %s, %s{cast}, %s{cast}, %s, %s, %s)"
        inserted = []
        for chunk in _chunks(rows):
            params = [value for row in chunk for value in _sqlite_row(row, 5)]
            cur.execute(f"{INSERT_EVENT} VALUES {', '.join([placeholder] * len(chunk))}{returning}", params)
            inserted += cur.fetchall()
        return inserted


def append_known(heads: Sequence[tuple[str, int, str]], accounts: Sequence[str],
                 rows: Sequence[EventRow]) -> list[tuple[int, str, int]]:
    """PostgreSQL: ledger_append_known() (migration 0004) locks `accounts`, checks that each
    stream's head is (version, hash) and not newer than this transaction, and inserts `rows`, in
    one round trip. [] if a head differs."""
    events = json.dumps(rows, default=_iso_default, ensure_ascii=False)
    with cursor() as cur:
        cur.execute("SELECT * FROM ledger_append_known(%s::json, %s::text[], %s::json)",
                    [json.dumps(heads, ensure_ascii=False), list(accounts), events])
        return cur.fetchall()


def save_checkpoints(positions: dict[str, int], *, forward_only: bool = False) -> None:
    """Upsert projection checkpoints (name -> last position seen) in one statement, rows in the
    order given; `forward_only` never moves one back (flushes from several processes race)."""
    if not positions:
        return
    position = ("GREATEST(ledger_projectioncheckpoint.position, excluded.position)" if forward_only
                else "excluded.position")
    with cursor() as cur:
        if on_postgres():
            values = "SELECT * FROM unnest(%s::varchar[], %s::bigint[]) ORDER BY 1"
            cur.execute(UPSERT_CHECKPOINT.format(values=values, position=position),
                        [list(positions), list(positions.values())])
        else:
            values = "VALUES " + ", ".join(["(%s, %s)"] * len(positions))
            if forward_only:
                position = "MAX(ledger_projectioncheckpoint.position, excluded.position)"
            cur.execute(UPSERT_CHECKPOINT.format(values=values, position=position),
                        [item for pair in positions.items() for item in pair])


def apply_moves(moves: Sequence[Move]) -> Callable[[], Applied]:
    """Add signed `moves` to AccountBalance and write one AccountEntry each, in order.

    Returns a function that gives what it did (`Applied`): the outgoing moves that left their
    account below zero, for the caller to hold against the debt policy, and the new balances of
    the moved accounts, which the append hands back to its caller (a cashier answers with them
    instead of reading them again). Call it after the pipeline the statement was sent in (if any)
    has synced, so that the balances, the other projections and the checkpoints travel in one
    round trip.
    On PostgreSQL this is one statement, the moves passed as one JSON array (psycopg dumps big
    arrays element by element in Python; json.dumps is C): the balances are upserted with each
    account's net change, and each entry's balance_after is the new balance minus the changes
    that follow it in the batch.
    """
    if not moves:
        return lambda: Applied([], {})
    if on_postgres():
        connection.ensure_connection()
        cur = psycopg.Cursor(connection.connection)
        cur.execute(APPLY_MOVES, [json.dumps(moves, default=_iso_default)])

        def applied() -> Applied:
            with cur:
                rows = cur.fetchall()
            return Applied([(account, unit, amount, balance) for account, unit, amount, balance in rows
                            if amount is not None],
                           {(account, unit): balance for account, unit, amount, balance in rows
                            if amount is None})
        return applied
    return _sqlite_apply_moves(moves)


def _sqlite_apply_moves(moves: Sequence[Move]) -> Callable[[], Applied]:
    changes: dict[tuple[str, str], int] = {}
    for account, unit, amount, *_ in moves:
        changes[(account, unit)] = changes.get((account, unit), 0) + amount
    running = {key: new - changes[key] for key, new in _sqlite_add_to_balances(changes).items()}
    entries, overdrafts = [], []
    for account, unit, amount, position, stream, event_type, recorded_at, counterparty, reason in moves:
        balance_after = running[(account, unit)] = running[(account, unit)] + amount
        entries.append((account, unit, position, stream, event_type, recorded_at, amount, balance_after,
                        counterparty, reason))
        if amount < 0 and balance_after < 0:
            overdrafts.append((account, unit, amount, balance_after))
    placeholder = "(" + ", ".join(["%s"] * 10) + ")"
    with cursor() as cur:
        for chunk in _chunks(entries):
            params = [value for row in chunk for value in _sqlite_row(row, 5)]
            cur.execute(f"INSERT INTO ledger_accountentry ({ENTRY_COLUMNS}) "
                        f"VALUES {', '.join([placeholder] * len(chunk))}", params)
    return lambda: Applied(overdrafts, running)


def _sqlite_add_to_balances(changes: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    values = ", ".join(["(%s, %s, %s)"] * len(changes))
    params = [item for (account, unit), change in changes.items() for item in (account, unit, change)]
    with cursor() as cur:
        cur.execute(f"INSERT INTO ledger_accountbalance (account, unit, balance) VALUES {values} "
                    "ON CONFLICT (account, unit) DO UPDATE SET balance = ledger_accountbalance.balance + "
                    "excluded.balance RETURNING account, unit, balance", params)
        return {(account, unit): amount for account, unit, amount in cur.fetchall()}


REBUILD_BALANCES = f"""
WITH moves AS (
    SELECT e.position, e.stream, e.type AS event_type, e.recorded_at, t.ord, s.side,
           CASE WHEN s.side = 0 THEN t.m->>'from' ELSE t.m->>'to' END AS account,
           CASE WHEN s.side = 0 THEN t.m->>'to' ELSE t.m->>'from' END AS counterparty,
           (CASE WHEN s.side = 0 THEN -1 ELSE 1 END * (t.m->>'amount')::bigint) AS amount,
           COALESCE(t.m->>'unit', 'chips') AS unit, t.m->>'reason' AS reason
    FROM ledger_event e
    CROSS JOIN LATERAL jsonb_array_elements(e.data->'transfers') WITH ORDINALITY AS t(m, ord)
    CROSS JOIN (VALUES (0), (1)) AS s(side)
    WHERE jsonb_typeof(e.data->'transfers') = 'array'
), entries AS (
    SELECT m.*, sum(m.amount) OVER (PARTITION BY m.account, m.unit ORDER BY m.position, m.ord, m.side)::bigint
           AS balance_after
    FROM moves m
), inserted AS (
    INSERT INTO ledger_accountentry ({ENTRY_COLUMNS})
    SELECT {ENTRY_COLUMNS} FROM entries ORDER BY position, ord, side
)
INSERT INTO ledger_accountbalance (account, unit, balance)
SELECT account, unit, sum(amount)::bigint FROM moves GROUP BY account, unit
"""


def rebuild_balances() -> None:
    """Every balance and statement line from the whole log in one statement (PostgreSQL): the
    same moves, order and running balances as `apply_moves` gives event by event."""
    with cursor() as cur:
        cur.execute("SET LOCAL work_mem = '256MB'")      # sort the moves in memory, not on disk
        cur.execute(REBUILD_BALANCES)


APPLY_MOVES = f"""
WITH moves AS (
    SELECT m->>0 AS account, m->>1 AS unit, (m->>2)::bigint AS amount, (m->>3)::bigint AS position,
           m->>4 AS stream, m->>5 AS event_type, (m->>6)::timestamptz AS recorded_at,
           m->>7 AS counterparty, m->>8 AS reason, ord
    FROM json_array_elements(%s::json) WITH ORDINALITY AS j(m, ord)
), balances AS (
    INSERT INTO ledger_accountbalance (account, unit, balance)
    SELECT account, unit, sum(amount)::bigint FROM moves GROUP BY account, unit
    ON CONFLICT (account, unit) DO UPDATE SET balance = ledger_accountbalance.balance + excluded.balance
    RETURNING account, unit, balance
), entries AS (
    SELECT m.*, (b.balance - sum(m.amount) OVER whole + sum(m.amount) OVER upto)::bigint AS balance_after
    FROM moves m JOIN balances b USING (account, unit)
    WINDOW whole AS (PARTITION BY m.account, m.unit),
           upto AS (PARTITION BY m.account, m.unit ORDER BY m.ord)
), inserted AS (
    INSERT INTO ledger_accountentry ({ENTRY_COLUMNS})
    SELECT {ENTRY_COLUMNS} FROM entries ORDER BY ord
)   -- the overdrafts in order, then each moved account's new balance (amount NULL)
SELECT account, unit, amount, balance_after FROM (
    SELECT account, unit, amount, balance_after, ord FROM entries WHERE amount < 0 AND balance_after < 0
    UNION ALL
    SELECT account, unit, NULL, balance, NULL FROM balances
) AS answer ORDER BY ord
"""


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


def _iso_default(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"not JSON serialisable: {value!r}")


def _columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """Rows to columns, each a list (psycopg sends a list as an array; a tuple would be a record)."""
    return [list(column) for column in zip(*rows, strict=True)]


def _sqlite_row(row: Sequence[Any], time_index: int) -> Sequence[Any]:
    """SQLite stores datetimes as text; PostgreSQL takes them as they are."""
    if on_postgres():
        return row
    values = list(row)
    values[time_index] = connection.ops.adapt_datetimefield_value(values[time_index])
    return values


def _chunks(rows: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start:start + CHUNK]
