"""Loading a table's decider state: latest snapshot + the events after it, behind a small cache.

DESIGN §2.5: a command must not refold the whole stream. `TableSnapshot` rows (written by the
projector at deal boundaries) hold the state at a version, so a load folds only the events after
the latest one; an in-process cache holds the last state seen per table with the version and
hash it reflects (never served unless the log still has that hash there). The loading itself is
the one stream loader, `ledger.streams.StreamKind`; this module says how table streams are named,
locked, folded and snapshotted.
"""

from __future__ import annotations

from ledger.store import StoredEvent
from ledger.streams import Loaded, StateCache, StreamKind
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import evolve
from tables.engine.decider.snapshot import state_from_json
from tables.engine.decider.state import TableState, initial_state
from tables.models import TableSnapshot

__all__ = [
    "TABLES",
    "Loaded",
    "StateCache",
    "cache",
    "fold_stored",
    "load_table",
    "load_table_at",
    "load_table_locked",
    "state_before",
    "table_id_of",
    "table_stream",
]

CACHE_SIZE = 2048  # tables whose latest state a process keeps
TABLE_LOCK_CLASS = 0x7461626C  # "tabl": first key of the per-table advisory locks


def table_stream(table_id: object) -> str:
    return f"table-{table_id}"


def table_id_of(stream: str) -> str:
    """'table-<uuid>' -> '<uuid>'."""
    return stream.removeprefix("table-")


def _evolve_stored(state: TableState, event: StoredEvent) -> TableState:
    return evolve(state, parse(event.type, event.data))


def _snapshot(table_id: str, version: int | None) -> tuple[int, TableState] | None:
    snapshots = TableSnapshot.objects.filter(table_id=table_id)
    if version is not None:
        snapshots = snapshots.filter(version__lte=version)
    row = snapshots.order_by("-version").values_list("version", "state").first()
    return None if row is None else (row[0], state_from_json(row[1]))


TABLES: StreamKind[TableState] = StreamKind(
    prefix="table-",
    lock_class=TABLE_LOCK_CLASS,
    initial=initial_state,
    evolve_stored=_evolve_stored,
    snapshot=_snapshot,
    cache_size=CACHE_SIZE,
)
cache: StateCache[Loaded[TableState]] = TABLES.cache


def fold_stored(state: TableState, events: list[StoredEvent]) -> TableState:
    return TABLES.fold_stored(state, events)


def load_table(table_id: str) -> Loaded[TableState]:
    """The table's current state: the cache if it is provably current, else snapshot + tail."""
    return TABLES.load(table_id)


def load_table_locked(table_id: str, lock: tuple[int, int] | None = None) -> Loaded[TableState]:
    """Take the table's command lock and load its current state (one round trip when cached)."""
    return TABLES.load_locked(table_id, lock)


def load_table_at(table_id: str, version: int | None) -> Loaded[TableState]:
    """The state after `version` (None: the latest) from the latest snapshot at or before it."""
    return TABLES.load_at(table_id, version)


def state_before(table_id: str, first: StoredEvent) -> TableState:
    """The state just before `first` (for the projector): the cache when it is exactly that."""
    return TABLES.state_before(table_id, first)
