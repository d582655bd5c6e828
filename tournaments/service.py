"""The tournaments application service: load, decide, carry out on the tables, append (STYLE.md).

Every entry runs `_execute(tournament_id, build, now=, meta=)` on the one command runner
(`ledger.runner`, shared with tables), in ONE database transaction:

1. take the tournament's advisory lock and load its state (tournaments.state: cache + tail);
2. build the command from the state (the start opens the tables it needs; a reconcile locks and
   reads the tournament's tables: who is between deals, stacks, the last deal's order);
3. `decide(state, command, now)`: the decider's DomainError propagates as is;
4. carry the events out on the tables, in order, through `tables.service.tournament_command`
   (seat, remove, move out + move in, break, finish, set the ante), each a savepoint under this
   transaction holding that table's lock;
5. append the events to `tournament-<uuid>` at the version loaded, with a `TournamentBankrollMoved`
   marker on `player-<pk>` for every bankroll they move (tables.service.bankroll_markers, so
   registrations serialise with the cashier as table buy-ins do); an overdraft is
   `insufficient_funds`;
6. after commit: send the Celery tasks for the deals scheduled and the next level (tournaments.tasks).

So a tournament event and the table events it causes commit together or not at all: a crash
anywhere leaves both as they were, and the next reconcile does the work exactly once
(docs/tournaments.md, "The durable process"). Lock order: the tournament, then its tables in
sorted order; table commands from players take one table's lock only, so nothing waits in a cycle.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ledger.errors import ConcurrencyConflict
from ledger.models import Event as EventRow
from ledger.runner import MAX_ATTEMPTS, CommandRunner, Outcome
from ledger.selectors import player_get
from ledger.store import NewEvent, StoredEvent, StreamWrite
from tables import service as tables
from tables.engine.decider import commands as tcmd
from tables.engine.decider.state import TableState
from tables.engine.decider.visibility import secret_keys
from tables.engine.deck import new_seed
from tables.naming import tournament_table_name
from tables.state import load_table, load_table_at, load_table_locked, table_stream
from tournaments.engine import commands as cmd
from tournaments.engine import events as ev
from tournaments.engine.config import config_from_input, iso, parse_time
from tournaments.engine.decide import decide, due_deals, needs_table, tables_for_start
from tournaments.engine.evolve import evolve
from tournaments.engine.state import TournamentState
from tournaments.errors import StartInPast, UnknownTournament
from tournaments.state import (
    TOURNAMENTS,
    Loaded,
    canonical_tournament_id,
    load_tournament,
    load_tournament_locked,
)

logger = logging.getLogger(__name__)

__all__ = ["MAX_ATTEMPTS", "RUNNER", "TournamentResult", "set_scheduler"]

BANKROLL_MARKER = "TournamentBankrollMoved"
DEAL_ENDED = "DealEnded"

Build = Callable[[Loaded], cmd.Command]
Scheduler = Callable[[str, list[ev.Event], TournamentState], None]


@dataclass(frozen=True, slots=True)
class TournamentResult:
    tournament_id: str
    state: TournamentState
    version: int
    events: list[StoredEvent]


def _no_schedule(tournament_id: str, events: list[ev.Event], state: TournamentState) -> None:
    return None


_scheduler: list[Scheduler] = [_no_schedule]


def set_scheduler(fn: Scheduler) -> None:
    """What runs after a commit with the decided events (tournaments.tasks sends the Celery tasks;
    registered in the app's ready())."""
    _scheduler[0] = fn


def _meta(meta: Mapping[str, Any] | None, tournament_id: str) -> dict[str, Any]:
    return {"actor": "system", "source": "tournament", "tournament_id": tournament_id, **dict(meta or {})}


# --- the one command path ----------------------------------------------------------------------------


def _new_event(event: ev.Event) -> NewEvent:
    return NewEvent(event.type, event.data, secret_keys(event.type, event.data))


def _markers(
    tournament_id: str, loaded: Loaded[TournamentState], decided: Sequence[ev.Event]
) -> list[StreamWrite]:
    return tables.bankroll_markers(
        tournament_id, loaded.version, decided, source="tournament_id", marker=BANKROLL_MARKER
    )


def _never_stale(expected: int, actual: int | None) -> Exception:
    return ConcurrencyConflict("The tournament changed concurrently; retry.")


def _after_commit(outcome: Outcome[Any]) -> None:
    try:
        _scheduler[0](outcome.owner, list(outcome.decided), outcome.state)
    except Exception:  # the broker down: the sweeper does the same work
        logger.exception("tournament %s: could not schedule its tasks", outcome.owner)


RUNNER: CommandRunner[TournamentState] = CommandRunner(
    kind=TOURNAMENTS,
    decide=decide,
    new_event=_new_event,
    unknown=UnknownTournament,
    stale=_never_stale,
    extra_writes=_markers,
    what="tournament",
    hooks=[_after_commit],
)


def _execute(
    tournament_id: str,
    build: Build,
    *,
    now: datetime | None,
    meta: Mapping[str, Any] | None,
    new: bool = False,
) -> TournamentResult:
    tournament_id = canonical_tournament_id(tournament_id)
    when = now or timezone.now()
    full_meta = _meta(meta, tournament_id)

    def carry(loaded: Loaded[TournamentState], decided: Sequence[ev.Event]) -> None:
        carry_out(tournament_id, loaded.state, list(decided), now=when, meta=full_meta)

    outcome = RUNNER.execute(
        tournament_id, None, now=when, meta=full_meta, new=new, build=build, before_append=carry
    )
    return TournamentResult(tournament_id, outcome.state, outcome.version, outcome.events)


# --- carrying the decided events out on the tables ----------------------------------------------------


def carry_out(
    tournament_id: str,
    state: TournamentState,
    decided: list[ev.Event],
    *,
    now: datetime,
    meta: dict[str, Any],
) -> None:
    """The table commands the events stand for, in order, in the caller's transaction."""

    def run(table_id: str, command: Any) -> tables.CommandResult:
        return tables.tournament_command(table_id=table_id, command=command, now=now, meta=meta)

    for event in decided:
        match event:
            case ev.TournamentStarted():
                for table in event.tables:
                    for player in table["players"]:
                        run(
                            table["table_id"],
                            tcmd.SeatEntrant(player_id=player, chips=state.rules.starting_chips),
                        )
            case ev.LateEntrantSeated():
                run(event.table_id, tcmd.SeatEntrant(player_id=event.player, chips=event.chips))
            case ev.AnteSet():
                run(event.table_id, tcmd.SetAnte(ante=event.ante))
            case ev.EntrantsEliminated():
                for placing in event.placings:
                    run(event.table_id, tcmd.RemoveEntrant(player_id=placing["player"]))
            case ev.TournamentTableBroken():
                run(event.table_id, tcmd.BreakTable())
            case ev.EntrantMoved():
                moved_out = run(
                    event.from_table, tcmd.MoveEntrantOut(player_id=event.player, to_table_id=event.to_table)
                )
                chips = next(e.data["chips"] for e in moved_out.events if "chips" in e.data)
                run(
                    event.to_table,
                    tcmd.MoveEntrantIn(player_id=event.player, from_table_id=event.from_table, chips=chips),
                )
            case ev.TournamentCompleted():
                finish_tables(state, event.winner, run)
            case ev.TournamentCancelled():
                finish_tables(state, None, run)
        state = evolve(state, event)


def finish_tables(
    state: TournamentState, winner: str | None, run: Callable[[str, Any], tables.CommandResult]
) -> None:
    """Every table not closed yet: `FinishTable` (pots and reserves to the winner, else the chip
    bank; every stack back to the chip bank)."""
    for table_id in state.tables:
        if load_table_locked(table_id, tables.table_lock(table_id)).state.status != "closed":
            run(table_id, tcmd.FinishTable(winner_id=winner))


# --- reading the tables for a reconcile ------------------------------------------------------------------


def table_seen(table_id: str, state: TableState, processed: int, members: set[str]) -> cmd.TableSeen:
    """What the decider needs of one table: between deals or not, stacks, and for a deal not yet
    processed in which someone lost everything, the stacks at its start and its order (D-GEN-01)."""
    stacks = {seat.player: seat.stack for seat in state.seats}
    deal = state.deal
    idle = state.live is None
    order = tuple(deal.order) if deal is not None else ()
    start: dict[str, int] = {}
    if idle and state.deal_no > processed and any(stacks.get(p, 0) <= 0 for p in members):
        start = stacks_at_deal_start(table_id, state.deal_no)
    return cmd.TableSeen(
        table_id, idle, state.deal_no, stacks, start, order, movers(state), closed=state.status == "closed"
    )


def movers(state: TableState) -> tuple[str, ...]:
    """The seated players from the last dealer clockwise (balance.py: the one who just dealt moves)."""
    seats = sorted(state.seats, key=lambda s: s.seat)
    dealer = state.deal.dealer if state.deal is not None else None
    first = next((i for i, s in enumerate(seats) if s.player == dealer), len(seats) - 1)
    return tuple(s.player for s in seats[first:] + seats[:first])


def stacks_at_deal_start(table_id: str, deal_no: int) -> dict[str, int]:
    """Each seat's stack just before `deal_no` started (the table's state before its DealStarted)."""
    rows = EventRow.objects.filter(stream=table_stream(table_id), type="DealStarted").order_by("-version")
    for version, data in rows.values_list("version", "data")[:8]:
        if data.get("deal_no") == deal_no:
            before = load_table_at(table_id, version - 1).state
            return {seat.player: seat.stack for seat in before.seats}
    return {}


def observe(
    tournament_id: str, state: TournamentState, *, now: datetime, meta: dict[str, Any]
) -> cmd.Reconcile:
    """Lock and read every table of the tournament that still plays or seats someone (sorted: the
    lock order; a broken table nobody sits at is done), opening one more if late registrants have
    no seat anywhere."""
    seen = []
    done = {t for t in state.broken if not state.members(t)} | state.closed
    for table_id in sorted(t for t in state.tables if t not in done):
        table = load_table_locked(table_id, tables.table_lock(table_id)).state
        members = set(state.members(table_id))
        seen.append(table_seen(table_id, table, state.processed.get(table_id, 0), members))
    if needs_table(state):
        opened = tables.table_open(
            variant=state.rules.variant,
            options=state.rules.options,
            tournament_id=tournament_id,
            now=now,
            meta=meta,
            name=tournament_table_name(state.rules.name, len(state.tables) + 1),
        )
        seen.append(table_seen(opened.table_id, opened.state, 0, set()))
    order = {t: i for i, t in enumerate(state.tables)}
    seen.sort(key=lambda t: order.get(t.table_id, len(order)))
    return cmd.Reconcile(tuple(seen))


# --- the entries -------------------------------------------------------------------------------------------


def tournament_create(
    *,
    fields: Mapping[str, Any],
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
    refuse_past_start: bool = False,
) -> TournamentResult:
    """Open a new tournament (a new stream); the seating seed is drawn here, sealed in the event.
    With `refuse_past_start` (a club admin's request) a `start_at` before now is StartInPast;
    trusted callers (the sweeper's tests, benchmarks) may create a tournament already due."""
    tournament_id = str(uuid.uuid4())
    fields = {"cancel_fees": settings.GUTS_TOURNAMENT_CANCEL_FEES, **fields}  # the club's setting
    if refuse_past_start:  # after every check of the fields themselves, so those answer first
        check_start_ahead(config_from_input(dict(fields)).start_at, now or timezone.now())
    command = cmd.CreateTournament(tournament_id, dict(fields), new_seed())
    return _execute(tournament_id, lambda _: command, now=now, meta=meta, new=True)


def check_start_ahead(start_at: str, now: datetime) -> None:
    """StartInPast if `start_at` (ISO-8601, as the config records it) is before `now`."""
    if parse_time(start_at) < now:
        raise StartInPast(start_at, iso(now))


def tournament_register(
    *, tournament_id: str, player_id: int, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> TournamentResult:
    """Register a player: buy-in and fee from the bankroll in one transaction (insufficient_funds)."""
    player_get(player_id=player_id)
    result = _execute(tournament_id, lambda _: cmd.Register(str(player_id)), now=now, meta=meta)
    if result.state.status == "running":  # a late registrant: seat him now if a seat is free
        return tournament_reconcile(tournament_id=tournament_id, now=now, meta=meta)
    return result


def tournament_unregister(
    *, tournament_id: str, player_id: int, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> TournamentResult:
    return _execute(tournament_id, lambda _: cmd.Unregister(str(player_id)), now=now, meta=meta)


def tournament_cancel(
    *, tournament_id: str, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> TournamentResult:
    """Before the start: refunds at once. Running: no new deals; tables between deals break now,
    the others when their deal ends, then the settlement (tournaments.engine.cancel)."""
    result = _execute(tournament_id, lambda _: cmd.Cancel("admin"), now=now, meta=meta)
    return cancellation_step(result, now=now, meta=meta)


def cancellation_step(
    result: TournamentResult, *, now: datetime | None, meta: Mapping[str, Any] | None
) -> TournamentResult:
    """While a tournament is being cancelled, reconcile until nothing more is due now (breaking
    the idle tables, then settling once all are broken: at most a few rounds)."""
    for _ in range(3):
        if result.state.status != "cancelling":
            break
        step = tournament_reconcile(tournament_id=result.tournament_id, now=now, meta=meta)
        if not step.events:
            return step
        result = step
    return result


def tournament_start(
    *,
    tournament_id: str,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
    by_schedule: bool = False,
    stacked_decks: list[list[list[str]]] | None = None,
) -> TournamentResult:
    """Start now: open the tables (stacked decks per table only where settings allow, for tests),
    seat everyone by the revealed seed, schedule the first deals. On schedule, too few entrants
    cancels (refunds); an admin's start is refused (not_enough_entrants)."""
    when = now or timezone.now()

    def build(loaded: Loaded) -> cmd.Command:
        state = loaded.state
        table_ids = []
        for index in range(tables_for_start(state)):
            decks = stacked_decks[index] if stacked_decks and index < len(stacked_decks) else None
            opened = tables.table_open(
                variant=state.rules.variant,
                options=state.rules.options,
                stacked_decks=decks,
                tournament_id=loaded.state.tournament_id,
                now=when,
                meta=_meta(meta, state.tournament_id),
                name=tournament_table_name(state.rules.name, index + 1),
            )
            table_ids.append(opened.table_id)
        return cmd.Start(tuple(table_ids), by_schedule=by_schedule)

    return _execute(tournament_id, build, now=when, meta=meta)


def tournament_reconcile(
    *, tournament_id: str, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> TournamentResult:
    """The durable process's one step: react to everything the tables did since the last one
    (idempotent: with nothing new it appends nothing)."""
    when = now or timezone.now()

    def build(loaded: Loaded) -> cmd.Command:
        return observe(
            loaded.state.tournament_id, loaded.state, now=when, meta=_meta(meta, loaded.state.tournament_id)
        )

    return _execute(tournament_id, build, now=when, meta=meta)


def tournament_start_deal(
    *,
    tournament_id: str,
    table_id: str,
    after_deal_no: int,
    now: datetime | None = None,
    meta: Mapping[str, Any] | None = None,
) -> bool:
    """Start the deal scheduled at `table_id` after `after_deal_no`, if it is still scheduled and
    due (the schedule may have been withdrawn: DealHeld); True if a deal started. Under the
    tournament's lock, so a reconcile never moves players while this starts a deal."""
    tournament_id = canonical_tournament_id(tournament_id)
    when = now or timezone.now()
    with transaction.atomic():
        state = load_tournament_locked(tournament_id).state
        if (table_id, after_deal_no) not in due_deals(state, when):
            return False
        result = tables.start_next_deal(
            table_id=table_id, after_deal_no=after_deal_no, now=when, meta=_meta(meta, tournament_id)
        )
    return bool(result.events)


def tournament_tick(
    *, tournament_id: str, now: datetime | None = None, meta: Mapping[str, Any] | None = None
) -> TournamentResult:
    """Everything due at `now`: the start at its time, a reconcile, the deals whose pause is over.
    What the Celery tasks and the beat sweeper run (tournaments.tasks)."""
    when = now or timezone.now()
    loaded = load_tournament(canonical_tournament_id(tournament_id))
    if loaded.version == 0:
        raise UnknownTournament(tournament_id)
    state = loaded.state
    if state.status == "registering" and state.rules.start_at and _due(state.rules.start_at, when):
        result = tournament_start(tournament_id=tournament_id, now=when, meta=meta, by_schedule=True)
        state = result.state
    if state.status == "cancelling":
        return cancellation_step(
            TournamentResult(state.tournament_id, state, loaded.version, []), now=when, meta=meta
        )
    if state.status != "running":
        return TournamentResult(state.tournament_id, state, loaded.version, [])
    result = tournament_reconcile(tournament_id=tournament_id, now=when, meta=meta)
    for table_id, after in due_deals(result.state, when):
        if table_started_after(table_id, after):
            continue
        tournament_start_deal(
            tournament_id=tournament_id, table_id=table_id, after_deal_no=after, now=when, meta=meta
        )
    return result


def table_started_after(table_id: str, after_deal_no: int) -> bool:
    """Whether the table has moved past `after_deal_no` (its next deal started: nothing to do)."""
    return load_table(table_id).state.deal_no > after_deal_no


def _due(start_at: str, now: datetime) -> bool:
    return parse_time(start_at) <= now


def tournament_get(*, tournament_id: str) -> Loaded:
    """The tournament's current state (read side; UnknownTournament if there is none)."""
    loaded = load_tournament(canonical_tournament_id(tournament_id))
    if loaded.version == 0:
        raise UnknownTournament(tournament_id)
    return loaded
