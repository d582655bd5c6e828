"""Event feeds: pages of the log in position order, each event redacted for its reader (§2.3, §2.6).

`position` is a safe cursor: ledger.store serialises appends under one lock, so positions become
visible in order and a reader that asks for `position > last_seen` never skips a late commit.

Redaction is the engine's `redact_event`; this module only supplies what it needs to know:
whether the event's deal is over *now* (a table stream's deal N is over once its DealEnded N is
in the log; deals of a table end in order). Hashes are shown only with events whose data the
reader sees in full: a hash over a short hidden hand could be brute-forced back into the cards.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Max

from ledger import registry
from ledger.models import Event
from ledger.store import StoredEvent
from tables.audit.access import table_of_stream
from tables.engine.decider import events as ev
from tables.engine.decider.view import Viewer, redact_event

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


def events_page(*, query: FeedQuery, stream: str | None = None) -> list[StoredEvent]:
    """Up to `query.limit` events after `query.after` in position order (one stream or all).

    ledger.store's readers filter by stream version or by type only; feeds also need a stream
    by position and a time window, so this reads the Event table and upcasts like the store."""
    rows = Event.objects.filter(position__gt=query.after)
    if stream is not None:
        rows = rows.filter(stream=stream)
    if query.types:
        rows = rows.filter(type__in=query.types)
    if query.since is not None:
        rows = rows.filter(recorded_at__gte=query.since)
    if query.until is not None:
        rows = rows.filter(recorded_at__lte=query.until)
    return [stored_event(row) for row in rows.order_by("position")[:query.limit]]


def stored_event(row: Event) -> StoredEvent:
    """An Event row as the store returns it: data upcast to the current schema."""
    data = registry.upcast(row.type, row.data, row.meta.get("schema_version", 1))
    return StoredEvent(row.position, row.stream, row.version, row.type, data, row.meta,
                       row.recorded_at, row.prev_hash, row.hash)


def ended_deals(streams: Collection[str]) -> dict[str, int]:
    """For each table stream, the number of its last finished deal (0 if none has ended)."""
    tables = [stream for stream in set(streams) if table_of_stream(stream) is not None]
    heads = (Event.objects.filter(stream__in=tables, type=ev.DEAL_ENDED)
             .values("stream").annotate(last=Max("version")).values_list("stream", "last"))
    ended = dict.fromkeys(tables, 0)
    for stream, version in heads:
        data = Event.objects.filter(stream=stream, version=version).values_list("data", flat=True).get()
        ended[stream] = data["deal_no"]
    return ended


def deal_no_of(event: StoredEvent) -> int | None:
    """The deal a table event belongs to (events of a deal carry `deal_no`), else None."""
    deal_no = event.data.get("deal_no") if table_of_stream(event.stream) is not None else None
    return deal_no if type(deal_no) is int else None


def redacted_data(event: StoredEvent, viewer: Viewer, *, last_ended: int) -> dict[str, Any]:
    """The event's data as this viewer may see it (the engine's redact_event decides)."""
    deal_no = deal_no_of(event)
    return redact_event(event.type, event.data, viewer,
                        deal_over=deal_no is not None and deal_no <= last_ended)


def event_json(event: StoredEvent, viewer: Viewer, *, last_ended: int) -> dict[str, Any]:
    """One event for the API: where it is in the log, its deal, and its data redacted."""
    data = redacted_data(event, viewer, last_ended=last_ended)
    deal_no = deal_no_of(event)
    seed_public = event.type == ev.DEAL_STARTED and deal_no is not None and deal_no <= last_ended
    full = data == event.data or seed_public
    return {
        "position": event.position, "stream": event.stream, "version": event.version,
        "type": event.type, "recorded_at": event.recorded_at,
        "table_id": table_of_stream(event.stream), "deal_no": deal_no, "data": data,
        "prev_hash": event.prev_hash if full else None, "hash": event.hash if full else None,
    }


def feed_json(events: Iterable[StoredEvent], viewer: Viewer) -> list[dict[str, Any]]:
    """A page of events for `viewer`, redacted with each table's finished deals as of now."""
    events = list(events)
    ended = ended_deals({event.stream for event in events})
    return [event_json(event, viewer, last_ended=ended.get(event.stream, 0)) for event in events]
