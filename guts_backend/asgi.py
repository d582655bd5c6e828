"""ASGI entry point of the web service: `gunicorn -k uvicorn_worker.UvicornWorker
guts_backend.asgi:application` (docker-compose.yml) or `uvicorn guts_backend.asgi:application`
(`manage.py serve`).

One address serves two kinds of request, each the cheapest way that keeps its guarantees:

- **The API** (every request but the SSE streams) runs Django's WSGI handler on a thread of a
  fixed pool, in ONE hop from the event loop: the body is read on the loop, the whole request
  (middleware, view, signals, response) runs on the thread, the answer is sent from the loop.
  Django's ASGI handler would hop between the loop and threads a dozen times a request and start
  two threads for it (a third of a worker's CPU went there).
- **The streams** (`/api/v1/tables/<id>/stream`, `/api/v1/tournaments/<id>/stream`,
  `/api/v1/me/stream`) run Django's ASGI handler, so an open stream
  (up to 300 s) holds no thread and no database connection while it waits:
  `StreamingASGIHandler` closes the request's connections and lets its thread go once the async
  streaming response is ready (the sync work is done by then).

A long-poll (`GET /api/v1/tables/<id>?wait=N` with If-None-Match, tables.api.long_poll) runs as
any request; if the view finds nothing new it asks to wait, and the wait happens on the event loop
(holding no thread and no connection), after which the request runs again and answers 200 or 304.

Database connections come from a pool per process (`GUTS_DB_POOL`, set here before the settings
are read: threads of both kinds share it; guts_backend.settings, guts_backend.dbpool). Access
logs never record query strings (guts_backend.access_log): `?ticket=` and `?token=` are
credentials. After start-up everything loaded is frozen out of the garbage collector's scans
(`gc.freeze`), which would otherwise walk Django's and DRF's objects again and again.
"""

from __future__ import annotations

import asyncio
import gc
import io
import os
import re
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

import django
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.wsgi import WSGIHandler
from django.db import connections
from django.http import HttpResponseBase

from guts_backend.access_log import install_access_log_filter
from guts_backend.dbpool import use_cheap_check

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guts_backend.settings")
os.environ.setdefault("GUTS_DB_POOL", "1")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# tables.audit.urls: table-stream; tournaments.urls: tournament-stream; tables.urls: me-stream
STREAM_PATH = re.compile(r"^/api/v1/(?:tables/[^/]+/stream|tournaments/[^/]+/stream|me/stream)/?$")
# Per worker process. With the streams' GUTS_SSE_READERS (4) it stays within the connection pool
# (GUTS_DB_POOL_SIZE, 10), so a request never waits for a connection another thread holds.
REQUEST_THREADS = int(os.environ.get("GUTS_REQUEST_THREADS", "6"))


def close_request_connections() -> None:
    """Close this thread's database connections (not inside a transaction: tests run in one)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


async def release_request_thread() -> None:
    """Close the request thread's connections and let the thread end (asgiref starts a new one if
    the request runs sync code again)."""
    await sync_to_async(close_request_connections)()
    context = SyncToAsync.thread_sensitive_context.get(None)
    executor = SyncToAsync.context_to_thread_executor.pop(context, None) if context is not None else None
    if executor is not None:
        executor.shutdown(wait=False)


class StreamingASGIHandler(ASGIHandler):
    """Django's ASGI handler; an async streaming response keeps no thread or connection."""

    async def send_response(self, response: HttpResponseBase, send: Any) -> None:
        if response.streaming and getattr(response, "is_async", False):
            await release_request_thread()
        await super().send_response(response, send)


Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


class Application:
    """The SSE streams through Django's ASGI handler; every other request through its WSGI handler
    on a pool thread, in one hop (see the module docstring)."""

    def __init__(self, threads: int = REQUEST_THREADS) -> None:
        from tables.api import long_poll  # needs the apps loaded: Django is set up by now

        self.streams = StreamingASGIHandler()
        self.wsgi = WSGIHandler()
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="guts-request")
        self.long_poll = long_poll

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or STREAM_PATH.match(scope["path"]):
            await self.streams(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:  # the client went away before it finished sending
            return
        environ = wsgi_environ(scope, body)
        environ[self.long_poll.LOOP] = True  # a long-poll waits on this loop, never on the thread
        status, headers, content = await self.answer(environ)
        wanted = environ.get(self.long_poll.WANTED)
        if wanted is not None:  # the view found nothing new and asks to wait (then asks again)
            if not await until_done_or_gone(self.long_poll.wait_on_loop(*wanted), receive):
                return  # the client went away while its long-poll waited
            again = io.BytesIO() if body.closed else body  # a GET's body: empty
            again.seek(0)
            environ = {**wsgi_environ(scope, again), self.long_poll.LOOP: True, self.long_poll.WAITED: True}
            status, headers, content = await self.answer(environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else content})

    async def answer(self, environ: dict[str, Any]) -> Answer:
        return await asyncio.get_running_loop().run_in_executor(self.threads, self.respond, environ)

    def respond(self, environ: dict[str, Any]) -> Answer:
        """The whole request on this thread: Django's handler, the response read out and closed
        (its close sends request_finished, which gives the thread's connection back to the pool)."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            started[:] = [status, headers]
            return lambda data: None

        result: Iterable[bytes] = self.wsgi(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (
            int(status.split(" ", 1)[0]),
            [(name.encode("latin-1"), value.strip().encode("latin-1")) for name, value in headers],
            content,
        )


async def until_done_or_gone(waiting: Awaitable[None], receive: Receive) -> bool:
    """Run `waiting` (a long-poll's wait, tables.api.long_poll) unless the client disconnects
    first; True if it ran to its end. The body has been read: the next message is the disconnect."""
    wait = asyncio.ensure_future(waiting)
    gone = asyncio.ensure_future(receive())
    try:
        await asyncio.wait({wait, gone}, return_when=asyncio.FIRST_COMPLETED)
        if wait.done():
            wait.result()
            return True
        if gone.result().get("type") == "http.disconnect":
            return False
        await wait
        return True
    finally:
        for task in (wait, gone):
            task.cancel()


async def read_body(receive: Receive) -> IO[bytes] | None:
    """The request body, spooled to disk past FILE_UPLOAD_MAX_MEMORY_SIZE as Django's ASGI handler
    does; None if the client disconnected first."""
    limit = settings.FILE_UPLOAD_MAX_MEMORY_SIZE
    body = tempfile.SpooledTemporaryFile(max_size=limit, mode="w+b")  # noqa: SIM115 - the request's
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            body.seek(0)
            return body


def wsgi_environ(scope: Scope, body: IO[bytes]) -> dict[str, Any]:
    """PEP 3333's environ for an ASGI HTTP scope (strings are latin-1 views of the raw bytes)."""
    root = scope.get("root_path", "")
    path = scope["path"]
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.removeprefix(root).encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin-1").lower()
        if "_" in name:  # X_Forwarded_For must not pass for X-Forwarded-For
            continue
        value = raw_value.decode("latin-1")
        key = {"content-type": "CONTENT_TYPE", "content-length": "CONTENT_LENGTH"}.get(
            name, "HTTP_" + name.upper().replace("-", "_")
        )
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def get_application() -> Application:
    django.setup(set_prefix=False)
    install_access_log_filter()
    use_cheap_check()
    app = Application()
    gc.collect()
    gc.freeze()  # start-up's objects are never garbage: keep them out of every later scan
    return app


application = get_application()
