"""Password login, with failed attempts limited per username and per client address (docs/api.md).

Each scope counts failures in fixed windows of `GUTS_LOGIN_FAILURE_WINDOW` seconds. The failure
that brings the current and the previous window's count to the scope's limit locks the scope for
`GUTS_LOGIN_LOCKOUT` seconds (so any `limit` failures within one window's time lock it, wherever
the boundary falls). While locked, every login for that username (or from that address) answers
429 `throttled` with `Retry-After`, before any password is hashed. Other usernames keep logging
in (from the attacker's address too, until its own, higher limit), so one attacked account never
locks out the rest of the club.

State lives in Django's default cache, shared by every process (Redis in production, the
database cache in the embedded default). Counters live two windows, locks as long as the lockout.
While that cache is unreachable (Redis down), the throttle degrades to the database cache
(`login-fallback`, shared by every process too), with a warning in the log once per outage and
per process: logins keep working and keep being limited, counted afresh from the outage's start.
With the database down as well, the login is 503 `service_unavailable`, as every request is.
Racing requests can each pass the check before any of their failures is recorded, so a burst
overshoots a limit by at most the number of requests served at once.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from redis.exceptions import RedisError
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from http_edge.api.errors import Problem

KEY_PREFIX = "login-failures"
FALLBACK_CACHE = "login-fallback"  # settings.CACHES: the database cache
CACHE_UNREACHABLE = (RedisError, OSError)  # the shared cache down; a database error is a 503 instead
T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Scope:
    """One limited quantity: failures for a username, or from an address."""

    name: str  # "username" or "address"
    subject: str
    limit: int

    def key(self, suffix: str) -> str:
        # Hashed: usernames are user input, and cache keys must be short and plain.
        digest = hashlib.sha256(self.subject.encode()).hexdigest()[:32]
        return f"{KEY_PREFIX}:{self.name}:{digest}:{suffix}"


def login_with_password(*, request: Request, username: str, password: str) -> AbstractBaseUser:
    """The user these credentials name: 429 `throttled` while locked (checked before any password
    is hashed), 400 `invalid_credentials` on a failure, which counts towards the limits."""
    address = client_address(request)
    login_check_allowed(username=username, address=address)
    user = authenticate(request=request._request, username=username, password=password)
    if user is None:
        login_record_failure(username=username, address=address)
        raise Problem("invalid_credentials", "Unable to log in with the given username and password.")
    return user


def login_scopes(*, username: str, address: str) -> tuple[Scope, Scope]:
    return (
        Scope("username", username, settings.GUTS_LOGIN_FAILURES_PER_USERNAME),
        Scope("address", address, settings.GUTS_LOGIN_FAILURES_PER_ADDRESS),
    )


def client_address(request: Request) -> str:
    """The caller's address as DRF's throttles see it (REST_FRAMEWORK["NUM_PROXIES"])."""
    return BaseThrottle().get_ident(request) or "unknown"


def login_check_allowed(*, username: str, address: str, now: float | None = None) -> None:
    """Raise 429 `throttled` (with the seconds to wait) while the username or address is locked."""
    now = time.time() if now is None else now
    scopes = login_scopes(username=username, address=address)
    locks = with_throttle_cache(lambda cache: [cache.get(scope.key("locked")) for scope in scopes])
    for scope, locked_until in zip(scopes, locks, strict=True):
        if locked_until is not None and locked_until > now:
            raise Throttled(
                wait=math.ceil(locked_until - now), detail=f"Too many failed logins for this {scope.name}."
            )


def login_record_failure(*, username: str, address: str, now: float | None = None) -> None:
    """Count a failed login in both scopes; lock a scope whose count reaches its limit."""
    now = time.time() if now is None else now
    scopes = login_scopes(username=username, address=address)
    with_throttle_cache(lambda cache: _record_failure(cache, scopes, now))


def _record_failure(cache: BaseCache, scopes: tuple[Scope, Scope], now: float) -> None:
    window = settings.GUTS_LOGIN_FAILURE_WINDOW
    lockout = settings.GUTS_LOGIN_LOCKOUT
    for scope in scopes:
        # A key per window, so the count never depends on a TTL (the database cache's incr resets it).
        window_no = int(now // window)
        failures = count_one(cache, scope.key(f"window-{window_no}"), timeout=2 * window)
        failures += cache.get(scope.key(f"window-{window_no - 1}"), 0)
        if failures >= scope.limit:
            cache.set(scope.key("locked"), now + lockout, timeout=lockout)


def count_one(cache: BaseCache, key: str, *, timeout: int) -> int:
    """Add one to a counter (atomic on Redis); the new count."""
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired or culled between add and incr: start again
        cache.set(key, 1, timeout=timeout)
        return 1


def throttle_cache() -> BaseCache:
    return caches["default"]


class _Outage:
    """Whether this process found the shared cache unreachable last time, to log once per outage."""

    lock = threading.Lock()
    down = False

    @classmethod
    def seen(cls, down: bool, error: Exception | None = None) -> None:
        with cls.lock:
            changed, cls.down = cls.down != down, down
        if changed and down:
            log.warning(
                "login throttle degraded: the shared cache is unreachable (%r); counting failed "
                "logins in the database cache until it is back",
                error,
            )
        elif changed:
            log.warning("login throttle restored: counting failed logins in the shared cache again")


def with_throttle_cache(action: Callable[[BaseCache], T]) -> T:
    """`action` on the shared cache or, while it is unreachable, on the database cache."""
    try:
        result = action(throttle_cache())
    except CACHE_UNREACHABLE as error:
        _Outage.seen(True, error)
        return action(caches[FALLBACK_CACHE])
    if _Outage.down:
        _Outage.seen(False)
    return result
