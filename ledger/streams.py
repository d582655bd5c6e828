"""One loader for every kind of stream whose owner has a decider state (a table, a tournament,
later a dispute): cache, or latest snapshot + tail (DESIGN §2.5).

A `StreamKind` says how its streams are named, locked, folded and snapshotted; everything else is
here, once:

- `load`: the owner's current state, from an in-process cache when it provably holds the head
  (events are immutable, but an append can roll back after the cache saw it; the cache keeps the
  version *and hash* of the event it reflects and is used only if the log's head is that version
  with that hash, so it can never serve a rolled-back state), else the events after it when the
  log still has its event, else the latest snapshot and the events after it;
- `load_locked`: take the owner's command lock (held to commit) and read its head in one round
  trip; the cache serves the state when the head is the event it reflects;
- `load_at`: the state after a given version (audit, replay, the projector's fallback).

One fold per command: a command runner (ledger.runner) that appends what its decider decided
says so with `deciding(...)`; a projector of that stream then takes the decided events and the
state after them from `decided_for` instead of parsing and folding the stored events again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ledger.store import StoredEvent, lock_and_read_head, read_head, read_stream

S = TypeVar("S")
CACHE_SIZE = 2048


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    """An owner's state after `version` (0: no events), and that event's hash ('' at 0)."""

    state: S
    version: int
    hash: str


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


L = TypeVar("L", bound=Versioned)


class StateCache(Generic[L]):
    """LRU of the latest loaded state per stream owner, shared by the threads of a process; never
    goes back to an older version."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[str, L] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> L | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, loaded: L) -> None:
        with self._lock:
            current = self._items.get(key)
            if current is not None and current.version > loaded.version:
                return
            self._items[key] = loaded
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


Snapshot = Callable[[str, "int | None"], "tuple[int, Any] | None"]


def _no_snapshots(owner: str, version: int | None) -> None:
    return None


@dataclass(eq=False)
class StreamKind(Generic[S]):
    """How one kind of stream is named (`<prefix><owner>`), locked (an advisory lock of
    `lock_class`, keyed by the owner), folded and snapshotted."""

    prefix: str
    lock_class: int
    initial: Callable[[], S]
    evolve_stored: Callable[[S, StoredEvent], S]  # parse one stored event and fold it
    snapshot: Snapshot = _no_snapshots  # the latest (version, state) at or before
    cache_size: int = CACHE_SIZE
    cache: StateCache[Loaded[S]] = field(init=False)

    def __post_init__(self) -> None:
        self.cache = StateCache(self.cache_size)

    def stream(self, owner: object) -> str:
        return f"{self.prefix}{owner}"

    def owner(self, stream: str) -> str:
        return stream.removeprefix(self.prefix)

    def lock(self, owner: str) -> tuple[int, int]:
        """The owner's command lock: held to commit by every command on it, so they queue
        instead of clashing at append (other owners are not blocked)."""
        key = int.from_bytes(hashlib.sha256(owner.encode()).digest()[:4], "big", signed=True)
        return self.lock_class, key

    def fold_stored(self, state: S, events: Sequence[StoredEvent]) -> S:
        for event in events:
            state = self.evolve_stored(state, event)
        return state

    def load(self, owner: str) -> Loaded[S]:
        """The current state: the cache if it is provably current (the head alone is read, no
        event data), else snapshot + tail."""
        cached = self.cache.get(owner)
        if cached is not None and cached.version > 0 and self._is_head(owner, cached):
            return cached
        return self._refreshed(owner, cached)

    def _is_head(self, owner: str, cached: Loaded[S]) -> bool:
        return read_head(self.stream(owner)) == (cached.version, cached.hash)

    def _refreshed(self, owner: str, cached: Loaded[S] | None) -> Loaded[S]:
        """The state read from the log: the cache's and the events after it, when the log still
        has its event; else snapshot + tail."""
        if cached is not None and cached.version > 0:
            tail = read_stream(self.stream(owner), from_version=cached.version)
            if tail and tail[0].version == cached.version and tail[0].hash == cached.hash:
                loaded = self._folded(cached, tail[1:])
                self.cache.put(owner, loaded)
                return loaded
        loaded = self.load_at(owner, None)
        self.cache.put(owner, loaded)
        return loaded

    def load_locked(self, owner: str, lock: tuple[int, int] | None = None) -> Loaded[S]:
        """Take the owner's command lock and load its state: the lock and the head check are one
        round trip (BEGIN included), and the cache serves the state when the head is its event."""
        version, digest = lock_and_read_head(lock or self.lock(owner), self.stream(owner))
        cached = self.cache.get(owner)
        if cached is not None and (cached.version, cached.hash) == (version, digest):
            return cached
        if version == 0:
            return Loaded(self.initial(), 0, "")
        return self._refreshed(owner, cached)

    def load_at(self, owner: str, version: int | None) -> Loaded[S]:
        """The state after `version` (None: the latest) from the latest snapshot at or before it."""
        stream = self.stream(owner)
        snapshot = self.snapshot(owner, version)
        start: Loaded[S] = Loaded(self.initial(), 0, "")
        if snapshot is not None:
            start = Loaded(snapshot[1], snapshot[0], "")
        tail = read_stream(stream, from_version=start.version + 1, to_version=version)
        if not tail and start.version > 0:  # the snapshot's own hash is needed for the cache
            head = read_stream(stream, from_version=start.version, to_version=start.version)
            return Loaded(start.state, start.version, head[0].hash if head else "")
        return self._folded(start, tail)

    def state_before(self, owner: str, first: StoredEvent) -> S:
        """The state just before `first`: the cache when it is exactly that."""
        if first.version == 1:
            return self.initial()
        cached = self.cache.get(owner)
        if cached is not None and cached.version == first.version - 1 and cached.hash == first.prev_hash:
            return cached.state
        return self.load_at(owner, first.version - 1).state

    def _folded(self, start: Loaded[S], tail: Sequence[StoredEvent]) -> Loaded[S]:
        if not tail:
            return start
        return Loaded(self.fold_stored(start.state, tail), tail[-1].version, tail[-1].hash)


# --- one fold: what a runner decided, for the projectors of the same append --------------------------


@dataclass(frozen=True, slots=True)
class Decided:
    """The typed events a decider decided for one stream, the state before them and after them."""

    before: Loaded[Any]
    events: Sequence[Any]
    state: Any


_deciding: ContextVar[dict[str, Decided] | None] = ContextVar("ledger_streams_deciding", default=None)


@contextmanager
def deciding(stream: str, decided: Decided) -> Iterator[None]:
    """While appending `decided` to `stream`: projectors may take it from `decided_for`."""
    current = _deciding.get()
    token = _deciding.set({**(current or {}), stream: decided})
    try:
        yield
    finally:
        _deciding.reset(token)


def decided_for(events: Sequence[StoredEvent]) -> Decided | None:
    """What was decided for exactly these stored events of one stream (None if they are not an
    append of a runner's decision: a rebuild, a direct append)."""
    pending = _deciding.get()
    if not pending or not events:
        return None
    decided = pending.get(events[0].stream)
    if (
        decided is None
        or len(decided.events) != len(events)
        or events[0].version != decided.before.version + 1
    ):
        return None
    if any(typed.type != stored.type for typed, stored in zip(decided.events, events, strict=True)):
        return None
    return decided
