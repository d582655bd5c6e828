"""Server-Sent Events per table: the table's events, redacted per reader, live (DESIGN §2.9).

Each message is `id: <position>`, `event: <type>`, `data: <event JSON>` (the same JSON as the
feeds, `feeds.event_json`). A reader resumes after the last position it saw (`Last-Event-ID`,
which browsers' EventSource sends by itself on reconnect); position is a safe cursor because
appends are serialised (ledger.store), so nothing that commits later can appear behind it.

The source polls the event store (one indexed query per poll interval) and sends a comment line
as a heartbeat when nothing happened for a while, so proxies keep the connection open. A stream
ends after `max_seconds` (the browser reconnects with Last-Event-ID): that bounds how long a
WSGI worker thread is held, and lets tests read a stream to its end. Under ASGI (uvicorn) the
messages come from an async generator (database reads in `sync_to_async`), under WSGI
(`manage.py runserver`) from a plain generator: Django needs the one that matches its handler.

Settings (seconds unless named otherwise): GUTS_SSE_HEARTBEAT (15), GUTS_SSE_POLL (0.5),
GUTS_SSE_MAX_DURATION (300), GUTS_SSE_RETRY_MS (2000, the reconnect delay sent to the browser).
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from rest_framework.utils.encoders import JSONEncoder

from tables.audit.feeds import FeedQuery, events_page, feed_json
from tables.engine.decider.view import Viewer

BATCH = 200


@dataclass(frozen=True, slots=True)
class StreamSettings:
    heartbeat: float
    poll: float
    max_duration: float
    retry_ms: int

    @classmethod
    def current(cls) -> StreamSettings:
        return cls(heartbeat=float(getattr(settings, "GUTS_SSE_HEARTBEAT", 15.0)),
                   poll=float(getattr(settings, "GUTS_SSE_POLL", 0.5)),
                   max_duration=float(getattr(settings, "GUTS_SSE_MAX_DURATION", 300.0)),
                   retry_ms=int(getattr(settings, "GUTS_SSE_RETRY_MS", 2000)))


HEARTBEAT = ": heartbeat\n\n"


def sse_message(event: dict) -> str:
    """One event as an SSE message (`data` is one line: JSON has no raw newlines)."""
    data = json.dumps(event, cls=JSONEncoder, separators=(",", ":"))
    return f"id: {event['position']}\nevent: {event['type']}\ndata: {data}\n\n"


class TableEventSource:
    """The messages of one table stream for one reader, after a position."""

    def __init__(self, *, stream: str, viewer: Viewer, after: int,
                 config: StreamSettings | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.viewer = viewer
        self.after = after
        self.config = config or StreamSettings.current()
        self.clock = clock

    def next_batch(self) -> list[str]:
        """The messages for events after the last one sent (and move past them)."""
        events = events_page(query=FeedQuery(after=self.after, limit=BATCH), stream=self.stream)
        if not events:
            return []
        self.after = events[-1].position
        return [sse_message(event) for event in feed_json(events, self.viewer)]

    def _opening(self) -> str:
        return f"retry: {self.config.retry_ms}\n\n"

    def messages(self) -> Iterator[str]:
        """For WSGI: a plain generator that sleeps between polls."""
        yield self._opening()
        started = quiet_since = self.clock()
        while self.clock() - started < self.config.max_duration:
            batch = self.next_batch()
            if batch:
                yield from batch
                quiet_since = self.clock()
                continue
            if self.clock() - quiet_since >= self.config.heartbeat:
                yield HEARTBEAT
                quiet_since = self.clock()
            time.sleep(self.config.poll)

    async def async_messages(self) -> AsyncIterator[str]:
        """For ASGI: the same stream as an async generator; database reads run in a thread."""
        yield self._opening()
        started = quiet_since = self.clock()
        while self.clock() - started < self.config.max_duration:
            batch = await sync_to_async(self.next_batch)()
            if batch:
                for message in batch:
                    yield message
                quiet_since = self.clock()
                continue
            if self.clock() - quiet_since >= self.config.heartbeat:
                yield HEARTBEAT
                quiet_since = self.clock()
            await asyncio.sleep(self.config.poll)
