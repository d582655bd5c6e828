"""Who a token speaks for, cached per process, so that a request resolves token -> user -> roles
without a database round trip in the common case (docs/api.md, "How fast revocation reaches").

`http_edge.tokens.token_authenticate` asks `principals` first: a bounded map in each process
from a token's digest to a `Principal` (the token row, the user's fields but the password, the
user's roles), filled by one query on a miss. What still beats a cached entry:

- **Expiry, exactly.** `expires_at` is in the entry and is compared with the clock on every request.
- **A change made in this process, at once.** Revoking or deleting a live token (logout, a club
  admin's revoke, the admin's delete), saving a user (deactivation, the superuser flag), granting
  or taking a role (a group's members, a group renamed or deleted) clears the cache when it happens
  and again when its transaction commits. Model signals notice them (connected by
  `GutsBackendConfig.ready`), so the admin's forms and bulk actions count as much as the services.
- **The same change in another process, within about a second.** After the commit a generation
  value in Django's shared cache (`CACHE_URL`) is replaced; every process reads it at most once
  every `GUTS_AUTH_CACHE_SYNC_SECONDS` (1) and clears its cache when it moved.
- **Anything else, within `GUTS_AUTH_CACHE_SECONDS` (5).** A change no signal sees (raw SQL,
  `QuerySet.update`) or a generation that could not be read or written (the shared cache down)
  waits for the entry's age limit. `GUTS_AUTH_CACHE_SECONDS=0` turns the cache off.

A load that races a clear is not stored: an entry is kept only if no clear happened since its query
began (`_epoch`), so a row read before a revocation committed cannot outlive the clear after it.
"""

from __future__ import annotations

import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.core.cache import cache as shared_cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, models, transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils import timezone
from redis.exceptions import RedisError

from http_edge.models import ApiToken
from http_edge.roles import roles_attach

log = logging.getLogger(__name__)

GENERATION_KEY = "auth-principals:generation"
# What the shared cache raises when it is unreachable: Redis's errors, the database cache's.
SHARED_CACHE_DOWN = (RedisError, DatabaseError, OSError)
_UNSEEN = object()


@functools.cache
def snapshot_fields(model: type[models.Model], leave_out: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The model's column attributes in their declared order, but `leave_out`."""
    return tuple(f.attname for f in model._meta.concrete_fields if f.attname not in leave_out)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A model row's values (`snapshot_fields` order), to build a fresh instance per request without
    a query. Fields left out (the password) are deferred: reading one loads it, `save()` skips it."""

    model: type[models.Model]
    fields: tuple[str, ...]
    values: tuple[Any, ...]

    def value(self, field: str) -> Any:
        return self.values[self.fields.index(field)]

    def build(self) -> Any:
        return self.model.from_db(DEFAULT_DB_ALIAS, self.fields, self.values)


@dataclass(frozen=True, slots=True)
class Principal:
    """A live or expired token as cached: the token row, its user and the user's roles."""

    token: Snapshot
    user: Snapshot
    roles: frozenset[str]
    expires_at: datetime
    is_active: bool

    def user_instance(self) -> AbstractBaseUser:
        """A new user object per request (never shared between requests), its roles attached."""
        return roles_attach(self.user.build(), self.roles)


@dataclass(frozen=True, slots=True)
class _Entry:
    principal: Principal
    loaded_at: float  # the clock when its query began


class PrincipalCache:
    """Token digest -> Principal, per process, bounded in size and age; see the module docstring."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[str, _Entry] = {}
        self._epoch = 0  # bumped by every clear
        self._generation: object = _UNSEEN  # the shared generation last read
        self._synced_at = float("-inf")

    def get(self, digest: str, *, load: Callable[[str], Principal | None]) -> Principal | None:
        """The principal of the token with `digest`, from this cache if fresh, else from `load`."""
        ttl = float(settings.GUTS_AUTH_CACHE_SECONDS)
        if ttl <= 0:
            return load(digest)
        now = self._clock()
        self._sync(now)
        entry = self._entries.get(digest)
        if entry is not None and now - entry.loaded_at < ttl:
            return entry.principal
        epoch = self._epoch
        principal = load(digest)
        if principal is not None:
            self._store(digest, _Entry(principal, now), epoch)
        return principal

    def clear(self) -> None:
        """Forget every entry, and refuse to store loads that began before now."""
        with self._lock:
            self._epoch += 1
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def _store(self, digest: str, entry: _Entry, epoch: int) -> None:
        with self._lock:
            if epoch != self._epoch:  # cleared while loading: the row may be stale
                return
            self._entries.pop(digest, None)
            while len(self._entries) >= int(settings.GUTS_AUTH_CACHE_SIZE):
                del self._entries[next(iter(self._entries))]  # the oldest first
            self._entries[digest] = entry

    def _sync(self, now: float) -> None:
        """Clear if another process changed a principal since the last look (at most one shared
        cache read per GUTS_AUTH_CACHE_SYNC_SECONDS)."""
        if now - self._synced_at < float(settings.GUTS_AUTH_CACHE_SYNC_SECONDS):
            return
        self._synced_at = now
        generation = generation_read()
        if generation is None:
            return  # unreadable: the age limit still bounds entries
        if generation != self._generation:
            self.clear()
            self._generation = generation


principals = PrincipalCache()


def generation_read() -> object | None:
    """The shared generation (a fresh value per change), "" if never set, None if unreadable."""
    try:
        return shared_cache.get(GENERATION_KEY, "")
    except SHARED_CACHE_DOWN:  # the documented bound is then the age limit
        log.warning("auth cache: cannot read the shared generation", exc_info=True)
        return None


def generation_bump() -> None:
    """Tell every process that a principal changed. A random value, not a counter: a plain set
    cannot lose a racing change the way a non-atomic increment (the database cache's) can."""
    try:
        shared_cache.set(GENERATION_KEY, secrets.token_hex(8), timeout=None)
    except SHARED_CACHE_DOWN:  # the change stands; other processes wait for the age limit
        log.warning("auth cache: cannot publish a change to other processes", exc_info=True)


def principals_invalidate() -> None:
    """A token, user or role changed: forget every principal here now, and again with every
    process's once the change commits (immediately outside a transaction)."""
    principals.clear()
    transaction.on_commit(_after_commit)


def _after_commit() -> None:
    principals.clear()
    generation_bump()


# Signals: every way a token, a user's flags or a role can change ---------------------------------


def _token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    # An expired token refuses itself from its entry; dropping it (a login does) changes nothing.
    if instance.expires_at > timezone.now():
        principals_invalidate()


def _user_saved(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    # A new user has no token yet; a session login's last_login and a rehashed password (neither
    # is cached) change nothing a token speaks for.
    if created or (update_fields is not None and set(update_fields) <= {"last_login", "password"}):
        return
    principals_invalidate()


def _memberships_changed(sender: Any, action: str, **kwargs: Any) -> None:
    if action in ("post_add", "post_remove", "post_clear"):
        principals_invalidate()


def _group_changed(sender: Any, created: bool = False, **kwargs: Any) -> None:
    if not created:
        principals_invalidate()


def connect_principal_invalidation() -> None:
    """Called by GutsBackendConfig.ready: each receiver clears the caches (see the docstring)."""
    user_model = get_user_model()
    uid = "http_edge.principal."
    post_delete.connect(_token_deleted, sender=ApiToken, dispatch_uid=uid + "token_deleted")
    post_save.connect(_user_saved, sender=user_model, dispatch_uid=uid + "user_saved")
    m2m_changed.connect(
        _memberships_changed, sender=user_model.groups.through, dispatch_uid=uid + "memberships_changed"
    )
    post_save.connect(_group_changed, sender=Group, dispatch_uid=uid + "group_saved")
    post_delete.connect(_group_changed, sender=Group, dispatch_uid=uid + "group_deleted")
