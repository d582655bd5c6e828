"""ASGI entry point of the web service: `gunicorn -k uvicorn_worker.UvicornWorker
guts_backend.asgi:application` (docker-compose.yml) or `uvicorn guts_backend.asgi:application`
(`manage.py serve`).

What it adds to Django's handler, all for serving many long-lived SSE streams (docs/audit.md):

- Django runs a request's sync code (middleware, DRF views, signals) on a thread of the request's
  own, kept until the response is finished, with that thread's database connection. For a stream
  open 300 s that would be an idle thread and an idle connection per stream. `StreamingASGIHandler`
  closes the request's connections and lets the thread go once an async streaming response is
  ready: the sync work is done by then, and the bit at the end (`request_finished`) gets a new one.
- Since every request gets a new thread, per-thread persistent connections would be new
  connections per request: the process uses a connection pool instead (`GUTS_DB_POOL`, set here
  before the settings are read; see guts_backend/settings.py).
- Access logs never record query strings (guts_backend.access_log): `?ticket=` and `?token=` are
  credentials.
"""
from __future__ import annotations

import os
from typing import Any

import django
from asgiref.sync import SyncToAsync, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpResponseBase

from guts_backend.access_log import install_access_log_filter

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "guts_backend.settings")
os.environ.setdefault("GUTS_DB_POOL", "1")


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


def get_application() -> StreamingASGIHandler:
    django.setup(set_prefix=False)
    install_access_log_filter()
    return StreamingASGIHandler()


application = get_application()
