"""The one command runner: load, decide, append with the version loaded, retry on a clash, hooks.

Every stream owner with a decider (a table, a tournament, later a dispute) runs its commands
here (STYLE.md: a service loads, decides, appends, nothing else). One attempt, in one
transaction:

1. the fast path: when the command is its connection's own transaction and this process's cache
   holds the owner's state at an event known committed, decide on it without a lock or a read
   (the append below checks the head inside the transaction and refuses a moved one; a refusal or
   a decision to do nothing on that state is not trusted either: the attempt is retried);
   otherwise, and on every retry, take the owner's command lock and load its state
   (`StreamKind.load_locked`: one round trip, BEGIN included; the cache serves the state when it
   holds the head);
2. `decide(state, command, now)`: the decider's DomainError propagates as is. The decider returns
   a Decision: the events and, as `.state`, the state after them (folded once, inside the
   decider); nothing here folds them again;
3. `before_append(loaded, decided)`: what the caller must do in the same transaction first (a
   tournament carries its events out on its tables);
4. append the events to the owner's stream at the version loaded, with the caller's other writes
   (bankroll markers), without a savepoint (the attempt is retried whole); the projectors of the
   append take the decided events and state instead of folding again (`ledger.streams.deciding`),
   and the cache gets the state after them. When the attempt is its connection's own transaction,
   the append, the projections and the COMMIT go to PostgreSQL as one message
   (`dbapi.commit_with_append`), BEGIN included: a command on the fast path takes one round
   trip, one under the lock two;
5. on commit, the after-commit hooks with the stored events, the decided ones and the state.

A version clash (ConcurrencyError) reloads under the lock and re-decides up to `max_attempts`
times, then ConcurrencyConflict; with `expected_version` (a client's If-Match) a clash on the
owner's stream under the lock is `stale(expected, actual)` at once (on the fast path it only means
the cache was behind). An overdraft found by the balance projection is Overdraft.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from django.db import transaction

from ledger import dbapi
from ledger.errors import ConcurrencyConflict, Overdraft
from ledger.money import InsufficientFunds
from ledger.store import ConcurrencyError, NewEvent, StoredEvent, StreamWrite, append, is_committed
from ledger.streams import Decided, Loaded, StreamKind, deciding

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
MAX_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class Outcome(Generic[S]):
    """What a command did: the state and version after it, the events it appended to the owner's
    stream (stored) and as the decider decided them (typed)."""

    owner: str
    state: S
    version: int
    events: list[StoredEvent]
    decided: Sequence[Any]


Hook = Callable[[Outcome[Any]], None]


class Decision(Protocol[S_co]):
    """What a decider returns (tables.engine.decision.Decision): the events, and `state` after them."""

    @property
    def state(self) -> S_co: ...

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Any]: ...


Decide = Callable[[S, Any, datetime], Decision[S]]
ExtraWrites = Callable[[str, Loaded[S], Sequence[Any]], Sequence[StreamWrite]]


def _no_writes(owner: str, loaded: Loaded[Any], decided: Sequence[Any]) -> Sequence[StreamWrite]:
    return ()


@dataclass(eq=False)
class CommandRunner(Generic[S]):
    """Runs commands for the owners of one `StreamKind` (see the module docstring)."""

    kind: StreamKind[S]
    decide: Decide[S]
    new_event: Callable[[Any], NewEvent]  # a decided event as the store takes it
    unknown: Callable[[str], Exception]  # the owner has no stream yet
    stale: Callable[[int, int | None], Exception]  # not at the client's expected version
    extra_writes: ExtraWrites[S] = _no_writes
    what: str = "stream"  # for the ConcurrencyConflict message
    max_attempts: int = MAX_ATTEMPTS
    hooks: list[Hook] = field(default_factory=list)

    def execute(
        self,
        owner: str,
        command: Any,
        *,
        now: datetime,
        meta: Mapping[str, Any] | None = None,
        expected_version: int | None = None,
        new: bool = False,
        build: Callable[[Loaded[S]], Any] | None = None,
        before_append: Callable[[Loaded[S], Sequence[Any]], None] | None = None,
    ) -> Outcome[S]:
        """Run `command` (or `build(loaded)`'s, built from the state under the lock) on `owner`.
        `new`: the command creates the stream (otherwise a missing stream is `unknown`)."""
        stream = self.kind.stream(owner)
        fast = dbapi.may_commit_alone()
        for _ in range(self.max_attempts):
            try:
                with dbapi.commit_with_append(), transaction.atomic():  # its own: COMMIT with the append
                    return self._attempt(
                        owner,
                        command,
                        now,
                        dict(meta or {}),
                        expected_version,
                        new,
                        build,
                        before_append,
                        fast=fast,
                    )
            except ConcurrencyError as clash:
                if fast:  # the cache was behind: reload under the lock
                    fast = False
                    continue
                if expected_version is not None and clash.stream == stream:
                    raise self.stale(expected_version, clash.actual) from clash
        raise ConcurrencyConflict(
            f"The {self.what} changed concurrently {self.max_attempts} times; retry the request."
        )

    def _attempt(
        self,
        owner: str,
        command: Any,
        now: datetime,
        meta: dict[str, Any],
        expected_version: int | None,
        new: bool,
        build: Callable[[Loaded[S]], Any] | None,
        before_append: Callable[[Loaded[S], Sequence[Any]], None] | None,
        *,
        fast: bool,
    ) -> Outcome[S]:
        loaded = self._cached(owner, expected_version) if fast else None
        if loaded is None:
            loaded = self.kind.load_locked(owner)
        if loaded.version == 0 and not new:
            raise self.unknown(owner)
        if expected_version is not None and expected_version != loaded.version:
            raise self.stale(expected_version, loaded.version)
        stream = self.kind.stream(owner)
        try:
            if build is not None:
                command = build(loaded)
            decided = self.decide(loaded.state, command, now)
            if fast and not decided:
                raise ConcurrencyError(stream, loaded.version, None)
            if before_append is not None and decided:
                before_append(loaded, decided)
        except Exception as refused:
            if fast:  # a refusal of a state the cache may hold late: decide again under the lock
                raise ConcurrencyError(stream, loaded.version, None) from refused
            raise
        if not decided:
            return Outcome(owner, loaded.state, loaded.version, [], [])
        after = decided.state
        writes = [
            StreamWrite(stream, loaded.version, [self.new_event(e) for e in decided]),
            *self.extra_writes(owner, loaded, decided),
        ]
        try:
            with deciding(stream, Decided(loaded, decided, after)):
                stored = append(writes, meta=meta, savepoint=False)  # the attempt is retried whole
        except InsufficientFunds as exc:
            raise Overdraft(str(exc), account=exc.account, balance=exc.balance) from exc
        mine = [event for event in stored if event.stream == stream]
        self.kind.cache.put(owner, Loaded(after, mine[-1].version, mine[-1].hash))
        outcome = Outcome(owner, after, mine[-1].version, mine, decided)
        if self.hooks:
            transaction.on_commit(lambda: self.run_hooks(outcome))
        return outcome

    def _cached(self, owner: str, expected_version: int | None) -> Loaded[S] | None:
        """The fast path's state: the cache's, when the event it reflects is known committed (the
        cache also sees appends that later roll back) and is the version the client expects."""
        cached = self.kind.cache.get(owner)
        if cached is None or not is_committed(self.kind.stream(owner), cached.version, cached.hash):
            return None
        if expected_version is not None and expected_version != cached.version:
            return None  # stale or not, the lock and a read tell
        return cached

    def run_hooks(self, outcome: Outcome[S]) -> None:
        for hook in list(self.hooks):
            hook(outcome)
