"""Event feeds: pages of the log in position order, each event redacted for its reader (§2.3, §2.6).

`position` is a safe cursor: the whole log is read below the store's watermark, one stream in its
own commit order (ledger.store), so a reader that continues after the last position it saw never
skips a late commit.

Redaction is the engine's `redact_event`; this module only supplies what it needs to know:
whether the event's deal is over *now* (the engine's `deal_is_over` on the table's current
state, loaded by the tables app: cache or snapshot + tail).

Every event is served with what a reader needs to re-check the hash chain himself (ledger.hashing):
`meta`, `recorded_at`, `prev_hash`, `hash` and, for an event that seals secret facts, their salted
`commitments`. Those are safe to show to anyone: a commitment says nothing of its value without
the salt, which is served only with the value. The exception is a *legacy* event, stored before
facts were sealed, whose hidden facts the hash covers in the clear: its `hash` and the next
event's `prev_hash` are withheld from a reader who may not see it (two hidden cards are only
2,652 guesses).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from ledger import registry
from ledger.hashing import commitments
from ledger.models import Event
from ledger.store import StoredEvent, read_all
from tables.engine.decider.state import TableState
from tables.engine.decider.view import Viewer, deal_is_over, redact_event
from tables.state import load_table, table_id_of

MAX_PAGE = 500
DEFAULT_PAGE = 100


@dataclass(frozen=True, slots=True)
class FeedQuery:
    """Which events a feed page holds: after a position, of some types, recorded in a window."""

    after: int = 0
    limit: int = DEFAULT_PAGE
    types: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None


def table_of_stream(stream: str) -> str | None:
    """The table id of a `table-<uuid>` stream, None for any other stream."""
    return table_id_of(stream) if stream.startswith("table-") else None


def events_page(*, query: FeedQuery, stream: str | None = None) -> list[StoredEvent]:
    """Up to `query.limit` events after the event at `query.after`, in log order (one stream or all).

    The whole log is read through the store's watermark (ledger.store: a late commit never lands
    behind a cursor). One stream needs none: its events commit one after another, so its positions
    are its commit order; this reads the Event table and upcasts like the store."""
    if stream is None:
        return read_all(
            after=query.after,
            limit=query.limit,
            types=query.types or None,
            since=query.since,
            until=query.until,
        )
    rows = Event.objects.filter(stream=stream, position__gt=query.after)
    if query.types:
        rows = rows.filter(type__in=query.types)
    if query.since is not None:
        rows = rows.filter(recorded_at__gte=query.since)
    if query.until is not None:
        rows = rows.filter(recorded_at__lte=query.until)
    return [stored_event(row) for row in rows.order_by("position")[: query.limit]]


def stored_event(row: Event) -> StoredEvent:
    """An Event row as the store returns it: data upcast to the current schema."""
    data = registry.upcast(row.type, row.data, row.meta.get("schema_version", 1))
    return StoredEvent(
        row.position,
        row.stream,
        row.version,
        row.type,
        data,
        row.meta,
        row.recorded_at,
        row.prev_hash,
        row.hash,
    )


def current_tables(streams: Collection[str]) -> dict[str, TableState]:
    """The current state of every table among `streams` (what deal_is_over needs)."""
    return {
        stream: load_table(table).state
        for stream in set(streams)
        if (table := table_of_stream(stream)) is not None
    }


def deal_no_of(event: StoredEvent) -> int | None:
    """The deal a table event belongs to (events of a deal carry `deal_no`), else None."""
    deal_no = event.data.get("deal_no") if table_of_stream(event.stream) is not None else None
    return deal_no if type(deal_no) is int else None


def event_json(
    event: StoredEvent, viewer: Viewer, *, deal_over: bool, prev_withheld: bool = False
) -> dict[str, Any]:
    """One event for the API: where it is in the log, its deal, its data as the engine's
    redact_event lets this viewer see it (`deal_over`: has the event's deal ended by now), and
    what re-checks its link of the chain (`prev_withheld`: the previous event of its stream is a
    legacy event this viewer may not see, see the module docstring)."""
    data = redact_event(event.type, event.data, viewer, deal_over=deal_over)
    sealed = commitments(event.data)
    return {
        "position": event.position,
        "stream": event.stream,
        "version": event.version,
        "type": event.type,
        "recorded_at": event.recorded_at,
        "table_id": table_of_stream(event.stream),
        "deal_no": deal_no_of(event),
        "data": data,
        "meta": event.meta,
        "commitments": sealed,
        "prev_hash": None if prev_withheld else event.prev_hash,
        "hash": None if _withheld(event, data, sealed) else event.hash,
    }


def _withheld(event: StoredEvent, data: dict[str, Any], sealed: dict[str, str]) -> bool:
    """A legacy event (nothing sealed) whose data this viewer does not see in full."""
    return not sealed and data != event.data


def events_json(
    events: Sequence[StoredEvent], viewer: Viewer, over: Callable[[StoredEvent], bool]
) -> list[dict[str, Any]]:
    """Events for `viewer`, each redacted as `over(event)` says, with each served hash and
    prev_hash withheld where a legacy hidden event would give it away."""
    withheld = _legacy_withheld_before(events, viewer, over)
    served = []
    for event in events:
        body = event_json(
            event,
            viewer,
            deal_over=over(event),
            prev_withheld=withheld.get((event.stream, event.version - 1), False),
        )
        withheld[(event.stream, event.version)] = body["hash"] is None
        served.append(body)
    return served


def _legacy_withheld_before(
    events: Sequence[StoredEvent], viewer: Viewer, over: Callable[[StoredEvent], bool]
) -> dict[tuple[str, int], bool]:
    """Whether the event just before the first one of each stream in `events` is withheld (one
    indexed read; events before it are not needed)."""
    first: dict[str, int] = {}
    for event in events:
        first.setdefault(event.stream, event.version)
    wanted = [(stream, version - 1) for stream, version in first.items() if version > 1]
    if not wanted:
        return {}
    condition = Q()
    for stream, version in wanted:
        condition |= Q(stream=stream, version=version)
    previous = [stored_event(row) for row in Event.objects.filter(condition)]
    return {
        (event.stream, event.version): _withheld(
            event,
            redact_event(event.type, event.data, viewer, deal_over=over(event)),
            commitments(event.data),
        )
        for event in previous
    }


def feed_json(events: Iterable[StoredEvent], viewer: Viewer) -> list[dict[str, Any]]:
    """A page of events for `viewer`, each redacted as of now (has its deal ended?)."""
    events = list(events)
    tables = current_tables({event.stream for event in events})
    return events_json(events, viewer, lambda event: _over(event, tables))


def _over(event: StoredEvent, tables: dict[str, TableState]) -> bool:
    table = tables.get(event.stream)
    return table is None or deal_is_over(table, deal_no_of(event))
