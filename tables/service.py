"""The tables application service: load the state, decide, append. Nothing else (STYLE.md).

Three entries: `table_open` (a new table, a new stream), `table_command` (every other command a
client sends: sit down, declare, start a deal, ...) and `deal_expire` (the timer's); and two for
the tournament service (docs/tournaments.md): `tournament_command` (seat, move, remove entrants,
set the ante, break or finish a table) and `start_next_deal` (idempotent). None of the
tournament's is reachable from HTTP. All of them run `execute(table_id, command, now=, meta=,
expected_version=)` on the one command runner (`ledger.runner`, shared with tournaments):

1. take the table's transaction lock (PostgreSQL: an advisory lock per table, so concurrent
   commands on one table queue instead of clashing; tables never block each other) and load the
   state (`tables.state`: cache or latest snapshot + tail, DESIGN §2.5), in one round trip;
2. `decide(state, command, now)`: the engine's DomainError (`not_your_turn`, ...) propagates as is;
3. append to `table-<uuid>` with the version loaded, plus a marker event (no transfers) on
   `player-<pk>` for every bankroll the events move money for (buy-in, cash-out, close), with
   that stream's version, so bankroll movements serialise with the cashier's (DESIGN §2.3); the
   projector takes the decided state instead of folding the events again;
4. on commit, run the after-commit hooks (`register_after_commit`) with the stored events (none
   in production now: the timers' dispatcher in beat reads deadlines from the projection, so a
   command publishes nothing; docs/timers.md).

The result carries the decider's own state after the command. Refusals are domain errors
(ledger.errors, tables.errors, the engine's); the API maps their codes to HTTP. A version clash
(ConcurrencyError) reloads and re-decides up to MAX_ATTEMPTS times, then ConcurrencyConflict. With
`expected_version` (the client's If-Match) there is no retry: a table not at that version is
StaleVersion, checked against the version loaded under the lock and again by the append itself.
The secret decks and salts of every deal are drawn here (`fairdeck.new_secret_deck`,
`fairdeck.new_salts`: the OS CSPRNG), never by a client or the decider; stacked decks only when
settings.GUTS_ALLOW_STACKED_DECKS. A client's `client_seed` rides on its command as a
ContributeSeed in the same transaction (docs/deck.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ledger import dbapi
from ledger.accounts import account_kind, transfers_of
from ledger.runner import MAX_ATTEMPTS, CommandRunner, Outcome
from ledger.selectors import player_stream
from ledger.store import NewEvent, StoredEvent, StreamWrite, stream_version
from ledger.streams import Loaded
from tables.engine.decider import commands as cmd
from tables.engine.decider.decide import decide
from tables.engine.decider.events import Event
from tables.engine.decider.state import TableState
from tables.engine.decider.visibility import secret_keys
from tables.engine.fairdeck import DECISION_SALTS, new_salts, new_secret_deck
from tables.errors import StaleVersion, UnknownTable
from tables.naming import default_table_name, table_name_check
from tables.state import TABLE_LOCK_CLASS, TABLES

__all__ = [
    "MAX_ATTEMPTS",
    "RUNNER",
    "TABLE_LOCK_CLASS",
    "CommandResult",
    "bankroll_markers",
    "canonical_table_id",
    "deal_expire",
    "execute",
    "lock_table",
    "register_after_commit",
    "registered_after_commit",
    "start_next_deal",
    "table_command",
    "table_lock",
    "table_open",
    "tournament_command",
    "unregister_after_commit",
]

BANKROLL_MARKER = "TableBankrollMoved"  # on player-<pk>: the table event that moved the bankroll

# What a client may ask of an existing table: not OpenTable (table_open makes a new stream) nor
# ExpireDeclare (the timer's, deal_expire).
TableCommand = (
    cmd.SitDown
    | cmd.TopUp
    | cmd.Leave
    | cmd.SitOut
    | cmd.SitIn
    | cmd.CloseTable
    | cmd.StartDeal
    | cmd.StepCommand  # a kind's command inside the deal: declare, bet, draw, ...
)

AfterCommit = Callable[[str, list[StoredEvent]], None]
_after_commit: list[AfterCommit] = []


def register_after_commit(fn: AfterCommit) -> AfterCommit:
    """Run `fn(table_id, stored_table_events)` after every committed command that appended events."""
    if fn not in _after_commit:
        _after_commit.append(fn)
        _sync_hooks()
    return fn


def registered_after_commit() -> list[AfterCommit]:
    return list(_after_commit)


def unregister_after_commit(fn: AfterCommit) -> None:
    if fn in _after_commit:
        _after_commit.remove(fn)
        _sync_hooks()


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command did: the table's state and version after it, and the events it appended."""

    table_id: str
    state: TableState
    version: int
    events: list[StoredEvent]


# --- the one command path --------------------------------------------------------------------------


def _stored(event: Event) -> NewEvent:
    """The event for the store, its secret facts named for sealing (DESIGN §2.6)."""
    data = event.to_json()
    return NewEvent(event.type, data, secret_keys(event.type, data))


def _markers(table_id: str, loaded: Loaded[TableState], decided: Sequence[Event]) -> list[StreamWrite]:
    return bankroll_markers(table_id, loaded.version, decided)


RUNNER: CommandRunner[TableState] = CommandRunner(
    kind=TABLES,
    decide=decide,
    new_event=_stored,
    unknown=UnknownTable,
    stale=StaleVersion,
    extra_writes=_markers,
    what="table",
)


def _run_after_commit(outcome: Outcome[Any]) -> None:
    run_after_commit(outcome.owner, outcome.events)


def _sync_hooks() -> None:
    """The runner calls the tables' hooks only while there are some (no on_commit otherwise)."""
    RUNNER.hooks[:] = [_run_after_commit] if _after_commit else []


def execute(
    table_id: str,
    command: cmd.Command,
    *,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
    expected_version: int | None = None,
) -> CommandResult:
    """Load, decide, append (one transaction per attempt); see the module docstring."""
    table_id = canonical_table_id(table_id)
    outcome = RUNNER.execute(
        table_id,
        command,
        now=now or timezone.now(),
        meta=meta,
        expected_version=expected_version,
        new=isinstance(command, cmd.OpenTable),
    )
    return CommandResult(table_id, outcome.state, outcome.version, outcome.events)


def table_lock(table_id: str) -> tuple[int, int]:
    """The table's advisory lock, held by every command until its transaction ends (commands on
    one table queue there instead of clashing at append; other tables are not blocked). SQLite
    already serialises writers at BEGIN IMMEDIATE."""
    return TABLES.lock(table_id)


def lock_table(table_id: str) -> None:
    """Take the table's lock (`table_lock`) without loading it."""
    if not dbapi.on_postgres():
        return
    with dbapi.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(table_lock(table_id)))


def bankroll_markers(
    table_id: str,
    version: int,
    decided: Sequence[Event],
    *,
    source: str = "table_id",
    marker: str = BANKROLL_MARKER,
) -> list[StreamWrite]:
    """One marker event per bankroll the decided events move chips for, on `player-<pk>` with its
    current version: a concurrent cashier operation on that bankroll then clashes and re-checks.
    Another stream that moves bankrolls (a tournament's registrations and prizes) names
    itself with `source` (the marker's key for `table_id`) and its own `marker` type."""
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
        event = NewEvent(
            marker,
            {
                source: table_id,
                "player_id": int(player),
                "amount": amount,
                "events": sorted(set(causes[player])),
            },
        )
        writes.append(StreamWrite(stream, stream_version(stream), [event]))
    return writes


def run_after_commit(table_id: str, events: list[StoredEvent]) -> None:
    for fn in list(_after_commit):
        fn(table_id, events)


def canonical_table_id(table_id: object) -> str:
    """The table id as the streams spell it; UnknownTable if it is not a UUID."""
    try:
        return str(uuid.UUID(str(table_id)))
    except ValueError:
        raise UnknownTable(table_id) from None


# --- the entries ---------------------------------------------------------------------------------


def table_open(
    *,
    variant: str,
    options: Mapping[str, Any] | None = None,
    stacked_decks: list[list[str]] | None = None,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
    tournament_id: str | None = None,
    name: str | None = None,
) -> CommandResult:
    """Open a new table (a new stream). Stacked decks only when the setting allows them. With
    `tournament_id` it is that tournament's table: it plays in the unit t:<tournament_id>. `name`
    (checked by tables.naming) defaults to the variant's title and a number, "Two-card Guts #3"."""
    table_id = str(uuid.uuid4())
    name = table_name_check(name) if name is not None else default_table_name(variant)
    tournament = str(uuid.UUID(str(tournament_id))) if tournament_id is not None else None
    command = cmd.OpenTable(
        table_id=table_id,
        variant=variant,
        options=dict(options or {}),
        stacked_decks=stacked_decks,
        stacked_allowed=bool(settings.GUTS_ALLOW_STACKED_DECKS),
        tournament_id=tournament,
        next_deck=new_secret_deck(),
        name=name,
    )
    return execute(table_id, command, now=now, meta=meta)


def table_command(
    *,
    table_id: str,
    command: TableCommand,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
    expected_version: int | None = None,
    client_seed: tuple[str, str] | None = None,
) -> CommandResult:
    """Run a client's command on an existing table, at `expected_version` if given (If-Match).

    A StartDeal comes without decks: the service draws them secretly (docs/deck.md), so no
    caller ever chooses one. `client_seed` (player, seed) is that player's entropy for the next
    committed deck, recorded after the command in the same transaction (a refusal of either
    appends nothing)."""
    if not isinstance(command, TableCommand):
        raise TypeError(f"not a client's table command: {command!r}")
    command = with_secrets(command)
    if client_seed is None:
        return execute(table_id, command, now=now, meta=meta, expected_version=expected_version)
    with transaction.atomic():
        result = execute(table_id, command, now=now, meta=meta, expected_version=expected_version)
        seeded = execute(table_id, cmd.ContributeSeed(*client_seed), now=now, meta=meta)
    if not seeded.events:
        return result
    return replace(seeded, events=[*result.events, *seeded.events])


def with_secrets(command: TableCommand) -> TableCommand:
    """The command with what only the service draws: a deal's secret decks, a draw's fresh salts
    (for the slots of a stock reshuffled during it, D-GEN-02)."""
    if isinstance(command, cmd.StartDeal):
        if command.seed is not None or command.after_deal_no is not None or command.next_deck is not None:
            raise ValueError("the service draws a deal's decks; StartDeal must come without them")
        return replace(command, deck=new_secret_deck(), next_deck=new_secret_deck())
    if isinstance(command, cmd.Exchange):
        return replace(command, salts=new_salts(DECISION_SALTS))
    return command


# --- the tournament service's entries ----------------------------------------------------------


def tournament_command(
    *,
    table_id: str,
    command: cmd.TournamentCommand,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
) -> CommandResult:
    """Run one of the tournament's commands on its table. A move is MoveEntrantOut on one table
    and MoveEntrantIn on the other: the caller runs both inside one `transaction.atomic()` (each
    `execute` is then a savepoint under the caller's transaction, holding both tables' locks)."""
    if not isinstance(command, cmd.TournamentCommand):
        raise TypeError(f"not a tournament command: {command!r}")
    return execute(table_id, command, now=now, meta=meta)


def start_next_deal(
    *, table_id: str, after_deal_no: int, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> CommandResult:
    """Start the deal after deal `after_deal_no` (0: the first), drawing its decks here; nothing
    is appended if the table has moved on or is not between deals (Celery may redeliver)."""
    command = cmd.StartDeal(deck=new_secret_deck(), next_deck=new_secret_deck(), after_deal_no=after_deal_no)
    return execute(table_id, command, now=now, meta=meta)


def deal_expire(
    *, table_id: str, deal_no: int, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> CommandResult:
    """The timer's command: time out the open turn/window if it is overdue at `now`; otherwise
    nothing is appended (idempotent, safe under duplicate delivery, DESIGN §2.8)."""
    command = cmd.ExpireDeclare(deal_no, salts=new_salts(DECISION_SALTS))  # draws it ends may reshuffle
    return execute(table_id, command, now=now, meta=meta)
