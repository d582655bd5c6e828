"""The tables application service: load the state, decide, append. Nothing else (STYLE.md).

Every command goes through `execute(table_id, command, now=, meta=, expected_version=)`:

1. take the table's transaction lock (PostgreSQL: an advisory lock per table, so concurrent
   commands on one table queue instead of clashing; tables never block each other);
2. load the state (`tables.state`: cache or latest snapshot + tail, DESIGN §2.5);
3. `decide(state, command, now)`; a DomainError becomes a Problem via `PROBLEM_STATUS`;
4. append to `table-<uuid>` with the version loaded, plus a marker event (no transfers) on
   `player-<pk>` for every bankroll the events move money for (buy-in, cash-out, close), with
   that stream's version, so bankroll movements serialise with the cashier's (DESIGN §2.3);
5. on commit, run the after-commit hooks (`register_after_commit`) with the stored events (the
   timers engineer schedules Celery tasks there; DESIGN §2.8: never for a rolled-back window).

A version clash (ConcurrencyError) reloads and re-decides up to MAX_ATTEMPTS times, then 409
`concurrency_conflict`. With `expected_version` (the client's If-Match) there is no retry: a table
not at that version is 412 `stale_version`, checked against the version loaded under the lock and
again by the append itself. The seed of every deal is drawn here (`deck.new_seed`), never in the
decider; stacked decks only when settings.GUTS_ALLOW_STACKED_DECKS.
"""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from guts_backend.problems import Problem, document_problem
from ledger import dbapi
from ledger.accounts import account_kind, transfers_of
from ledger.money import InsufficientFunds
from ledger.selectors import player_stream
from ledger.store import ConcurrencyError, NewEvent, StoredEvent, StreamWrite, append, stream_version
from tables.engine.decider import commands as cmd
from tables.engine.decider.decide import decide
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import Event
from tables.engine.decider.state import TableState
from tables.engine.decider.visibility import secret_keys
from tables.engine.deck import new_seed
from tables.state import Loaded, cache, fold_stored, load_table_locked, table_stream

MAX_ATTEMPTS = 5
TABLE_LOCK_CLASS = 0x7461626C             # "tabl": first key of the per-table advisory locks
BANKROLL_MARKER = "TableBankrollMoved"    # on player-<pk>: the table event that moved the bankroll

# THE mapping from error codes (engine DomainError codes and the service's own) to HTTP statuses,
# with an example detail for the OpenAPI problem catalogue. docs/api.md reproduces this table.
PROBLEM_STATUS: dict[str, tuple[int, str]] = {
    "invalid_option": (400, "invalid value for option ante: -5"),
    "unknown_variant": (400, "unknown variant: 'guts9'"),
    "invalid_amount": (400, "the buy-in must be between 100 and any"),
    "invalid_card": (400, "not a card: 'Zz'"),
    "invalid_choice": (400, "declare 'in' or 'out', not 'maybe'"),
    "invalid_seed": (400, "a deal on an unstacked table needs a seed"),
    "stacked_decks_not_allowed": (400, "stacked decks are switched off"),
    "not_seated": (403, "7 is not seated at this table"),
    "unknown_table": (404, "No table 6f1c0c52-0000-4000-8000-000000000000."),
    "not_your_turn": (409, "it is not 7's turn to declare"),
    "deal_over": (409, "deal 3 is over"),
    "wrong_deal": (409, "deal 9 is not the live deal 4"),
    "deal_in_progress": (409, "a deal is in progress"),
    "no_deal": (409, "no deal is in progress"),
    "already_declared": (409, "7 has declared"),
    "already_passed": (409, "7 has passed a card"),
    "not_enough_players": (409, "a deal needs two players who can play"),
    "insufficient_stack": (409, "the stack cannot cover a loss in this deal"),
    "liability_open": (409, "7 is dealt into deal 4"),
    "table_closed": (409, "the table is not open"),
    "table_full": (409, "every seat is taken"),
    "already_seated": (409, "7 is already seated"),
    "already_sitting_out": (409, "7 is already sitting out"),
    "not_sitting_out": (409, "7 is not sitting out"),
    "table_already_open": (409, "the table is already open"),
    "insufficient_funds": (409, "player:7 holds 100 chips; cannot pay 250."),
    "concurrency_conflict": (409, "The table changed concurrently 5 times; retry the request."),
    "stale_version": (412, "The table is at version 12, not 10 (If-Match)."),
}
for _code, (_status, _example) in PROBLEM_STATUS.items():
    document_problem(_code, _status, _example)

PROBLEM_MEMBERS = frozenset({"type", "title", "status", "code", "detail"})   # never overwritten by details

AfterCommit = Callable[[str, list[StoredEvent]], None]
_after_commit: list[AfterCommit] = []


def register_after_commit(fn: AfterCommit) -> AfterCommit:
    """Run `fn(table_id, stored_table_events)` after every committed command that appended events."""
    if fn not in _after_commit:
        _after_commit.append(fn)
    return fn


def registered_after_commit() -> list[AfterCommit]:
    return list(_after_commit)


def unregister_after_commit(fn: AfterCommit) -> None:
    if fn in _after_commit:
        _after_commit.remove(fn)


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command did: the table's state and version after it, and the events it appended."""

    table_id: str
    state: TableState
    version: int
    events: list[StoredEvent]


def problem_of(error: DomainError) -> Problem:
    """The problem for an engine error. A code missing from the table is a 409 rather than a 500
    (a test checks that the table covers every code the engine declares)."""
    status, _ = PROBLEM_STATUS.get(error.code, (409, ""))
    extra = {k: v for k, v in error.detail.items() if k not in PROBLEM_MEMBERS}
    return Problem(error.code, str(error), status=status, **extra)


def _stale(table_id: str, expected: int, actual: int | None) -> Problem:
    found = f"at version {actual}" if actual is not None else "changed"
    return Problem("stale_version", f"The table is {found}, not {expected} (If-Match).", status=412,
                   current_version=actual)


# --- the one command path --------------------------------------------------------------------------

def execute(table_id: str, command: cmd.Command, *, now: datetime | None = None,
            meta: Mapping[str, Any] | None = None, expected_version: int | None = None,
            extra_writes: Sequence[StreamWrite] = ()) -> CommandResult:
    """Load, decide, append (one transaction per attempt); see the module docstring."""
    table_id = canonical_table_id(table_id)
    for _ in range(MAX_ATTEMPTS):
        try:
            with transaction.atomic():
                return _attempt(table_id, command, now or timezone.now(), dict(meta or {}),
                                expected_version, extra_writes)
        except ConcurrencyError as clash:
            if expected_version is not None and clash.stream == table_stream(table_id):
                raise _stale(table_id, expected_version, clash.actual) from clash
    raise Problem("concurrency_conflict",
                  f"The table changed concurrently {MAX_ATTEMPTS} times; retry the request.", status=409)


def _attempt(table_id: str, command: cmd.Command, now: datetime, meta: dict[str, Any],
             expected_version: int | None, extra_writes: Sequence[StreamWrite]) -> CommandResult:
    loaded = load_table_locked(table_id, table_lock(table_id))     # one round trip, BEGIN included
    if loaded.version == 0 and not isinstance(command, cmd.OpenTable):
        raise unknown_table(table_id)
    if expected_version is not None and expected_version != loaded.version:
        raise _stale(table_id, expected_version, loaded.version)
    try:
        decided = decide(loaded.state, command, now)
    except DomainError as error:
        raise problem_of(error) from error
    if not decided:
        return CommandResult(table_id, loaded.state, loaded.version, [])
    stored = _append(table_id, loaded, decided, meta, extra_writes)
    table_events = [e for e in stored if e.stream == table_stream(table_id)]
    after = _state_after(table_id, loaded, table_events)
    if _after_commit:
        transaction.on_commit(lambda: run_after_commit(table_id, table_events))
    return CommandResult(table_id, after, table_events[-1].version, table_events)


def table_lock(table_id: str) -> tuple[int, int]:
    """The table's advisory lock, held by every command until its transaction ends (commands on
    one table queue there instead of clashing at append; other tables are not blocked). SQLite
    already serialises writers at BEGIN IMMEDIATE."""
    key = int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big", signed=True)
    return TABLE_LOCK_CLASS, key


def lock_table(table_id: str) -> None:
    """Take the table's lock (`table_lock`) without loading it."""
    if not dbapi.on_postgres():
        return
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(table_lock(table_id)))


def _append(table_id: str, loaded: Loaded, decided: list[Event], meta: dict[str, Any],
            extra_writes: Sequence[StreamWrite]) -> list[StoredEvent]:
    new_events = [NewEvent(e.type, e.data, secret_keys(e.type, e.data)) for e in decided]   # §2.6
    writes = [StreamWrite(table_stream(table_id), loaded.version, new_events),
              *bankroll_markers(table_id, loaded.version, decided), *extra_writes]
    try:
        return append(writes, meta=meta, savepoint=False)     # `execute` retries the whole attempt
    except InsufficientFunds as exc:
        raise Problem("insufficient_funds", str(exc), status=409, account=exc.account,
                      balance=exc.balance) from exc


def bankroll_markers(table_id: str, version: int, decided: list[Event]) -> list[StreamWrite]:
    """One marker event per bankroll the decided events move chips for, on `player-<pk>` with its
    current version: a concurrent cashier operation on that bankroll then clashes and re-checks."""
    moved: dict[str, int] = {}
    causes: dict[str, list[str]] = {}
    for offset, event in enumerate(decided, start=1):
        for transfer in transfers_of(event.data):
            for account, sign in ((transfer.source, -1), (transfer.target, 1)):
                if account_kind(account) == "player":
                    player = account.split(":", 1)[1]
                    moved[player] = moved.get(player, 0) + sign * transfer.amount
                    causes.setdefault(player, []).append(f"{event.type}@{version + offset}")
    writes = []
    for player, amount in moved.items():
        stream = player_stream(int(player))
        marker = NewEvent(BANKROLL_MARKER, {"table_id": table_id, "player_id": int(player),
                                            "amount": amount, "events": sorted(set(causes[player]))})
        writes.append(StreamWrite(stream, stream_version(stream), [marker]))
    return writes


def _state_after(table_id: str, loaded: Loaded, table_events: list[StoredEvent]) -> TableState:
    """The projector folded these events and cached the result; fold here if it did not."""
    last = table_events[-1]
    cached = cache.get(table_id)
    if cached is not None and cached.version == last.version and cached.hash == last.hash:
        return cached.state
    return fold_stored(loaded.state, table_events)


def run_after_commit(table_id: str, events: list[StoredEvent]) -> None:
    for fn in list(_after_commit):
        fn(table_id, events)


def canonical_table_id(table_id: object) -> str:
    """The table id as the streams spell it; 404 unknown_table if it is not a UUID."""
    try:
        return str(uuid.UUID(str(table_id)))
    except ValueError:
        raise unknown_table(str(table_id)) from None


def unknown_table(table_id: str) -> Problem:
    return Problem("unknown_table", f"No table {table_id}.", status=404)


# --- the commands ----------------------------------------------------------------------------------

def table_open(*, variant: str, options: Mapping[str, Any] | None = None,
               stacked_decks: list[list[str]] | None = None, now: datetime | None = None,
               meta: Mapping[str, Any] | None = None) -> CommandResult:
    """Open a new table (a new stream). Stacked decks only when the setting allows them."""
    table_id = str(uuid.uuid4())
    command = cmd.OpenTable(table_id=table_id, variant=variant, options=dict(options or {}),
                            stacked_decks=stacked_decks,
                            stacked_allowed=bool(settings.GUTS_ALLOW_STACKED_DECKS))
    return execute(table_id, command, now=now, meta=meta)


def table_sit_down(*, table_id: str, player_id: int, buy_in: int, now: datetime | None = None,
                   meta: Mapping[str, Any] | None = None,
                   expected_version: int | None = None) -> CommandResult:
    """Take the lowest free seat, buying in from the bankroll (409 insufficient_funds beyond it)."""
    return execute(table_id, cmd.SitDown(str(player_id), buy_in), now=now, meta=meta,
                   expected_version=expected_version)


def table_top_up(*, table_id: str, player_id: int, amount: int, now: datetime | None = None,
                 meta: Mapping[str, Any] | None = None,
                 expected_version: int | None = None) -> CommandResult:
    return execute(table_id, cmd.TopUp(str(player_id), amount), now=now, meta=meta,
                   expected_version=expected_version)


def table_leave(*, table_id: str, player_id: int, now: datetime | None = None,
                meta: Mapping[str, Any] | None = None,
                expected_version: int | None = None) -> CommandResult:
    """Leave the table: the stack goes back to the bankroll (a debt is settled from it)."""
    return execute(table_id, cmd.Leave(str(player_id)), now=now, meta=meta,
                   expected_version=expected_version)


def table_sit_out(*, table_id: str, player_id: int, now: datetime | None = None,
                  meta: Mapping[str, Any] | None = None,
                  expected_version: int | None = None) -> CommandResult:
    """Keep the seat and stack but skip the coming deals (a live deal he is in plays on)."""
    return execute(table_id, cmd.SitOut(str(player_id)), now=now, meta=meta,
                   expected_version=expected_version)


def table_sit_in(*, table_id: str, player_id: int, now: datetime | None = None,
                 meta: Mapping[str, Any] | None = None,
                 expected_version: int | None = None) -> CommandResult:
    """Be dealt in again from the next deal."""
    return execute(table_id, cmd.SitIn(str(player_id)), now=now, meta=meta,
                   expected_version=expected_version)


def table_close(*, table_id: str, now: datetime | None = None, meta: Mapping[str, Any] | None = None,
                expected_version: int | None = None) -> CommandResult:
    """Close the table (D-GEN-07): pot and reserve shared among the seated, everyone cashed out."""
    return execute(table_id, cmd.CloseTable(), now=now, meta=meta, expected_version=expected_version)


def deal_start(*, table_id: str, by_player_id: int | None = None, now: datetime | None = None,
               meta: Mapping[str, Any] | None = None,
               expected_version: int | None = None) -> CommandResult:
    """Start the next deal with a fresh secret seed (its commitment is published, DESIGN §2.7)."""
    by = str(by_player_id) if by_player_id is not None else None
    return execute(table_id, cmd.StartDeal(by_player_id=by, seed=new_seed()), now=now, meta=meta,
                   expected_version=expected_version)


def deal_declare(*, table_id: str, player_id: int, deal_no: int, choice: str,
                 now: datetime | None = None, meta: Mapping[str, Any] | None = None,
                 expected_version: int | None = None) -> CommandResult:
    """Declare in or out; the decider rejects a stale deal number (deal_over / wrong_deal)."""
    return execute(table_id, cmd.Declare(str(player_id), deal_no, choice), now=now, meta=meta,
                   expected_version=expected_version)


def deal_pass(*, table_id: str, player_id: int, deal_no: int, card: str,
              now: datetime | None = None, meta: Mapping[str, Any] | None = None,
              expected_version: int | None = None) -> CommandResult:
    """AO-06 pass_right: pass one card to the player on the right while everyone is out."""
    return execute(table_id, cmd.PassCard(str(player_id), deal_no, card), now=now, meta=meta,
                   expected_version=expected_version)


def deal_expire(*, table_id: str, deal_no: int, now: datetime | None = None,
                meta: Mapping[str, Any] | None = None) -> CommandResult:
    """The timer's command: time out the open turn/window if it is overdue at `now`; otherwise
    nothing is appended (idempotent, safe under duplicate delivery, DESIGN §2.8)."""
    return execute(table_id, cmd.ExpireDeclare(deal_no), now=now, meta=meta)
