"""SQL for the ledger's hot paths, per backend.

On PostgreSQL the statements run on a server-binding psycopg cursor over Django's own connection
(so inside Django's transaction) and pass whole columns as arrays through `unnest`: the query text
stays short and constant, and psycopg does not re-parse a statement with thousands of
placeholders, which Django's client-binding cursor would (that alone cost 80% of a rebuild).
On SQLite the same work is done with multi-row VALUES and a little Python.
"""

from __future__ import annotations

import itertools
import json
import uuid
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, NamedTuple

import psycopg
import psycopg.sql
from django.db import connection
from django.utils.dateparse import parse_datetime
from psycopg import generators, pq
from psycopg.types.datetime import TimestamptzLoader
from psycopg.types.json import Json, Jsonb

from http_edge import roundtrip

CHUNK = 200  # rows per multi-row VALUES statement (SQLite caps bound parameters)
EVENT_COLUMNS = "position, stream, version, type, data, meta, recorded_at, prev_hash, hash"
INSERT_EVENT = "INSERT INTO ledger_event (stream, version, type, data, meta, recorded_at, prev_hash, hash) "
UPSERT_CHECKPOINT = (
    "INSERT INTO ledger_projectioncheckpoint (name, position) {values} "
    "ON CONFLICT (name) DO UPDATE SET position = {position}"
)
ENTRY_COLUMNS = (
    "account, unit, position, stream, event_type, recorded_at, amount, balance_after, counterparty, reason"
)

EventRow = tuple[str, int, str, str, str, datetime, str, str]  # stream .. hash, data/meta as JSON text
# account, unit, signed amount, position, stream, event type, recorded_at, counterparty, reason,
# the event's version (PostgreSQL finds the position from stream and version: a one-message
# append's positions are not known when its projections are written)
Move = tuple[str, str, int, int, str, str, datetime, str, str, int]
Overdraft = tuple[str, str, int, int]  # account, unit, amount (negative), balance_after
Balances = dict[tuple[str, str], int]  # (account, unit) -> balance


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
        psycopg.sql.Literal(lock_class), psycopg.sql.Literal(lock_key), psycopg.sql.Literal(stream)
    )
    version, digest = roundtrip.first_statement(query)
    return int(version), digest


# --- one message: an append, its projections and the COMMIT in one round trip ------------------------


class AppendRefused(Exception):
    """The one-message append found a stream head moved (SQLSTATE GT409): nothing was written."""


class OverdraftRefused(Exception):
    """The one-message balance projection refused a move (SQLSTATE GT402); nothing was written."""

    def __init__(self, account: str, unit: str, amount: int, balance_after: int) -> None:
        super().__init__(f"{account} would hold {balance_after} {unit}")
        self.account, self.unit, self.amount, self.balance_after = account, unit, amount, balance_after


class Message:
    """Statements that go to PostgreSQL as ONE simple-query message, followed by COMMIT (and led by
    the BEGIN when the transaction has not begun): an append (which refuses a moved head by
    raising), its projections, then the commit, in one round trip.
    An error anywhere stops the rest, the COMMIT included, and leaves the transaction aborted (the
    caller's atomic block rolls it back). Each statement is prepared once per connection (its
    PREPARE rides in the first message that uses it; `EXECUTE` with literal arguments after
    that), so the server plans it once, as with the extended protocol; results come back as text."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.preparing: dict[str, str] = {}  # query -> name, prepared by this message
        self.results: list[Any] | None = None  # one per statement sent, a BEGIN's first
        self.begun = 0  # 1 when the message sent the transaction's BEGIN

    def add(self, query: str, params: Sequence[Any]) -> int:
        """Queue a statement; its index, for `rows` after `commit`."""
        known = _prepared.setdefault(connection.connection, {})
        name = known.get(query) or self.preparing.get(query)
        if name is None and len(known) + len(self.preparing) < PREPARED_MAX:
            name = self.preparing[query] = f"guts_{next(_prepared_names)}"
            parts = query.split("%s")
            self.statements.append(
                f"PREPARE {name} AS "
                + parts[0]
                + "".join(f"${number}{part}" for number, part in enumerate(parts[1:], start=1))
            )
        arguments = [literal(value) for value in params]
        if name is None:
            self.statements.append(query % tuple(arguments))
        else:
            call = f"EXECUTE {name}({', '.join(arguments)})" if arguments else f"EXECUTE {name}"
            self.statements.append(call)
        return len(self.statements) - 1

    def commit(self) -> None:
        """Send the statements and COMMIT; raise AppendRefused / OverdraftRefused / psycopg's error."""
        raw = connection.connection
        begin = ["BEGIN"] if raw.pgconn.transaction_status == pq.TransactionStatus.IDLE else []
        self.begun = len(begin)
        with raw.lock:
            raw.pgconn.send_query(";\n".join([*begin, *self.statements, "COMMIT"]).encode())
            results = raw.wait(generators.execute(raw.pgconn))
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                error = psycopg.errors.error_from_result(result, encoding=raw.pgconn._encoding)
                if error.sqlstate == "GT409":
                    raise AppendRefused(str(error)) from error
                if error.sqlstate == "26000":  # its prepared statements are gone (DISCARD ALL)
                    _prepared.pop(raw, None)
                    raise AppendRefused(str(error)) from error
                if error.sqlstate == "GT402":
                    detail = json.loads(error.diag.message_detail or "[]")
                    raise OverdraftRefused(detail[0], detail[1], int(detail[2]), int(detail[3])) from error
                raise error
        _prepared.setdefault(raw, {}).update(self.preparing)
        self.results = results

    def rows(self, index: int) -> list[tuple[str | None, ...]]:
        if self.results is None:
            raise RuntimeError("the message has not been sent")
        result = self.results[index + self.begun]
        return [
            tuple(
                None if (value := result.get_value(row, column)) is None else value.decode()
                for column in range(result.nfields)
            )
            for row in range(result.ntuples)
        ]


PREPARED_MAX = 256  # statements a connection prepares for messages (projections vary in shape)
_prepared: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
_prepared_names = itertools.count(1)


def literal(value: Any) -> str:
    """`value` as an SQL literal (standard_conforming_strings, PostgreSQL's default since 9.1):
    fast for what the command path sends, psycopg's own quoting for anything else."""
    kind = type(value)
    if value is None:
        return "NULL"
    if kind is bool:
        return "true" if value else "false"
    if kind is int or isinstance(value, int):  # Django binds integer fields as psycopg's Int4, ...
        return str(int(value))
    if kind is str:
        if "\x00" in value:
            raise ValueError("text cannot hold NUL")
        return "'" + value.replace("'", "''") + "'"
    if kind is datetime and value.tzinfo is not None:
        return f"'{value.isoformat()}'::timestamptz"
    if kind is uuid.UUID:
        return f"'{value}'"
    if kind is list or kind is tuple:
        return "ARRAY[" + ", ".join(literal(item) for item in value) + "]" if value else "'{}'"
    if isinstance(value, Json | Jsonb):
        return literal(json.dumps(value.obj)) + "::jsonb"
    return psycopg.ClientCursor(connection.connection).mogrify("%s", [value])


_may_commit: ContextVar[bool] = ContextVar("ledger_dbapi_may_commit", default=False)
_collecting: ContextVar[Message | None] = ContextVar("ledger_dbapi_collecting", default=None)


@contextmanager
def commit_with_append() -> Iterator[None]:
    """Around a command's own transaction (`with commit_with_append(): with atomic(): ...`): its
    append may send itself, its projections and the COMMIT as one message (`may_commit`). Only the
    outermost transaction of the connection qualifies, and the append must be the last thing the
    transaction does: Django's commit at the end of the block then has nothing left to send."""
    if not on_postgres() or connection.in_atomic_block:
        yield
        return
    token = _may_commit.set(True)
    try:
        yield
    finally:
        _may_commit.reset(token)


def may_commit_alone() -> bool:
    """A transaction begun now would be its connection's own (PostgreSQL, no atomic block open):
    `commit_with_append` will let its append send the COMMIT."""
    return on_postgres() and not connection.in_atomic_block


def may_commit() -> bool:
    """Inside `commit_with_append`'s transaction itself (no savepoint; begun, or not yet begun:
    the message then sends the BEGIN too)."""
    return (
        _may_commit.get()
        and connection.in_atomic_block
        and all(savepoint is None for savepoint in connection.savepoint_ids)  # None: savepoint=False
        and connection.connection is not None
        and connection.connection.pgconn.transaction_status
        in (pq.TransactionStatus.INTRANS, pq.TransactionStatus.IDLE)
    )


@contextmanager
def collecting(message: Message) -> Iterator[Message]:
    """Statements run through `execute` in the block join `message` instead of running now."""
    token = _collecting.set(message)
    try:
        yield message
    finally:
        _collecting.reset(token)


def is_collecting() -> bool:
    return _collecting.get() is not None


def execute(query: str, params: Sequence[Any]) -> None:
    """Run a statement whose result nobody reads, or queue it on the message being collected."""
    message = _collecting.get()
    if message is not None:
        message.add(query, params)
        return
    with cursor() as cur:
        cur.execute(query, params)


def append_checked_statement(
    heads: Sequence[tuple[str, int, str]], accounts: Sequence[str], rows: Sequence[EventRow], *, refuse: bool
) -> tuple[str, list[Any]]:
    """ledger_append_checked() (migration 0008) and its parameters: lock, check heads, insert."""
    streams, versions, hashes = (list(column) for column in zip(*heads, strict=True))
    columns = _columns(rows)
    return (APPEND_CHECKED, [streams, versions, hashes, list(accounts), *columns, refuse])


APPEND_CHECKED = (
    "SELECT * FROM ledger_append_checked(%s::text[], %s::int[], %s::text[], %s::text[], "
    "%s::text[], %s::int[], %s::text[], %s::text[], %s::text[], %s::timestamptz[], "
    "%s::text[], %s::text[], %s)"
)


def insert_events(rows: Sequence[EventRow]) -> list[tuple[int, str, int]]:
    """Insert events; return (position, stream, version) for each.

    PostgreSQL: plain VALUES for the usual few rows (cheapest to plan), one unnest of column
    arrays for big batches (constant query text, no parameter limit)."""
    if not rows:
        return []
    returning = " RETURNING position, stream, version"
    with cursor() as cur:
        if on_postgres() and len(rows) > CHUNK:
            cur.execute(
                INSERT_EVENT + "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], "
                "%s::jsonb[], %s::jsonb[], %s::timestamptz[], %s::varchar[], %s::varchar[])" + returning,
                _columns(rows),
            )
            return cur.fetchall()
        cast = "::jsonb" if on_postgres() else ""
        placeholder = f"(%s, %s, %s, %s{cast}, %s{cast}, %s, %s, %s)"
        inserted = []
        for chunk in _chunks(rows):
            params = [value for row in chunk for value in _sqlite_row(row, 5)]
            cur.execute(f"{INSERT_EVENT} VALUES {', '.join([placeholder] * len(chunk))}{returning}", params)
            inserted += cur.fetchall()
        return inserted


def append_known(
    heads: Sequence[tuple[str, int, str]], accounts: Sequence[str], rows: Sequence[EventRow]
) -> list[tuple[int, str, int]]:
    """PostgreSQL: ledger_append_checked() (migration 0008) locks the streams and `accounts`,
    checks that each stream's head is (version, hash) and not newer than this transaction, and
    inserts `rows`, in one round trip. [] if a head differs."""
    query, params = append_checked_statement(heads, accounts, rows, refuse=False)
    with cursor() as cur:
        cur.execute(query, params)
        return cur.fetchall()


def save_checkpoints(positions: dict[str, int], *, forward_only: bool = False) -> None:
    """Upsert projection checkpoints (name -> last position seen) in one statement, rows in the
    order given; `forward_only` never moves one back (flushes from several processes race)."""
    if not positions:
        return
    position = (
        "GREATEST(ledger_projectioncheckpoint.position, excluded.position)"
        if forward_only
        else "excluded.position"
    )
    with cursor() as cur:
        if on_postgres():
            values = "SELECT * FROM unnest(%s::varchar[], %s::bigint[]) ORDER BY 1"
            cur.execute(
                UPSERT_CHECKPOINT.format(values=values, position=position),
                [list(positions), list(positions.values())],
            )
        else:
            values = "VALUES " + ", ".join(["(%s, %s)"] * len(positions))
            if forward_only:
                position = "MAX(ledger_projectioncheckpoint.position, excluded.position)"
            cur.execute(
                UPSERT_CHECKPOINT.format(values=values, position=position),
                [item for pair in positions.items() for item in pair],
            )


def apply_moves(
    moves: Sequence[Move], refuse_overdrafts: Sequence[str] | None = None
) -> Callable[[], Applied]:
    """Add signed `moves` to AccountBalance and write one AccountEntry each, in order.

    Returns a function that gives what it did (`Applied`): the outgoing moves that left their
    account below zero, for the caller to hold against the debt policy, and the new balances of
    the moved accounts, which the append hands back to its caller (a cashier answers with them
    instead of reading them again). Call it after the pipeline the statement was sent in (if any)
    has synced, so that the balances and the other projections travel in one round trip.
    `refuse_overdrafts` (PostgreSQL): the statement itself refuses (SQLSTATE GT402) a move that
    leaves one of these accounts below zero, for a one-message append, whose COMMIT goes with it.
    On PostgreSQL this is one statement, the moves passed as one JSON array (psycopg dumps big
    arrays element by element in Python; json.dumps is C): the balances are upserted with each
    account's net change, and each entry's balance_after is the new balance minus the changes
    that follow it in the batch. Inside `collecting` it joins the message (read it after commit).
    """
    if not moves:
        return lambda: Applied([], {})
    if on_postgres():
        params = [
            json.dumps(moves, default=_iso_default),
            refuse_overdrafts is not None,
            list(refuse_overdrafts or ()),
        ]
        message = _collecting.get()
        if message is not None:
            index = message.add(APPLY_MOVES, params)
            return lambda: _applied(message.rows(index))
        connection.ensure_connection()
        cur = psycopg.Cursor(connection.connection)
        cur.execute(APPLY_MOVES, params)

        def applied() -> Applied:
            with cur:
                return _applied(cur.fetchall())

        return applied
    return _sqlite_apply_moves(moves)


def _applied(rows: Sequence[Sequence[Any]]) -> Applied:
    return Applied(
        [
            (account, unit, int(amount), int(balance))
            for account, unit, amount, balance in rows
            if amount is not None
        ],
        {(account, unit): int(balance) for account, unit, amount, balance in rows if amount is None},
    )


def _sqlite_apply_moves(moves: Sequence[Move]) -> Callable[[], Applied]:
    changes: dict[tuple[str, str], int] = {}
    for account, unit, amount, *_ in moves:
        changes[(account, unit)] = changes.get((account, unit), 0) + amount
    running = {key: new - changes[key] for key, new in _sqlite_add_to_balances(changes).items()}
    entries, overdrafts = [], []
    for account, unit, amount, position, stream, event_type, recorded_at, counterparty, reason, _ in moves:
        balance_after = running[(account, unit)] = running[(account, unit)] + amount
        entries.append(
            (
                account,
                unit,
                position,
                stream,
                event_type,
                recorded_at,
                amount,
                balance_after,
                counterparty,
                reason,
            )
        )
        if amount < 0 and balance_after < 0:
            overdrafts.append((account, unit, amount, balance_after))
    placeholder = "(" + ", ".join(["%s"] * 10) + ")"
    with cursor() as cur:
        for chunk in _chunks(entries):
            params = [value for row in chunk for value in _sqlite_row(row, 5)]
            cur.execute(
                f"INSERT INTO ledger_accountentry ({ENTRY_COLUMNS}) "
                f"VALUES {', '.join([placeholder] * len(chunk))}",
                params,
            )
    return lambda: Applied(overdrafts, running)


def _sqlite_add_to_balances(changes: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    values = ", ".join(["(%s, %s, %s)"] * len(changes))
    params = [item for (account, unit), change in changes.items() for item in (account, unit, change)]
    with cursor() as cur:
        cur.execute(
            f"INSERT INTO ledger_accountbalance (account, unit, balance) VALUES {values} "
            "ON CONFLICT (account, unit) DO UPDATE SET balance = ledger_accountbalance.balance + "
            "excluded.balance RETURNING account, unit, balance",
            params,
        )
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
        cur.execute("SET LOCAL work_mem = '256MB'")  # sort the moves in memory, not on disk
        cur.execute(REBUILD_BALANCES)


APPLY_MOVES = f"""
WITH moves AS (
    SELECT m->>0 AS account, m->>1 AS unit, (m->>2)::bigint AS amount,
           (SELECT e.position FROM ledger_event e WHERE e.stream = m->>4 AND e.version = (m->>9)::integer)
               AS position,
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
), refused AS (   -- raises (GT402) for the first move it may not make, when asked to refuse them
    SELECT ledger_refuse_overdraft(account, unit, amount, balance_after) AS never FROM entries
    WHERE %s AND amount < 0 AND balance_after < 0 AND account = ANY(%s::text[])
)   -- the overdrafts in order, then each moved account's new balance (amount NULL)
SELECT account, unit, amount, balance_after FROM (
    SELECT account, unit, amount, balance_after, ord FROM entries WHERE amount < 0 AND balance_after < 0
    UNION ALL
    SELECT account, unit, NULL, balance, NULL FROM balances
    UNION ALL
    SELECT NULL, NULL, NULL, never, NULL FROM refused
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
    return [
        (
            position,
            stream,
            version,
            type_,
            loads(data) if isinstance(data, str) else data,
            loads(meta) if isinstance(meta, str) else meta,
            _aware(recorded_at),
            prev_hash,
            hash_,
        )
        for position, stream, version, type_, data, meta, recorded_at, prev_hash, hash_ in rows
    ]


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
        yield rows[start : start + CHUNK]
