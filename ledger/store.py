"""The event store: append to streams with optimistic concurrency, read streams and the log.

Ordering guarantee (DESIGN §2.3). Positions are handed out at INSERT time, but transactions
commit in any order: a reader that followed positions could see 11 before 10 commits and skip 10
forever. Appends are NOT serialised by a global lock (that capped the whole system at one commit
at a time). Instead (migration 0004, the watermark technique of Emmett, made exact):

* Each event records the transaction that wrote it (`tx_id`). A reader of the whole log
  (`read_all`, the audit feed) takes only events of transactions older than every transaction
  still in flight (`ledger_watermark`: the reading statement's snapshot's xmin, ignoring those of
  other databases of the cluster), ordered by
  `(tx_id, position)`: below that watermark nothing can appear any more, so what it reads is
  final, gapless and in a stable order. Its cursor is still a position: `after=P` continues after
  the event at P in that order.
* A stream's versions are written one transaction after another (an append must find the previous
  head committed). The append also refuses, as a version clash that the caller retries in a new
  transaction, to write after a head whose transaction is newer than its own, so a stream's
  events are in `tx_id` order as well as in version and position order: a reader of one stream
  simply follows positions, and the global order keeps every stream's order.
* The streams an append writes and the accounts it moves chips on are locked before its heads are
  checked (advisory locks held to commit, taken in sorted order): writers of one stream queue,
  and an account's statement lines are in position order with its balance. Appends to other
  streams and accounts go on in parallel.
* SQLite serialises writers at BEGIN (`transaction_mode=IMMEDIATE`), so positions are commit order.

Callers keep transactions short: a long transaction holds the watermark back for every reader of
the whole log (never for the readers of one stream).

Round trips (PostgreSQL). Hashes are computed in Python, so the head hash of each stream must be
known before the insert. When it is (a new stream's is 64 zeros; otherwise this process saw the
head commit, through an append or a read), `ledger_append_checked()` takes those locks, confirms
each head's version, hash and transaction and inserts, in one round trip; and when the append is
the last thing of its connection's own transaction (`dbapi.commit_with_append`: a command's), the
append, every inline projection and the COMMIT go as one message (`_append_and_commit`), so a
command costs that one round trip after its lock. Otherwise `ledger_append_begin()` locks and
reads the heads, then the insert follows. Money events add one statement for balances and
statement lines (in the same message or pipeline as the other projections).

Concurrency: every write names the version its caller saw; a mismatch raises ConcurrencyError
(the service reloads, re-decides and retries). The (stream, version) unique constraint is the
last line of defence and is reported the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger import dbapi, inline, notify, registry
from ledger.accounts import InvalidTransfer, transfers_of
from ledger.dbapi import Balances
from ledger.hashing import (
    GENESIS_HASH,
    SALT_KEY,
    SECRET_KEY,
    InvalidEventData,
    canonical_json,
    chain_form,
    check_json_value,
    event_hash,
    new_salt,
    seal,
)
from ledger.money import InsufficientFunds

MAX_ACCOUNT, MAX_UNIT = 200, 100  # column widths of account and unit names


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append. `data` is plain JSON: int, str, bool, None, list, dict (no floats).

    `secret` names the top-level keys of `data` that some reader may not see yet: the store seals
    them with a fresh salt, and the hash chain covers their salted commitments (ledger.hashing)."""

    type: str
    data: dict[str, Any]
    secret: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StreamWrite:
    """Events for one stream, and the version the caller saw (0: the stream must be new)."""

    stream: str
    expected_version: int
    events: Sequence[NewEvent]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    position: int
    stream: str
    version: int
    type: str
    data: dict[str, Any]
    meta: dict[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str


class ConcurrencyError(Exception):
    """The stream is not at the version the caller expected."""

    code = "concurrency_conflict"

    def __init__(self, stream: str, expected: int, actual: int | None) -> None:
        found = "unknown (a concurrent append won)" if actual is None else str(actual)
        super().__init__(f"stream {stream!r} expected at version {expected}, found {found}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


class InvalidAppend(ValueError):
    code = "invalid_append"


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A new event, validated and serialised before any database work."""

    stream: str
    type: str
    data: dict[str, Any]
    data_json: str
    chain_json: str  # what the hash covers: data_json unless the event seals facts
    meta: dict[str, Any]
    meta_json: str


# --- append ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Appended:
    """What an append wrote: the stored events in order, and the balance each account they moved
    chips on was left with, `(account, unit) -> balance`, as the inline projection computed it in
    the append's transaction (so a command can answer with it without reading it again)."""

    events: list[StoredEvent]
    balances: Balances


def append(
    writes: Sequence[StreamWrite], *, meta: Mapping[str, Any] | None = None, savepoint: bool = True
) -> list[StoredEvent]:
    """Append to one or several streams in ONE transaction, checking each expected version.

    Joins the caller's transaction.atomic block if there is one, runs the inline projectors in the
    same transaction and returns the stored events in order (`append_with_balances` also returns
    the balances they left). Nested, it takes a savepoint, so a failed append leaves the caller's
    transaction usable; a caller that retries its whole transaction anyway (the command services)
    passes `savepoint=False` and saves the two SAVEPOINT/RELEASE round trips. A version clash
    (ConcurrencyError) found before anything was written never marks the caller's transaction for
    rollback, savepoint or not: the caller may re-read the stream and try again in it.
    Invalid events (floats, bad transfers, ...) raise before anything touches the database.
    """
    return append_with_balances(writes, meta=meta, savepoint=savepoint).events


def append_with_balances(
    writes: Sequence[StreamWrite], *, meta: Mapping[str, Any] | None = None, savepoint: bool = True
) -> Appended:
    """`append`, returning the stored events and the balances they left on the accounts they moved."""
    prepared = _prepare(writes, meta or {})
    with transaction.atomic(savepoint=savepoint):
        outcome = _write(writes, prepared)
    if isinstance(outcome, ConcurrencyError):
        raise outcome  # out here: raised through the block, it would mark a savepoint-less
        # caller's transaction for rollback, although nothing was written
    return outcome


def _write(writes: Sequence[StreamWrite], prepared: list[_Prepared]) -> Appended | ConcurrencyError:
    """Insert and project the events, or return the version clash found before anything was written."""
    if dbapi.may_commit():
        committed = _append_and_commit(writes, prepared)
        if committed is not None:
            return committed
    stored = _append_in_one_trip(writes, prepared) if dbapi.on_postgres() else None
    if stored is None:
        stored = _append_after_reading_heads(writes, prepared)
        if isinstance(stored, ConcurrencyError):
            return stored
    balances = inline.run_inline(stored)
    _remember_on_commit(stored)
    notify.publish_on_commit({event.stream for event in stored})
    return Appended(stored, balances)


def _append_after_reading_heads(
    writes: Sequence[StreamWrite], prepared: list[_Prepared]
) -> list[StoredEvent] | ConcurrencyError:
    """The general path: lock and read the heads, check the versions, insert. A clash is returned,
    not raised: nothing is written yet (`append_with_balances` raises it outside its block)."""
    heads, newer = _lock_and_read_heads([write.stream for write in writes], _accounts(prepared))
    for write in writes:
        actual = heads.get(write.stream, (0, GENESIS_HASH))[0]
        if actual != write.expected_version:
            return ConcurrencyError(write.stream, write.expected_version, actual)
        if write.stream in newer:  # written by a newer transaction: retry in a new one
            return ConcurrencyError(write.stream, write.expected_version, None)
    now = timezone.now()
    rows = _chain(prepared, heads, now)
    return _stored(rows, _insert_rows(rows, now), now)


def _accounts(prepared: list[_Prepared]) -> list[str]:
    """The accounts the events move chips on (locked before the insert: see the docstring)."""
    return sorted(
        {
            name
            for item in prepared
            for transfer in transfers_of(item.data)
            for name in (transfer.source, transfer.target)
        }
    )


def _append_in_one_trip(writes: Sequence[StreamWrite], prepared: list[_Prepared]) -> list[StoredEvent] | None:
    """PostgreSQL fast path: when every stream's expected head hash is known (a new stream's is
    64 zeros; others from `_known_hashes`), hash in Python first and let ledger_append_known()
    lock the streams and accounts, confirm each head (version, hash, not a newer transaction) and insert, in
    one round trip. None when a hash is unknown or a head differs: the caller then takes the
    general path, which reports the conflict (advisory locks are re-entrant)."""
    heads = _known_heads(writes)
    if heads is None or not prepared:
        return None
    now = timezone.now()
    rows = _chain(prepared, heads, now)
    event_rows = [_event_row(row, now) for row in rows]
    inserted = dbapi.append_known([(s, v, h) for s, (v, h) in heads.items()], _accounts(prepared), event_rows)
    if not inserted:
        return None
    return _stored(rows, {(stream, version): position for position, stream, version in inserted}, now)


def _append_and_commit(writes: Sequence[StreamWrite], prepared: list[_Prepared]) -> Appended | None:
    """PostgreSQL, the last thing a command's own transaction does (`dbapi.commit_with_append`),
    every head hash known: the append, every inline projection and the COMMIT go as ONE message
    (`dbapi.Message`), one round trip. The projectors write from the events before their positions
    are known (the balances find them by stream and version). A moved head or a refused overdraft
    aborts the transaction before anything is written (ConcurrencyError, InsufficientFunds: the
    caller's block rolls back, and a command reloads and retries). None: not possible here."""
    heads = _known_heads(writes)
    if heads is None or not prepared:
        return None
    now = timezone.now()
    rows = _chain(prepared, heads, now)
    message = dbapi.Message()
    append_index = message.add(
        *dbapi.append_checked_statement(
            [(s, v, h) for s, (v, h) in heads.items()],
            _accounts(prepared),
            [_event_row(row, now) for row in rows],
            refuse=True,
        )
    )
    unplaced = _stored(rows, {(item.stream, version): 0 for item, version, _, _ in rows}, now)
    with dbapi.collecting(message):
        finish = inline.collect_inline(unplaced)
    if finish is None:  # a projector that cannot join: the usual path
        return None
    try:
        message.commit()
    except dbapi.AppendRefused as exc:
        first = writes[0]
        raise ConcurrencyError(first.stream, first.expected_version, None) from exc
    except dbapi.OverdraftRefused as exc:
        raise InsufficientFunds(exc.account, exc.unit, exc.balance_after - exc.amount, -exc.amount) from exc
    except psycopg.errors.UniqueViolation as exc:  # last line of defence
        raise ConcurrencyError(writes[0].stream, writes[0].expected_version, None) from exc
    positions = {
        (stream or "", int(version or 0)): int(position or 0)
        for position, stream, version in message.rows(append_index)
    }
    stored = _stored(rows, positions, now)
    balances = finish(stored)
    _remember_on_commit(stored)
    notify.publish_on_commit({event.stream for event in stored})
    return Appended(stored, balances)


def _known_heads(writes: Sequence[StreamWrite]) -> dict[str, tuple[int, str]] | None:
    """Each stream's expected (version, hash) when this process knows the hash (a new stream's
    is 64 zeros; others from `_known_hashes`), else None."""
    heads: dict[str, tuple[int, str]] = {}
    for write in writes:
        known = (
            GENESIS_HASH
            if write.expected_version == 0
            else _known_hashes.get((write.stream, write.expected_version))
        )
        if known is None:
            return None
        heads[write.stream] = (write.expected_version, known)
    return heads


# (stream, version) -> hash of committed events. Events never change, so an entry never goes
# stale; the one-trip append still re-checks the hash against the database before using it.
_known_hashes: dict[tuple[str, int], str] = {}
KNOWN_HASHES_MAX = 50_000


def is_committed(stream: str, version: int, digest: str) -> bool:
    """This process saw the event (stream, version) with this hash committed (read or written)."""
    return version > 0 and _known_hashes.get((stream, version)) == digest


def _remember_on_commit(events: Sequence[StoredEvent | _Head]) -> None:
    """Learn the last hash of each stream read or written, once it is committed (a rolled-back
    event must never become some stream's remembered head)."""
    last = {event.stream: (event.version, event.hash) for event in events}
    if not last:
        return

    def remember() -> None:
        if len(_known_hashes) > KNOWN_HASHES_MAX:
            _known_hashes.clear()
        for stream, (version, digest) in last.items():
            _known_hashes[(stream, version)] = digest

    transaction.on_commit(remember)


def _prepare(writes: Sequence[StreamWrite], meta: Mapping[str, Any]) -> list[_Prepared]:
    base_meta = dict(meta)
    check_json_value(base_meta, "meta")
    seen: set[str] = set()
    prepared = []
    for write in writes:
        _check_write(write, seen)
        for event in write.events:
            prepared.append(_prepare_event(write.stream, event, base_meta))
    return prepared


def _check_write(write: StreamWrite, seen: set[str]) -> None:
    if not isinstance(write.stream, str) or not write.stream or len(write.stream) > 200:
        raise InvalidAppend(f"bad stream name {write.stream!r}")
    if write.stream in seen:
        raise InvalidAppend(f"stream {write.stream!r} appears twice in one append")
    seen.add(write.stream)
    if type(write.expected_version) is not int or write.expected_version < 0:
        raise InvalidAppend(f"bad expected_version {write.expected_version!r}")


def _prepare_event(stream: str, event: NewEvent, base_meta: dict[str, Any]) -> _Prepared:
    if not isinstance(event.type, str) or not event.type or len(event.type) > 100:
        raise InvalidAppend(f"bad event type {event.type!r}")
    if not isinstance(event.data, dict):
        raise InvalidAppend(f"{event.type}: data must be a dict")
    check_json_value(event.data)
    _check_transfers(event.data)
    data = _sealed(event)
    event_meta = {**base_meta, "schema_version": registry.schema_version(event.type)}
    data_json = canonical_json(data)
    chain_json = canonical_json(chain_form(data)) if event.secret else data_json
    return _Prepared(stream, event.type, data, data_json, chain_json, event_meta, canonical_json(event_meta))


def _sealed(event: NewEvent) -> dict[str, Any]:
    """The data to store: with its secret keys sealed under a new salt (DESIGN §2.6)."""
    try:
        if event.secret:
            return seal(event.data, event.secret, new_salt())
    except InvalidEventData as exc:
        raise InvalidAppend(f"{event.type}: {exc}") from exc
    if SECRET_KEY in event.data or SALT_KEY in event.data:
        raise InvalidAppend(
            f"{event.type}: data keys {SECRET_KEY!r} and {SALT_KEY!r} are reserved; "
            "name secret keys in NewEvent.secret"
        )
    return event.data


def _check_transfers(data: dict[str, Any]) -> None:
    """Validate every transfer (InvalidTransfer) before any write, including name lengths."""
    raw = data.get("transfers", [])
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise InvalidTransfer("data['transfers'] must be a list of transfer objects")
    try:
        transfers = transfers_of(data)
    except (KeyError, TypeError) as exc:
        raise InvalidTransfer(f"malformed transfer: {exc}") from exc
    for transfer in transfers:
        if max(len(transfer.source), len(transfer.target)) > MAX_ACCOUNT or len(transfer.unit) > MAX_UNIT:
            raise InvalidTransfer(f"account or unit name too long in {transfer.to_json()}")


def lock_appends() -> None:
    """Block every append until the current transaction ends (rebuilds use it; readers go on)."""
    if dbapi.on_postgres():
        with dbapi.cursor() as cursor:
            cursor.execute("LOCK TABLE ledger_event IN EXCLUSIVE MODE")


def last_position() -> int:
    """The position of the newest event (0 for an empty log)."""
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(position), 0) FROM ledger_event")
        return cursor.fetchone()[0]


def count_events() -> int:
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM ledger_event")
        return cursor.fetchone()[0]


Heads = dict[str, tuple[int, str]]


def _lock_and_read_heads(streams: list[str], accounts: list[str]) -> tuple[Heads, set[str]]:
    """Lock the streams and accounts (see the module docstring) and read each stream's (version, hash); also
    the streams whose head a newer transaction wrote."""
    with dbapi.cursor() as cursor:
        if dbapi.on_postgres():
            cursor.execute("SELECT * FROM ledger_append_begin(%s::text[], %s::text[])", [streams, accounts])
            rows = cursor.fetchall()
            return {stream: (version, hash_) for stream, version, hash_, _ in rows}, {
                stream for stream, _, _, newer in rows if newer
            }
        # SQLite: BEGIN IMMEDIATE already holds the write lock
        parts = [
            "SELECT * FROM (SELECT stream, version, hash FROM ledger_event WHERE stream = %s "
            "ORDER BY version DESC LIMIT 1)"
        ] * len(streams)
        cursor.execute(" UNION ALL ".join(parts), streams)
        return {stream: (version, hash_) for stream, version, hash_ in cursor.fetchall()}, set()


Chained = tuple[_Prepared, int, str, str]  # event, version, prev_hash, hash


def _chain(prepared: list[_Prepared], heads: dict[str, tuple[int, str]], now: datetime) -> list[Chained]:
    """Give each event its version, prev_hash and hash, continuing each stream from its head."""
    chain = dict(heads)
    rows = []
    for item in prepared:
        version, prev_hash = chain.get(item.stream, (0, GENESIS_HASH))
        version += 1
        digest = event_hash(
            prev_hash=prev_hash,
            stream=item.stream,
            version=version,
            type=item.type,
            data_json=item.chain_json,
            meta_json=item.meta_json,
            recorded_at=now,
        )
        chain[item.stream] = (version, digest)
        rows.append((item, version, prev_hash, digest))
    return rows


def _stored(rows: list[Chained], positions: dict[tuple[str, int], int], now: datetime) -> list[StoredEvent]:
    return [
        StoredEvent(
            positions[(item.stream, version)],
            item.stream,
            version,
            item.type,
            item.data,
            item.meta,
            now,
            prev_hash,
            digest,
        )
        for item, version, prev_hash, digest in rows
    ]


def _event_row(row: Chained, now: datetime) -> dbapi.EventRow:
    item, version, prev_hash, digest = row
    return (item.stream, version, item.type, item.data_json, item.meta_json, now, prev_hash, digest)


def _insert_rows(rows: list[Chained], now: datetime) -> dict[tuple[str, int], int]:
    try:
        inserted = dbapi.insert_events([_event_row(row, now) for row in rows])
    except (IntegrityError, psycopg.errors.UniqueViolation) as exc:  # last line of defence
        first, version = rows[0][0], rows[0][1]
        raise ConcurrencyError(first.stream, version - 1, None) from exc
    return {(stream, version): position for position, stream, version in inserted}


# --- read -----------------------------------------------------------------------------------------


def lock_and_read_head(lock: tuple[int, int], stream: str) -> tuple[int, str]:
    """Take a command's advisory lock, held to commit (a table's, a bankroll's), and read `stream`'s
    head (version, hash; 0 and '' for a new stream). PostgreSQL: one round trip, BEGIN included,
    and the head is remembered for the one-trip append. SQLite: BEGIN IMMEDIATE is the lock."""
    if not dbapi.on_postgres():
        with dbapi.cursor() as cursor:
            cursor.execute(
                "SELECT version, hash FROM ledger_event WHERE stream = %s ORDER BY version DESC LIMIT 1",
                [stream],
            )
            row = cursor.fetchone()
        version, digest = row if row is not None else (0, "")
    else:
        version, digest = dbapi.lock_head(*lock, stream)
    if version:
        _remember_on_commit([_Head(stream, version, digest)])
    return version, digest


def stream_version(stream: str) -> int:
    """The stream's current version (0 if it has no events)."""
    return read_head(stream)[0]


def read_head(stream: str) -> tuple[int, str]:
    """The stream's head (version, hash; 0 and '' if it has no events), without its data."""
    with dbapi.cursor() as cursor:
        cursor.execute(
            "SELECT version, hash FROM ledger_event WHERE stream = %s ORDER BY version DESC LIMIT 1", [stream]
        )
        row = cursor.fetchone()
    if row is None:
        return 0, ""
    _remember_on_commit([_Head(stream, *row)])
    return row[0], row[1]


@dataclass(frozen=True, slots=True)
class _Head:
    stream: str
    version: int
    hash: str


def read_stream(stream: str, *, from_version: int = 1, to_version: int | None = None) -> list[StoredEvent]:
    """The stream's events from `from_version` to `to_version` (inclusive), data upcast."""
    where = "WHERE stream = %s AND version >= %s"
    params: list[Any] = [stream, from_version]
    if to_version is not None:
        where += " AND version <= %s"
        params.append(to_version)
    events = _fetch(where + " ORDER BY version", params)
    _remember_on_commit(events[-1:])
    return events


def read_all(
    *,
    after: int = 0,
    limit: int = 1000,
    types: Collection[str] | None = None,
    stream_prefix: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    settled: bool = True,
) -> list[StoredEvent]:
    """Up to `limit` events after the event at position `after`, in log order, optionally of
    `types` or of streams starting with `stream_prefix`, recorded between `since` and `until`.

    Log order on PostgreSQL is `(tx_id, position)` below the watermark (see the module docstring):
    every event appears once, none later in a place already read. `settled=False` reads in plain
    position order, for a caller that blocks appends (`lock_appends`), so that nothing is in flight.
    """
    where, params = _log_filter(types, stream_prefix, since, until)
    if where is None:
        return []
    if settled and dbapi.on_postgres():
        return _fetch(
            WATERMARK_AFTER + where + " ORDER BY tx_id, position LIMIT %s", [after, after, *params, limit]
        )
    return _fetch("WHERE position > %s" + where + " ORDER BY position LIMIT %s", [after, *params, limit])


# Events after the one at position %s in (tx_id, position) order, below the watermark (and the
# reader's own transaction's, which are final for it). The cursor's transaction is that of the last
# event at or before it (a cursor that names no event, e.g. 0 or a rolled-back position, continues
# from where it would have been).
WATERMARK_AFTER = (
    "WHERE (tx_id, position) > (COALESCE((SELECT tx_id FROM ledger_event WHERE position <= %s "
    "ORDER BY position DESC LIMIT 1), '0'::xid8), %s) "
    "AND (tx_id < (SELECT ledger_watermark(pg_current_snapshot())) "
    "OR tx_id = pg_current_xact_id_if_assigned())"
)


def _log_filter(
    types: Collection[str] | None, stream_prefix: str | None, since: datetime | None, until: datetime | None
) -> tuple[str | None, list[Any]]:
    """The extra conditions of a log read (None: it can match nothing)."""
    where, params = "", []
    for moment, condition in ((since, " AND recorded_at >= %s"), (until, " AND recorded_at <= %s")):
        if moment is not None:
            where += condition
            params.append(moment)
    if stream_prefix is not None:
        where += " AND stream LIKE %s ESCAPE '\\'"
        params.append(stream_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    if types is not None:
        types = list(types)
        if not types:
            return None, []
        where += f" AND type IN ({', '.join(['%s'] * len(types))})"
        params += types
    return where, params


def read_all_raw(*, after: int = 0, limit: int = 1000) -> list[StoredEvent]:
    """Like read_all, but data exactly as stored (no upcasting): what the hashes cover."""
    if dbapi.on_postgres():
        return _fetch(
            WATERMARK_AFTER + " ORDER BY tx_id, position LIMIT %s", [after, after, limit], upcast=False
        )
    return _fetch("WHERE position > %s ORDER BY position LIMIT %s", [after, limit], upcast=False)


def _fetch(where: str, params: list[Any], *, upcast: bool = True) -> list[StoredEvent]:
    rows = dbapi.fetch_events(where, params)
    if not upcast:
        return [StoredEvent(*row) for row in rows]
    return [
        StoredEvent(
            position,
            stream,
            version,
            type_,
            registry.upcast(type_, data, meta.get("schema_version", 1)),
            meta,
            *rest,
        )
        for position, stream, version, type_, data, meta, *rest in rows
    ]
