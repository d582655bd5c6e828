"""Loading a table's decider state: latest snapshot + the events after it, behind a small cache.

DESIGN §2.5: a command must not refold the whole stream. Two layers keep the cost flat:

- `TableSnapshot` rows (written by the projector at deal boundaries) hold the state at a version;
  a load folds only the events after the latest one.
- An in-process cache holds the last state seen per table together with the version and the
  *hash* of the event it reflects. Events are immutable, but an append can roll back after the
  cache saw it (an outer transaction fails); the hash proves the cached version is the one now in
  the log: a load reads the stream from the cached version on and uses the cache only if that
  first row's hash matches. So the cache can never serve a rolled-back state.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ledger.store import StoredEvent, lock_and_read_head, read_stream
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import evolve
from tables.engine.decider.snapshot import state_from_json
from tables.engine.decider.state import TableState, initial_state
from tables.models import TableSnapshot

CACHE_SIZE = 2048           # tables whose latest state a process keeps


def table_stream(table_id: object) -> str:
    return f"table-{table_id}"


def table_id_of(stream: str) -> str:
    """'table-<uuid>' -> '<uuid>'."""
    return stream.removeprefix("table-")


@dataclass(frozen=True, slots=True)
class Loaded:
    """A table's state after `version` (0: no events), and that event's hash ('' at 0)."""

    state: TableState
    version: int
    hash: str


class Versioned(Protocol):
    @property
    def version(self) -> int: ...


L = TypeVar("L", bound=Versioned)


class StateCache(Generic[L]):
    """LRU of the latest loaded state per stream owner (a table, a tournament), shared by the
    threads of a process; never goes back to an older version."""

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


cache: StateCache[Loaded] = StateCache()


def fold_stored(state: TableState, events: list[StoredEvent]) -> TableState:
    for event in events:
        state = evolve(state, parse(event.type, event.data))
    return state


def load_table(table_id: str) -> Loaded:
    """The table's current state: the cache if it is provably current, else snapshot + tail."""
    stream = table_stream(table_id)
    cached = cache.get(table_id)
    if cached is not None and cached.version > 0:
        tail = read_stream(stream, from_version=cached.version)
        if tail and tail[0].version == cached.version and tail[0].hash == cached.hash:
            loaded = _folded(cached, tail[1:])
            cache.put(table_id, loaded)
            return loaded
    loaded = load_table_at(table_id, None)
    cache.put(table_id, loaded)
    return loaded


def load_table_locked(table_id: str, lock: tuple[int, int]) -> Loaded:
    """Take the table's command lock and load its current state: the lock and the head check are
    one round trip, and the cache serves the state when the head is the event it reflects."""
    version, digest = lock_and_read_head(lock, table_stream(table_id))
    cached = cache.get(table_id)
    if cached is not None and (cached.version, cached.hash) == (version, digest):
        return cached
    if version == 0:
        return Loaded(initial_state(), 0, "")
    return load_table(table_id)


def load_table_at(table_id: str, version: int | None) -> Loaded:
    """The state after `version` (None: the latest) from the latest snapshot at or before it."""
    snapshots = TableSnapshot.objects.filter(table_id=table_id)
    if version is not None:
        snapshots = snapshots.filter(version__lte=version)
    snapshot = snapshots.order_by("-version").values_list("version", "state").first()
    start = Loaded(initial_state(), 0, "")
    if snapshot is not None:
        start = Loaded(state_from_json(snapshot[1]), snapshot[0], "")
    tail = read_stream(table_stream(table_id), from_version=start.version + 1, to_version=version)
    if not tail and start.version > 0:   # the snapshot's own hash is needed for the cache
        head = read_stream(table_stream(table_id), from_version=start.version, to_version=start.version)
        return Loaded(start.state, start.version, head[0].hash if head else "")
    return _folded(start, tail)


def _folded(start: Loaded, tail: list[StoredEvent]) -> Loaded:
    if not tail:
        return start
    return Loaded(fold_stored(start.state, tail), tail[-1].version, tail[-1].hash)


def state_before(table_id: str, first: StoredEvent) -> TableState:
    """The state just before `first` (for the projector): the cache when it is exactly that."""
    if first.version == 1:
        return initial_state()
    cached = cache.get(table_id)
    if cached is not None and cached.version == first.version - 1 and cached.hash == first.prev_hash:
        return cached.state
    return load_table_at(table_id, first.version - 1).state
