"""Live views over Server-Sent Events: streams whose messages are the caller's *views* (exactly what
the GET endpoints serve him), not raw events. The tournament stream and the user's own stream
("my tables") are built on this; the per-table event stream is `tables.audit.sse`.

A stream is given `snapshot()`, which runs on the shared reader threads (`tables.audit.sse`
`StreamReaders`: an open stream holds no thread and no database connection while it waits) and
returns a `tables.live.Snapshot`: the streams of the log to watch and the current views. The
stream sends every view when it opens, then each view that changed, whenever a watched stream got
events (LISTEN/NOTIFY on PostgreSQL, `ledger.notify`; polling elsewhere) or the safety poll comes
round; the set of watched streams follows the snapshot (sitting down at a new table, being moved
by a tournament). Views are built by the same selectors as the GET endpoints, so the one
visibility rule of the engine applies to them unchanged (DESIGN §2.6): a stream can never show
what the GET would not.

Each message is `id: <log position>`, `event: <kind>` (table, tournament, seats, tournaments),
`data: <the view as JSON>`; every view carries its own stream `version` (the ETag of its GET).
A reconnecting client gets the current views again (Last-Event-ID is not needed: nothing is
missed by starting from the present). Heartbeats, lifetime and settings as `tables.audit.sse`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from django.db import DatabaseError
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.utils.encoders import JSONEncoder

from http_edge.authentication import ApiTokenAuthentication
from ledger.models import Event
from ledger.notify import notifications_supported, subscription
from tables.audit.authentication import QueryTokenAuthentication
from tables.audit.renderers import EventStreamRenderer
from tables.audit.sse import HEARTBEAT, PolledSource, StreamReaders, StreamSettings, stream_readers
from tables.audit.tickets import ScopedStreamTicketAuthentication
from tables.live import Snapshot, View

logger = logging.getLogger(__name__)


def latest_position() -> int:
    """The log's latest position (the messages' id): one primary-key lookup."""
    return Event.objects.order_by("-position").values_list("position", flat=True).first() or 0


def view_message(position: int, view: View) -> str:
    data = json.dumps(view.data, cls=JSONEncoder, separators=(",", ":"))
    return f"id: {position}\nevent: {view.event}\ndata: {data}\n\n"


class ViewSource(PolledSource):
    """The messages of one live-view stream for one reader (see the module docstring)."""

    def __init__(
        self,
        snapshot: Callable[[], Snapshot],
        *,
        config: StreamSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.snapshot = snapshot
        self.config = config or StreamSettings.current()
        self.clock = clock
        self.watched: frozenset[str] = frozenset()
        self._sent: dict[str, str] = {}

    def next_batch(self) -> list[str]:
        """The messages of the views that changed since they were last sent (all, the first time)."""
        snapshot = self.snapshot()
        self.watched = snapshot.watched
        changed = []
        for view in snapshot.views:
            fingerprint = view.fingerprint()
            if self._sent.get(view.key) != fingerprint:
                self._sent[view.key] = fingerprint
                changed.append(view)
        if not changed:
            return []
        position = latest_position()
        return [view_message(position, view) for view in changed]

    async def async_messages(self) -> AsyncIterator[str]:
        """For ASGI: woken by notifications for the watched streams (re-subscribed as they change)."""
        yield self._opening()
        readers = stream_readers()
        live = notifications_supported()
        poll = self.config.safety_poll if live else self.config.poll
        watching: Watching | None = Watching() if live else None
        started = quiet_since = self.clock()
        try:
            while self.clock() - started < self.config.max_duration:
                batch = await self._read(readers)
                for message in batch:
                    yield message
                if batch:
                    quiet_since = self.clock()
                if watching is not None and await watching.follow(self.watched):
                    continue  # newly watched streams may have moved before the subscription
                if self.clock() - quiet_since >= self.config.heartbeat:
                    yield HEARTBEAT
                    quiet_since = self.clock()
                end = min(
                    started + self.config.max_duration,
                    quiet_since + self.config.heartbeat,
                    self.clock() + poll,
                )
                timeout = end - self.clock()
                if watching is not None:
                    await watching.wait(timeout)
                else:
                    await asyncio.sleep(max(timeout, 0.0))
        finally:
            if watching is not None:
                await watching.close()

    async def _read(self, readers: StreamReaders) -> list[str]:
        try:
            return await readers.run(self.next_batch)
        except DatabaseError as error:
            logger.warning("live view stream: reading failed (%s); retrying", error)
            return []


class Watching:
    """The notification subscription of a stream whose set of watched streams changes: a new set
    is subscribed before the old one is let go, so no notification falls between them."""

    def __init__(self) -> None:
        self.streams: frozenset[str] | None = None
        self._context: Any = None
        self._subscription: Any = None

    async def follow(self, streams: frozenset[str]) -> bool:
        """Subscribe to `streams` if they differ from the current set; True if they did."""
        if streams == self.streams:
            return False
        context = subscription(sorted(streams))
        subscribed = await context.__aenter__()
        await self.close()
        self.streams, self._context, self._subscription = streams, context, subscribed
        return True

    async def wait(self, timeout: float) -> bool:
        return bool(await self._subscription.wait(timeout))

    async def close(self) -> None:
        context, self._context = self._context, None
        if context is not None:
            await context.__aexit__(None, None, None)


# --- the HTTP side, shared by the live-view stream endpoints --------------------------------------

STREAM_AUTHENTICATION = (
    ApiTokenAuthentication,
    ScopedStreamTicketAuthentication,
    QueryTokenAuthentication,
    SessionAuthentication,
)
# One representation: `?format=json` or `Accept: application/json` is 406 `not_acceptable`
# (http_edge.api.negotiation), never a stream under a JSON content type.
STREAM_RENDERERS = (EventStreamRenderer,)


def view_stream_schema(events: dict[str, str], example: str) -> OpenApiResponse:
    """The 200 of a live-view stream: `text/event-stream` only, described message by message."""
    listed = "; ".join(f"`{name}`: {what}" for name, what in events.items())
    message = {
        "type": "object",
        "required": ["event", "data"],
        "description": "One message; comment lines (`: heartbeat`) and the opening `retry:` carry no view.",
        "properties": {
            "id": {"type": "string", "description": "The log position the views were read at."},
            "event": {"type": "string", "enum": list(events), "description": f"The view's kind: {listed}."},
            "data": {"type": "string", "description": "The view as JSON (its schema: see `event`)."},
            "retry": {"type": "integer", "description": "Reconnect delay in milliseconds."},
        },
    }
    return OpenApiResponse(
        response=message,
        description="An SSE stream (text/event-stream): the current views at once, then each view "
        "again whenever it changes, with heartbeats; it ends after 300 s (reconnect: the current "
        "views come again). Read it with EventSource or an SSE client, not as one JSON body.",
        examples=[OpenApiExample("A stream's first messages", value=example)],
    )
