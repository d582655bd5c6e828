"""The connection pool's health check, without a query per request (`use_cheap_check`).

psycopg's pool runs its `check` on every connection it hands out; Django's (CONN_HEALTH_CHECKS)
is an empty query, one round trip before every request. A connection the database dropped tells
on itself without one: a terminated backend sends its FATAL error and closes the socket, so the
idle connection's socket is readable. So a connection is queried only when its socket has
something to say, or when it sat idle long enough that a silent network failure is possible;
the pool discards one that fails and hands out another (or a new one), so a request never gets a
connection that is already dead. A connection that breaks during a request is a 503 for that
request (guts_backend.handlers) and is discarded when it goes back to the pool.
"""

from __future__ import annotations

import select
import time
import weakref

import psycopg
from django.db import connections
from psycopg_pool import ConnectionPool

IDLE_CHECK_SECONDS = 30.0  # idle longer than this: ask the server (a dropped route is silent)

_checked: weakref.WeakKeyDictionary[psycopg.Connection, float] = weakref.WeakKeyDictionary()


def check_connection(conn: psycopg.Connection) -> None:
    """Raise if `conn` is dead: free when the socket is quiet and the connection recently worked."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    now = time.monotonic()
    readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    if readable or now - _checked.get(conn, 0.0) > IDLE_CHECK_SECONDS:
        ConnectionPool.check_connection(conn)
    _checked[conn] = now


def use_cheap_check() -> bool:
    """Make the default database's pool (if it has one) check connections with `check_connection`
    instead of Django's query per checkout (CONN_HEALTH_CHECKS; Django passes the pool no other
    check, so it is set on the pool it built). True if there is a pool."""
    pool = getattr(connections["default"], "pool", None)
    if pool is None:
        return False
    if not hasattr(pool, "_check"):
        raise RuntimeError("psycopg_pool.ConnectionPool keeps its check elsewhere now: update dbpool")
    pool._check = check_connection
    return True
