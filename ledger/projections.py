"""Projections: folds from events to rows, run inline in the append transaction (DESIGN §2.5).

A projector subclasses `Projector`, names the event types it handles (None: every event), and
implements `apply_batch` (or `apply` for one event at a time) and `reset` (drop its rows; the
default empties the models it lists). Its app registers it with `register_projector` in its
AppConfig.ready(), never at import; the ledger's ready() also hands `run_inline` to the store
(`ledger.inline`), which calls it with the events it just inserted, inside the append's
transaction, so API reads see their own writes. (The store does not import this module: this
module reads the store's log to rebuild.)

Checkpoints (ProjectionCheckpoint): the position of the last event a projector applied. An
inline projector is current with the log by construction (it runs in the append's transaction),
so its checkpoint is bookkeeping, and it stays off the command path: an append notes the
positions in process memory, and `flush_checkpoints` writes them, at most every
CHECKPOINT_FLUSH_SECONDS after a commit, in a statement of its own outside any command's
transaction, the rows in name order. Written inside the append, every command of the system
would queue on the same few rows until its commit, and a transaction that appends twice (a
tournament's) locked them in a different order than a single append: a deadlock (DESIGN §2.3:
one lock order). A rebuild saves every projector's checkpoint at the end of each batch. A
projector registered after events were appended sees only new ones: rebuild to give it the
history.

`rebuild_all` throws every projection away and replays the whole log in batches; projectors run
with `live=False` then, so history is applied as the facts it is (policies such as the debt
check only guard new appends).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from django.db import connection, models, transaction

from ledger import dbapi, registry, store
from ledger.accounts import UNIT_CHIPS
from ledger.dbapi import Balances
from ledger.models import AccountBalance, AccountEntry, ProjectionCheckpoint
from ledger.money import InsufficientFunds, may_go_negative
from ledger.store import StoredEvent

# Work left for after a batch's statements reached the database; it may report balances.
Deferred = Callable[[], Balances | None]

REBUILD_BATCH = 5000
CHECKPOINT_FLUSH_SECONDS = 5.0


class Projector(ABC):
    """Base class. Subclasses set `name`, `handles`, `models` and implement apply_batch (or derive
    from EventProjector and implement apply, one event at a time)."""

    name: ClassVar[str]
    handles: ClassVar[frozenset[str] | None] = None  # event types; None means every event
    models: ClassVar[tuple[type[models.Model], ...]] = ()
    stream_prefix: ClassVar[str | None] = None  # if set, it wants only these streams
    # It can write through `dbapi.execute`/`apply_moves` into a one-message append (ledger.dbapi
    # Message): it reads nothing the append changes before the COMMIT and needs no positions.
    # Otherwise an append it wants is sent the usual way.
    joins_message: ClassVar[bool] = False

    def wants(self, event: StoredEvent) -> bool:
        return self.handles is None or event.type in self.handles

    @abstractmethod
    def apply_batch(self, events: Sequence[StoredEvent], *, live: bool) -> Deferred | None:
        """Apply events (already filtered by `wants`) in position order. May return a check to run
        once the batch's statements have reached the database (they are sent together: one round
        trip for every projector and the checkpoints); the check may raise to roll back, and may
        return the balances the batch left on the accounts it moved (the balance projector does:
        the append hands them to its caller, so nobody reads them again)."""

    def reset(self) -> None:
        """Drop everything this projector built."""
        truncate(*self.models)

    def rebuild_in_sql(self) -> bool:
        """Rebuild from the whole log without Python replay, if this backend allows; True if done."""
        return False


class EventProjector(Projector):
    """A projector that folds one event at a time."""

    @abstractmethod
    def apply(self, event: StoredEvent, *, live: bool) -> None:
        """Fold one event into the read model."""

    def apply_batch(self, events: Sequence[StoredEvent], *, live: bool) -> Deferred | None:
        for event in events:
            self.apply(event, live=live)
        return None


_projectors: dict[str, Projector] = {}


def register_projector(projector: Projector) -> Projector:
    """Run `projector` inline from now on (re-registering a name replaces the old one)."""
    _projectors[projector.name] = projector
    return projector


def unregister_projector(name: str) -> None:
    _projectors.pop(name, None)


def registered_projectors() -> list[Projector]:
    return list(_projectors.values())


def run_inline(events: Sequence[StoredEvent]) -> Balances:
    """Apply freshly appended events to every projector; called by append inside its transaction.

    Every projector's writes go to the database in one pipeline (one round trip on PostgreSQL);
    the projectors' deferred checks (the debt policy) run once it has synced. The checkpoints are
    noted, not written (see the module docstring). Returns the balances the events left on the
    accounts they moved."""
    with dbapi.pipeline():
        finish = apply_inline(events)
    return finish(events)


def collect_inline(events: Sequence[StoredEvent]) -> Callable[[Sequence[StoredEvent]], Balances] | None:
    """`apply_inline` into a one-message append, or None (nothing done) if a projector that wants
    these events cannot join one (`Projector.joins_message`)."""
    if any(
        not projector.joins_message and any(projector.wants(event) for event in events)
        for projector in _projectors.values()
    ):
        return None
    return apply_inline(events)


def apply_inline(events: Sequence[StoredEvent]) -> Callable[[Sequence[StoredEvent]], Balances]:
    """Run every projector on the events and return what finishes the job once their statements
    have reached the database: the deferred checks, then the checkpoints noted with the events'
    final positions (a one-message append learns them only then: `ledger.dbapi.Message`)."""
    wanting: list[tuple[str, int]] = []
    checks: list[Deferred] = []
    for projector in _projectors.values():
        wanted = [index for index, event in enumerate(events) if projector.wants(event)]
        if wanted:
            check = projector.apply_batch([events[index] for index in wanted], live=True)
            if check is not None:
                checks.append(check)
            wanting.append((projector.name, wanted[-1]))

    def finish(final: Sequence[StoredEvent]) -> Balances:
        balances: Balances = {}
        for check in checks:
            balances.update(check() or {})
        _checkpoints.note({name: final[index].position for name, index in wanting})
        return balances

    return finish


class _Checkpoints:
    """The positions inline projectors reached in this process, not yet written (module docstring).
    A position noted in a transaction that then rolls back names an event that never was: later
    events have greater positions, so the checkpoint only runs ahead of a gap, never behind."""

    def __init__(self) -> None:
        self.pending: dict[str, int] = {}
        self.flushed_at = time.monotonic()
        self.lock = threading.Lock()

    def note(self, advanced: dict[str, int]) -> None:
        if not advanced:
            return
        with self.lock:
            for name, position in advanced.items():
                if position > self.pending.get(name, 0):
                    self.pending[name] = position
        if time.monotonic() - self.flushed_at >= CHECKPOINT_FLUSH_SECONDS:
            transaction.on_commit(flush_checkpoints)

    def take(self) -> dict[str, int]:
        with self.lock:
            taken, self.pending = self.pending, {}
            self.flushed_at = time.monotonic()
            return taken

    def forget(self) -> None:
        with self.lock:
            self.pending = {}


_checkpoints = _Checkpoints()


def flush_checkpoints() -> None:
    """Write the checkpoints noted in this process, in name order, never moving one back; in a
    statement of its own (autocommit) or, inside a transaction, as the last thing it does."""
    positions = _checkpoints.take()
    if positions:
        dbapi.save_checkpoints(dict(sorted(positions.items())), forward_only=True)


def checkpoint(name: str) -> int:
    """The last position projector `name` applied (0 if none)."""
    flush_checkpoints()
    row = ProjectionCheckpoint.objects.filter(name=name).values_list("position", flat=True).first()
    return row or 0


def truncate(*model_classes: type[models.Model]) -> None:
    """Empty tables fast: TRUNCATE on PostgreSQL, DELETE elsewhere."""
    if not model_classes:
        return
    tables = [connection.ops.quote_name(model._meta.db_table) for model in model_classes]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
        else:
            for table in tables:
                cursor.execute(f"DELETE FROM {table}")


# --- rebuild --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RebuildReport:
    events: int
    seconds: float
    projectors: list[str]

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]


def rebuild_all(*, batch_size: int = REBUILD_BATCH, progress: Progress | None = None) -> RebuildReport:
    """Reset every registered projection and replay the log from position 0, in one transaction.

    Blocks appends throughout (`store.lock_appends`), so none interleaves and the log can be read
    in plain position order; readers keep seeing the old projections until the rebuild commits.
    """
    started = time.perf_counter()
    projectors = registered_projectors()
    total = done = 0
    with transaction.atomic():
        store.lock_appends()
        total = store.count_events()
        for projector in projectors:
            projector.reset()
        truncate(ProjectionCheckpoint)
        _checkpoints.forget()
        in_sql = [projector for projector in projectors if projector.rebuild_in_sql()]
        replayed = [projector for projector in projectors if projector not in in_sql]
        prefixes = {projector.stream_prefix for projector in replayed}
        prefix = prefixes.pop() if len(prefixes) == 1 else None  # one prefix: read only those
        position = 0
        while replayed and (
            batch := store.read_all(after=position, limit=batch_size, stream_prefix=prefix, settled=False)
        ):
            _replay(replayed, batch)
            position = batch[-1].position
            if progress:
                progress(min(position, total), total)
        last = store.last_position()
        if last:
            dbapi.save_checkpoints(dict.fromkeys([projector.name for projector in projectors], last))
        done = total
        if progress:
            progress(total, total)
    return RebuildReport(done, time.perf_counter() - started, [p.name for p in projectors])


def _replay(projectors: list[Projector], batch: list[StoredEvent]) -> None:
    for projector in projectors:
        wanted = [event for event in batch if projector.wants(event)]
        if wanted and (check := projector.apply_batch(wanted, live=False)) is not None:
            check()
    dbapi.save_checkpoints(dict.fromkeys([projector.name for projector in projectors], batch[-1].position))


# --- the ledger's own projector: balances and statements ------------------------------------------


class BalanceProjector(Projector):
    """AccountBalance (one row per account and unit) and AccountEntry (statement lines).

    Each transfer is two moves (out of the source, into the target); `dbapi.apply_moves` applies a
    whole batch at once and reports the moved accounts' new balances. When live, a move that
    leaves an account below zero that may not go negative raises InsufficientFunds, which rolls
    back the append. Stored transfers were validated when appended, so replay reads them without
    re-validating.
    """

    name = "ledger.balances"
    models = (AccountBalance, AccountEntry)
    joins_message = True

    def wants(self, event: StoredEvent) -> bool:
        return bool(event.data.get("transfers"))

    def rebuild_in_sql(self) -> bool:
        if not dbapi.on_postgres() or registry.any_upcasters():
            return False
        dbapi.rebuild_balances()
        return True

    def apply_batch(self, events: Sequence[StoredEvent], *, live: bool) -> Deferred:
        moves: list[dbapi.Move] = []
        for event in events:
            where = (event.position, event.stream, event.type, event.recorded_at)
            for transfer in event.data["transfers"]:
                source, target, amount = transfer["from"], transfer["to"], transfer["amount"]
                unit, reason = transfer.get("unit", UNIT_CHIPS), transfer["reason"]
                moves.append((source, unit, -amount, *where, target, reason, event.version))
                moves.append((target, unit, amount, *where, source, reason, event.version))
        refuse = None
        if live and dbapi.is_collecting():  # the COMMIT goes with the statement: refuse in SQL
            refuse = sorted({move[0] for move in moves if move[2] < 0 and not may_go_negative(move[0])})
        applied = dbapi.apply_moves(moves, refuse)

        def hold_to_policy() -> Balances:
            overdrafts, balances = applied()
            for account, unit, amount, balance_after in overdrafts:
                if live and not may_go_negative(account):
                    raise InsufficientFunds(account, unit, balance_after - amount, -amount)
            return balances

        return hold_to_policy
