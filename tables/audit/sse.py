"""Server-Sent Events per table: the table's events, redacted per reader, live (DESIGN §2.9).

Each message is `id: <position>`, `event: <type>`, `data: <event JSON>` (the same JSON as the
feeds, `feeds.event_json`). A reader resumes after the last position it saw (`Last-Event-ID`,
which browsers' EventSource sends by itself on reconnect); position is a safe cursor because
appends are serialised (ledger.store), so nothing that commits later can appear behind it.

Under ASGI (uvicorn workers, `guts_backend.asgi`) the messages come from an async generator that
holds no thread and no database connection while it waits: on PostgreSQL it sleeps until
`ledger.notify` says the table's stream got events (LISTEN/NOTIFY, delivered on commit), with a
slow safety poll in case a notification was lost; on other databases it polls. The reads
themselves (the feed functions, redacted for the reader) run on a few shared threads
(`StreamReaders`), so a thousand open streams still use a handful of database connections.
Under WSGI (Django's test client) a plain generator polls instead. A comment line is sent as a
heartbeat when nothing happened for a while, so proxies keep the connection open. A stream ends
after `max_duration` (the browser reconnects with Last-Event-ID), which also lets tests read a
stream to its end.

Settings (seconds unless named otherwise): GUTS_SSE_HEARTBEAT (15), GUTS_SSE_POLL (0.5, polling
without notifications), GUTS_SSE_SAFETY_POLL (10, with them), GUTS_SSE_MAX_DURATION (300),
GUTS_SSE_RETRY_MS (2000, the reconnect delay sent to the browser), GUTS_SSE_READERS (4 threads).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import StreamingHttpResponse
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder

from ledger.notify import notifications_supported, subscription
from tables.audit.feeds import FeedQuery, events_page, feed_json
from tables.engine.decider.view import Viewer

BATCH = 200
T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StreamSettings:
    heartbeat: float
    poll: float
    safety_poll: float
    max_duration: float
    retry_ms: int

    @classmethod
    def current(cls) -> StreamSettings:
        return cls(
            heartbeat=float(getattr(settings, "GUTS_SSE_HEARTBEAT", 15.0)),
            poll=float(getattr(settings, "GUTS_SSE_POLL", 0.5)),
            safety_poll=float(getattr(settings, "GUTS_SSE_SAFETY_POLL", 10.0)),
            max_duration=float(getattr(settings, "GUTS_SSE_MAX_DURATION", 300.0)),
            retry_ms=int(getattr(settings, "GUTS_SSE_RETRY_MS", 2000)),
        )


HEARTBEAT = ": heartbeat\n\n"


def sse_message(event: dict) -> str:
    """One event as an SSE message (`data` is one line: JSON has no raw newlines)."""
    data = json.dumps(event, cls=JSONEncoder, separators=(",", ":"))
    return f"id: {event['position']}\nevent: {event['type']}\ndata: {data}\n\n"


class StreamReaders:
    """The few threads on which every async stream of the process reads the database.

    Around each read runs what Django runs around each request (`close_old_connections`): a
    connection broken by an error, failing its health check or past CONN_MAX_AGE is closed, and
    with a connection pool (ASGI, CONN_MAX_AGE 0) the connection goes back to the pool after the
    read. So the streams of a process never use more connections than it has reader threads."""

    def __init__(self, size: int) -> None:
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="sse-reader")
        self._opened: weakref.WeakSet[BaseDatabaseWrapper] = weakref.WeakSet()
        self._lock = threading.Lock()

    async def run(self, read: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._call, read)

    def _call(self, read: Callable[[], T]) -> T:
        close_old_connections()
        try:
            return read()
        finally:
            with self._lock:
                self._opened.update(connections.all(initialized_only=True))
            close_old_connections()

    def close(self) -> None:
        """Stop the threads and close their connections (tests do, before the database is dropped)."""
        self._executor.shutdown(wait=True)
        with self._lock:
            opened = list(self._opened)
        for wrapper in opened:
            wrapper.inc_thread_sharing()  # closing from this thread is safe: its thread is gone
            try:
                wrapper.close()
            finally:
                wrapper.dec_thread_sharing()


_readers: StreamReaders | None = None
_readers_lock = threading.Lock()


def stream_readers() -> StreamReaders:
    """The process's readers (GUTS_SSE_READERS threads), created on first use."""
    global _readers
    with _readers_lock:
        if _readers is None:
            _readers = StreamReaders(int(getattr(settings, "GUTS_SSE_READERS", 4)))
        return _readers


def stream_readers_close() -> None:
    """Close the process's readers; the next stream starts new ones."""
    global _readers
    with _readers_lock:
        closing, _readers = _readers, None
    if closing is not None:
        closing.close()


async def _sleep(timeout: float) -> bool:
    """The waker of polling streams: never woken early."""
    await asyncio.sleep(max(timeout, 0.0))
    return False


class PolledSource(ABC):
    """What every stream source shares: its settings and clock, the opening reconnect hint, and
    the generator WSGI serves, which polls `next_batch` (the async one differs by source)."""

    config: StreamSettings
    clock: Callable[[], float]

    @abstractmethod
    def next_batch(self) -> list[str]:
        """The messages of what is new since the last call."""

    def _opening(self) -> str:
        return f"retry: {self.config.retry_ms}\n\n"

    def messages(self) -> Iterator[str]:
        """For WSGI: a plain generator that polls, sleeping between polls."""
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

    @abstractmethod
    def async_messages(self) -> AsyncIterator[str]:
        """For ASGI: the same messages, waiting on the event loop (no thread, no connection)."""


class TableEventSource(PolledSource):
    """The messages of one table stream for one reader, after a position."""

    def __init__(
        self,
        *,
        stream: str,
        viewer: Viewer,
        after: int,
        config: StreamSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
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

    async def async_messages(self) -> AsyncIterator[str]:  # type: ignore[override]
        """For ASGI: woken by the ledger's notifications on PostgreSQL, polling elsewhere."""
        yield self._opening()
        if notifications_supported():
            async with subscription([self.stream]) as woken:
                async for message in self._follow(woken.wait, self.config.safety_poll):
                    yield message
        else:
            async for message in self._follow(_sleep, self.config.poll):
                yield message

    async def _follow(self, wait: Callable[[float], Awaitable[bool]], poll: float) -> AsyncIterator[str]:
        """Read and send new events whenever `wait` reports some or `poll` seconds passed; a
        heartbeat after `heartbeat` quiet seconds; stop after `max_duration`."""
        readers = stream_readers()
        started = quiet_since = next_read = self.clock()
        due = True  # the events after `after` may be there already
        while self.clock() - started < self.config.max_duration:
            if due or self.clock() >= next_read:
                batch = await self._read(readers)
                next_read = self.clock() + poll
                for message in batch:
                    yield message
                if batch:
                    quiet_since = self.clock()
                if len(batch) == BATCH:  # more are waiting: read on at once
                    due = True
                    continue
            if self.clock() - quiet_since >= self.config.heartbeat:
                yield HEARTBEAT
                quiet_since = self.clock()
            until = min(started + self.config.max_duration, quiet_since + self.config.heartbeat, next_read)
            due = await wait(until - self.clock())

    async def _read(self, readers: StreamReaders) -> list[str]:
        """The next batch; none while the database is unreachable (the stream stays open and
        tries again at the next poll; its reader thread reconnects)."""
        try:
            return await readers.run(self.next_batch)
        except DatabaseError as error:
            logger.warning("stream %s: reading new events failed (%s); retrying", self.stream, error)
            return []


def stream_response(request: Request, source: PolledSource) -> StreamingHttpResponse:
    """The SSE response: async under ASGI (no thread held while waiting), a generator under WSGI."""
    asgi = isinstance(request._request, ASGIRequest)
    response = StreamingHttpResponse(
        source.async_messages() if asgi else source.messages(), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
