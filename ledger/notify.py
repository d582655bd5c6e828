"""Wake-ups for live readers of the event log: PostgreSQL LISTEN/NOTIFY, one listener per process.

After an append commits, the appending process sends `NOTIFY ledger_events, '<stream>,<stream>…'`
(an empty payload means "any stream") from a background publisher (`publish_on_commit`): never
inside the append's transaction, whose commit would otherwise queue behind every other notifying
commit of the server (migration 0006), and never on the request's own connection.

A process keeps one async psycopg connection that LISTENs,
started by the first subscriber on its event loop; each notification sets the asyncio event of
the subscriptions to the streams it names, and the woken readers read the new events themselves
(through their own, redacting, feed). So an idle reader costs an asyncio event, not a thread,
a database connection or a query per poll.

Notifications are not stored: one sent while the listener is disconnected, or never sent because
the appending process died between its commit and the publish, is lost. The listener
therefore reconnects with a backoff and wakes every subscriber whenever it (re)connects, and
readers keep a slow safety poll of their own, so a lost notification delays them by at most that.
The connection is probed every `PROBE_SECONDS` while quiet (and uses TCP keepalives), so a
connection that died silently is noticed and replaced.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from django.db import connections, transaction

CHANNEL = "ledger_events"
APPLICATION_NAME = "guts-ledger-listener"
PUBLISHER_NAME = "guts-ledger-notifier"
PROBE_SECONDS = 30.0
RETRY_FIRST, RETRY_MAX = 0.5, 10.0
READY_TIMEOUT = 2.0  # how long a new subscriber waits for the listener to be listening
MAX_PAYLOAD = 7900  # PostgreSQL refuses payloads of 8000 bytes; longer: "any stream"

logger = logging.getLogger(__name__)


class Subscription:
    """A reader's interest in some streams: `wait` returns when one of them got new events."""

    def __init__(self, streams: Iterable[str]) -> None:
        self.streams = frozenset(streams)
        self._woken = asyncio.Event()

    def wake(self) -> None:
        self._woken.set()

    async def wait(self, timeout: float) -> bool:
        """True when woken (re-armed at once, so a later notification is not lost), False after
        `timeout` seconds without one."""
        try:
            await asyncio.wait_for(self._woken.wait(), max(timeout, 0.0))
        except TimeoutError:
            return False
        self._woken.clear()
        return True


class LedgerListener:
    """The LISTEN connection of one event loop and the subscriptions it fans out to."""

    def __init__(self, connect_params: dict[str, Any]) -> None:
        self._params = connect_params
        self._by_stream: dict[str, set[Subscription]] = {}
        self._listening = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def add(self, subscription: Subscription) -> None:
        for stream in subscription.streams:
            self._by_stream.setdefault(stream, set()).add(subscription)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="ledger-listener")

    def remove(self, subscription: Subscription) -> None:
        for stream in subscription.streams:
            waiting = self._by_stream.get(stream)
            if waiting is not None:
                waiting.discard(subscription)
                if not waiting:
                    del self._by_stream[stream]

    async def ready(self, timeout: float) -> bool:
        """Whether the listener is LISTENing (waits up to `timeout` seconds for it)."""
        try:
            await asyncio.wait_for(self._listening.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def dispatch(self, payload: str) -> None:
        """Wake the subscribers of the streams a notification names (all of them if it names none)."""
        streams = [name for name in payload.split(",") if name]
        if not streams:
            self.wake_all()
            return
        for stream in streams:
            for subscription in self._by_stream.get(stream, ()):
                subscription.wake()

    def wake_all(self) -> None:
        for waiting in self._by_stream.values():
            for subscription in waiting:
                subscription.wake()

    async def _run(self) -> None:
        delay = RETRY_FIRST
        try:
            while True:
                try:
                    await self._listen()
                except (psycopg.Error, OSError) as error:
                    delay = RETRY_FIRST if self._listening.is_set() else min(delay * 2, RETRY_MAX)
                    logger.warning(
                        "ledger listener lost its connection (%s); retrying in %.1f s", error, delay
                    )
                finally:
                    self._listening.clear()
                await asyncio.sleep(delay)
        finally:  # cancelled: the loop is closing, forget it
            _listeners.pop(asyncio.get_running_loop(), None)

    async def _listen(self) -> None:
        async with await psycopg.AsyncConnection.connect(**self._params, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self._listening.set()
            self.wake_all()  # whatever was sent while we were away is lost: everyone re-reads
            while True:
                async for notify in conn.notifies(timeout=PROBE_SECONDS):
                    self.dispatch(notify.payload)
                await conn.execute("SELECT 1")


def listener_params() -> dict[str, Any]:
    """psycopg connect() arguments for the default database, as Django connects to it."""
    params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    params.update(
        application_name=APPLICATION_NAME,
        keepalives=1,
        keepalives_idle=30,
        keepalives_interval=10,
        keepalives_count=3,
    )
    return params


_listeners: dict[asyncio.AbstractEventLoop, LedgerListener] = {}


def listener() -> LedgerListener:
    """The running event loop's listener (created, not yet connected, on first use)."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        found = _listeners[loop] = LedgerListener(listener_params())
    return found


def notifications_supported() -> bool:
    """LISTEN/NOTIFY needs PostgreSQL; other backends' readers poll."""
    return connections["default"].vendor == "postgresql"


@asynccontextmanager
async def subscription(
    streams: Iterable[str], *, ready_timeout: float = READY_TIMEOUT
) -> AsyncIterator[Subscription]:
    """Subscribe to `streams` for the block. Waits (briefly) until the listener is LISTENing, so
    that a reader who reads after entering misses nothing committed later."""
    current = listener()
    subscribed = Subscription(streams)
    current.add(subscribed)
    try:
        if not await current.ready(ready_timeout):
            logger.warning(
                "ledger listener not listening after %.1f s; readers fall back to polling", ready_timeout
            )
        yield subscribed
    finally:
        current.remove(subscribed)


# --- publishing -----------------------------------------------------------------------------------


class Publisher:
    """Sends the wake-ups of committed appends from a thread of its own, on a connection of its own,
    so a command pays neither a round trip nor the server's notification lock. Streams that queue
    up while a NOTIFY is on its way go out together in the next one. The connection is closed
    after IDLE_SECONDS without work (and by `close`), so it never pins a database."""

    IDLE_SECONDS = 30.0

    def __init__(self) -> None:
        self._pending: queue.SimpleQueue[frozenset[str] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def publish(self, streams: frozenset[str]) -> None:
        with self._lock:
            self._pending.put(streams)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="ledger-notify", daemon=True)
                self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Send what is pending, close the connection and stop the thread (a later publish restarts it)."""
        with self._lock:
            thread, self._thread = self._thread, None
            if thread is not None:
                self._pending.put(None)
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        try:
            while (streams := self._next_batch()) is not None:
                conn = self._send(conn, streams)
        finally:
            if conn is not None:
                conn.close()

    def _next_batch(self) -> set[str] | None:
        """The streams of every publish waiting now (None: closing, or idle for IDLE_SECONDS)."""
        try:
            first = self._pending.get(timeout=self.IDLE_SECONDS)
        except queue.Empty:
            with self._lock:  # nothing can be put while we decide to stop
                if self._pending.empty():
                    self._thread = None
                    return None
            first = self._pending.get_nowait()
        if first is None:
            return None
        streams = set(first)
        while not self._pending.empty():
            more = self._pending.get_nowait()
            if more is None:
                self._pending.put(None)  # close after this batch
                break
            streams |= more
        return streams

    def _send(
        self, conn: psycopg.Connection[Any] | None, streams: set[str]
    ) -> psycopg.Connection[Any] | None:
        payload = ",".join(sorted(streams))
        try:
            if conn is None or conn.closed:
                conn = psycopg.connect(
                    **{**listener_params(), "application_name": PUBLISHER_NAME}, autocommit=True
                )
            conn.execute(
                "SELECT pg_notify(%s, %s)", [CHANNEL, payload if len(payload.encode()) <= MAX_PAYLOAD else ""]
            )
        except (psycopg.Error, OSError) as error:  # the readers' safety poll covers it
            logger.warning("could not notify %d streams (%s)", len(streams), error)
            return None
        return conn


_publisher = Publisher()


def publish_on_commit(streams: Iterable[str]) -> None:
    """Wake the readers of `streams` once the current transaction commits (never if it rolls back)."""
    if not notifications_supported():
        return
    names = frozenset(streams)
    transaction.on_commit(lambda: _publisher.publish(names))


def close_publisher() -> None:
    """Stop this process's publisher and close its connection (tests, before a database is dropped)."""
    _publisher.close()
