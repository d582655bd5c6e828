"""Long-poll of one table: `GET /tables/{id}?wait=N` with `If-None-Match: "<version>"`.

If the table's version differs from the ETag the answer comes at once (200, the table); else the
request waits until the table changes (200) or N seconds pass (304), N at most `MAX_WAIT` (30; more
is 400 `invalid_query`). Without If-None-Match there is nothing to wait for: `wait` is ignored.

The wait must not cost the API its threads or its database connections:

- Under the web server's application (guts_backend.asgi, how the API is served) the request runs
  on a request thread as any GET (authentication, permissions, the version check); if it would
  answer 304 and asks to wait, the view says so in the environ (`WANTED`) and the application
  waits on the event loop (`wait_on_loop`): the table's version is read on the shared stream
  readers (tables.audit.sse `StreamReaders`, a few threads per process, each connection given back
  after its read) and the loop sleeps until `ledger.notify` says the table's stream got events
  (LISTEN/NOTIFY; a poll every GUTS_SSE_POLL seconds without PostgreSQL). A waiting long-poll is
  an asyncio task: it holds no request thread and no connection, so waiting clients do not shrink
  the pool that serves everyone else. Then the request runs once more and answers 200 or 304.
  Only a caller allowed to read the table waits at all (the first run checked him).
- Under plain WSGI (Django's test client, `guts_backend.wsgi`) there is no loop: the view waits on
  its own thread, polling the version every GUTS_LONG_POLL_POLL seconds (0.25) with its database
  connection given back between polls, and at most GUTS_LONG_POLL_THREADS requests (2) of a
  process wait at once; another answers at once, as if `wait` were 0, rather than take a thread
  the API needs.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from django.conf import settings
from django.db import DatabaseError, connections
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from http_edge.api.conditional import etag
from http_edge.api.input import QueryIntegerField, QuerySerializer, validated_query
from ledger.notify import notifications_supported, subscription
from tables.audit.sse import StreamSettings, stream_readers
from tables.errors import UnknownTable
from tables.selectors import table_version
from tables.service import canonical_table_id
from tables.state import table_stream

MAX_WAIT = 30
logger = logging.getLogger(__name__)
# Keys in the WSGI environ (Django's request.META) between guts_backend.asgi and the view.
LOOP = "guts.long_poll.loop"  # set by the application: it can wait on its event loop
WANTED = "guts.long_poll.wanted"  # set by the view: (table id, ETag seen, seconds) to wait for
WAITED = "guts.long_poll.waited"  # set by the application on the run after the wait

WAIT_PARAMETER = OpenApiParameter(
    "wait",
    OpenApiTypes.INT,
    required=False,
    description=f"Long-poll, with If-None-Match: wait up to this many seconds (0 to {MAX_WAIT}) for "
    "the table to change; 200 as soon as it does, 304 if it did not. No effect without If-None-Match.",
)


class WaitQuerySerializer(QuerySerializer):
    wait = QueryIntegerField(min_value=0, max_value=MAX_WAIT, required=False)

    class Meta:
        ref_name = "LongPollQuery"


def _changed(table_id: str, seen: str) -> bool:
    """Whether the table's version is not the one the client has (an unknown table: changed, so
    the view answers its 404 at once)."""
    try:
        return etag(table_version(table_id=table_id) or -1) != seen
    except UnknownTable:
        return True


# --- under WSGI: on the request's own thread, a few at a time ---------------------------------------

_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def _thread_slots() -> threading.BoundedSemaphore:
    """The process's waiting slots, as many as GUTS_LONG_POLL_THREADS says (0: never wait)."""
    size = int(getattr(settings, "GUTS_LONG_POLL_THREADS", 2))
    with _slots_lock:
        return _slots.setdefault(size, threading.BoundedSemaphore(size))


def _release_connections() -> None:
    """Give this thread's database connections back while it sleeps (not inside a transaction)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def table_wait(request: Request, *, table_id: str, seen: str | None) -> None:
    """The view's part: validate `?wait=` (400 `invalid_query`); if the table has not moved from
    `seen`, ask the application to wait on its loop, or (plain WSGI) wait here a bounded while."""
    # most reads have no query string: no serializer to build for them
    wait = validated_query(WaitQuerySerializer, request).get("wait") if request.query_params else None
    meta = request.META
    if not wait or seen is None or meta.get(WAITED) or _changed(table_id, seen):
        return
    if meta.get(LOOP):
        meta[WANTED] = (canonical_table_id(table_id), seen, wait)
        return
    slots = _thread_slots()
    if not slots.acquire(blocking=False):
        return  # enough threads wait already: answer now
    try:
        poll = float(getattr(settings, "GUTS_LONG_POLL_POLL", 0.25))
        end = time.monotonic() + wait
        while not _changed(table_id, seen) and (left := end - time.monotonic()) > 0:
            _release_connections()
            time.sleep(min(poll, left))
    finally:
        slots.release()


# --- under ASGI: on the event loop, before the request takes a thread --------------------------------


async def wait_on_loop(table_id: str, seen: str, seconds: float) -> None:
    """Wait until the table's version differs from `seen` or `seconds` pass, holding no thread and
    no connection (versions read on the stream readers, woken by notifications)."""
    readers = stream_readers()
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    config = StreamSettings.current()

    async def changed() -> bool:
        try:
            return await readers.run(lambda: _changed(table_id, seen))
        except DatabaseError as error:  # stop waiting: the request itself answers (or fails) now
            logger.warning("long-poll of table %s: reading its version failed (%s)", table_id, error)
            return True

    if not notifications_supported():
        while not await changed() and (left := end - loop.time()) > 0:
            await asyncio.sleep(min(config.poll, left))
        return
    async with subscription([table_stream(table_id)]) as woken:
        while not await changed() and (left := end - loop.time()) > 0:
            await woken.wait(min(config.safety_poll, left))
