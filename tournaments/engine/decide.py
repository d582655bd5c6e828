"""decide(state, command, now) -> events: the tournament's rules.

Registration and cancellation move cash between bankrolls, the prize pool and the house; the
start seats everyone by the provable shuffle; `Reconcile` is the whole reaction to the tables
(see `reconcile`). Errors are DomainError with stable codes (tournaments.engine.errors).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ledger.accounts import HOUSE, UNIT_CHIPS, Transfer, player_account, prizepool_account
from tables.engine.decision import Decision
from tournaments.engine import commands as cmd
from tournaments.engine import events as ev
from tournaments.engine.balance import TableLoad, plan, tables_needed
from tournaments.engine.cancel import settle
from tournaments.engine.config import config_from_input, iso, parse_time
from tournaments.engine.errors import DomainError
from tournaments.engine.evolve import evolve, fold
from tournaments.engine.places import Placing, placings, prizes
from tournaments.engine.seating import commitment, seat_order, split_tables
from tournaments.engine.state import TournamentState


def decide(
    state: TournamentState, command: cmd.Command, now: datetime
) -> Decision[ev.Event, TournamentState]:
    """The events `command` makes happen at `now`, with the tournament after them (folded once)."""
    events = _decided(state, command, now)
    return Decision(events, fold(events, state))


def _decided(state: TournamentState, command: cmd.Command, now: datetime) -> list[ev.Event]:
    match command:
        case cmd.CreateTournament():
            return create(state, command)
        case cmd.Register():
            return register(state, command.player_id, now)
        case cmd.Unregister():
            return unregister(state, command.player_id)
        case cmd.Start():
            return start(state, command, now)
        case cmd.Cancel():
            return cancel(state, command.reason, now)
        case cmd.Reconcile():
            return reconcile(state, command.tables, now)
    raise TypeError(f"not a tournament command: {command!r}")


# --- registration ----------------------------------------------------------------------------------


def create(state: TournamentState, command: cmd.CreateTournament) -> list[ev.Event]:
    if state.status != "new":
        raise DomainError("tournament_already_open", "the tournament exists already")
    config = config_from_input(command.fields)
    return [
        ev.TournamentCreated(command.tournament_id, config.to_json(), commitment(command.seed), command.seed)
    ]


def check_open(state: TournamentState) -> None:
    if state.status in ("complete", "cancelled"):
        raise DomainError("tournament_over", f"the tournament is {state.status}")


def registration_open(state: TournamentState, now: datetime) -> bool:
    """Before the start; after it, until the late registration level ends."""
    if state.status == "registering":
        return True
    if state.status != "running":
        return False
    return state.rules.level_at(state.start, now) <= state.rules.late_registration_level


def money(state: TournamentState, player: str, *, refund: bool) -> list[Transfer]:
    """The buy-in to the prize pool and the fee to the house (or both back, `refund`)."""
    rules, bankroll = state.rules, player_account(player)
    moves = [
        (prizepool_account(state.tournament_id), rules.buy_in, "tournament_buy_in"),
        (HOUSE, rules.fee, "tournament_fee"),
    ]
    transfers = []
    for account, amount, reason in moves:
        if amount > 0:
            source, target = (account, bankroll) if refund else (bankroll, account)
            transfers.append(
                Transfer(source, target, amount, reason + ("_refund" if refund else ""), UNIT_CHIPS)
            )
    return transfers


def register(state: TournamentState, player: str, now: datetime) -> list[ev.Event]:
    check_open(state)
    if player in state.entrants:
        raise DomainError("already_registered", f"{player} is registered", player=player)
    if not registration_open(state, now):
        raise DomainError("registration_closed", "registration is closed")
    if len(state.entrants) >= state.rules.max_entrants:
        raise DomainError("tournament_full", f"{state.rules.max_entrants} entrants are registered")
    return [ev.EntrantRegistered(player, state.status == "running", money(state, player, refund=False))]


def unregister(state: TournamentState, player: str) -> list[ev.Event]:
    check_open(state)
    if player not in state.entrants:
        raise DomainError("not_registered", f"{player} is not registered", player=player)
    if state.status != "registering":
        raise DomainError("registration_closed", "the tournament has started: no refunds")
    return [ev.EntrantUnregistered(player, money(state, player, refund=True))]


def cancel(state: TournamentState, reason: str, now: datetime) -> list[ev.Event]:
    """Before the start: every buy-in and fee back at once. Running: no new deals, each table
    finishes its deal, then the settlement (tournaments.engine.cancel). Cancelling: nothing more."""
    check_open(state)
    if state.status == "running":
        return [ev.TournamentCancelRequested(reason, iso(now))]
    if state.status == "cancelling":
        return []
    transfers = [t for p in state.entrants for t in money(state, p, refund=True)]
    return [ev.TournamentCancelled(reason, transfers)]


# --- the start ---------------------------------------------------------------------------------------


def tables_for_start(state: TournamentState) -> int:
    """How many tables the service must open for `Start` (0: the start would cancel or refuse)."""
    if state.status != "registering" or len(state.entrants) < state.rules.min_entrants:
        return 0
    return tables_needed(len(state.entrants), state.rules.seats_per_table)


def start(state: TournamentState, command: cmd.Start, now: datetime) -> list[ev.Event]:
    if command.by_schedule and state.status != "registering":
        return []  # the start-time task delivered twice, or an admin was first
    check_open(state)
    if state.status != "registering":
        raise DomainError("tournament_started", "the tournament is running")
    if len(state.entrants) < state.rules.min_entrants:
        if command.by_schedule:
            return cancel(state, "not_enough_entrants", now)
        raise DomainError(
            "not_enough_entrants",
            f"{len(state.entrants)} entrants, at least {state.rules.min_entrants} needed",
            minimum=state.rules.min_entrants,
        )
    if len(command.table_ids) != tables_for_start(state):
        raise ValueError("Start needs exactly tables_for_start(state) tables")
    assert state.seed is not None
    order = seat_order(state.seed, state.entrants)
    groups = split_tables(order, len(command.table_ids))
    tables: list[dict[str, Any]] = [
        {"table_id": t, "players": g} for t, g in zip(command.table_ids, groups, strict=True)
    ]
    events: list[ev.Event] = [
        ev.TournamentStarted(
            iso(now), state.seed, list(state.entrants), order, tables, 1, state.rules.ante_of(1)
        )
    ]
    events += [
        ev.DealScheduled(t, 0, iso(now))
        for t, g in zip(command.table_ids, groups, strict=True)
        if len(g) >= 2
    ]
    return events


# --- the reaction to the tables ------------------------------------------------------------------------


def reconcile(state: TournamentState, seen: tuple[cmd.TableSeen, ...], now: datetime) -> list[ev.Event]:
    """Everything the tables' progress calls for, in this order: levels that are due; each finished
    deal's eliminations (and its checkpoint); completion; seats for late registrants; breaks and
    moves; antes; the next deals (or holds)."""
    if state.status == "cancelling":
        return reconcile_cancelling(state, seen)
    if state.status != "running":
        return []
    out: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        nonlocal state
        out.append(event)
        state = evolve(state, event)

    by_id = {t.table_id: t for t in seen}
    for table in seen:
        if table.table_id not in state.tables and not table.closed:
            emit(ev.TableAdded(table.table_id))
    level = state.rules.level_at(state.start, now)
    while state.level < level:
        nxt = state.level + 1
        emit(ev.LevelStarted(nxt, state.rules.ante_of(nxt), iso(state.rules.level_start(state.start, nxt))))
    for table_id in state.active_tables():
        seen_table = by_id.get(table_id)
        done = state.processed.get(table_id, 0)
        if seen_table is not None and seen_table.idle and seen_table.deal_no > done:
            for event in deal_processed(state, seen_table):
                emit(event)
    if state.remaining() <= 1:
        emit(completed(state))
        return out
    idle = {
        t: (by_id[t].idle and by_id[t].deal_no == state.processed.get(t, 0)) if t in by_id else False
        for t in state.tables
    }
    for event in late_seats(state, idle):
        emit(event)
    loads = [
        TableLoad(t, movers(state, by_id.get(t)), idle[t] or t in state.broken, t in state.broken)
        for t in state.tables
        if t not in state.closed
    ]
    moves = plan(loads, state.rules.seats_per_table)
    for table_id in moves.breaks:
        emit(ev.TournamentTableBroken(table_id))
    for move in moves.moves:
        emit(ev.EntrantMoved(move.player, move.source, move.target, move.reason))
    ante = state.rules.ante_of(state.level)
    for table_id in state.active_tables():
        if idle[table_id] and state.antes.get(table_id) != ante:
            emit(ev.AnteSet(table_id, ante))
    for event in schedule(state, by_id, idle, moves.held, now):
        emit(event)
    return out


def reconcile_cancelling(state: TournamentState, seen: tuple[cmd.TableSeen, ...]) -> list[ev.Event]:
    """The reaction to the tables while cancelling: finished deals processed; tables between deals
    broken; once every table is broken and between deals, the settlement."""
    out: list[ev.Event] = []

    def emit(event: ev.Event) -> None:
        nonlocal state
        out.append(event)
        state = evolve(state, event)

    by_id = {t.table_id: t for t in seen}
    for table_id in state.tables:
        table = by_id.get(table_id)
        if table is not None and table.idle and table.deal_no > state.processed.get(table_id, 0):
            for event in deal_processed(state, table):
                emit(event)
    if state.remaining() <= 1:
        emit(completed(state))
        return out
    idle = {t.table_id: t.idle and t.deal_no == state.processed.get(t.table_id, 0) for t in seen}
    if all(idle.values()) and all(t in state.broken for t in idle):
        emit(settle(state, by_id))
        return out
    for table_id in state.active_tables():
        if idle.get(table_id, False):
            emit(ev.TournamentTableBroken(table_id))
    return out


def deal_processed(state: TournamentState, table: cmd.TableSeen) -> list[ev.Event]:
    """The checkpoint of `table`'s last deal and, if anyone there has no chips left, their places."""
    members = set(state.members(table.table_id))
    out_now = [p for p in members if table.stacks.get(p, 0) <= 0]
    events: list[ev.Event] = [ev.DealProcessed(table.table_id, table.deal_no)]
    if out_now:
        ordered = [p for p in table.order if p in out_now]
        ordered += sorted(p for p in out_now if p not in table.order)
        busted = [(p, table.start_stacks.get(p, 0)) for p in ordered]
        result = placings(state.remaining(), busted)
        events.append(ev.EntrantsEliminated(table.table_id, table.deal_no, [p.to_json() for p in result]))
    return events


def completed(state: TournamentState) -> ev.TournamentCompleted:
    """One player left (or none: everyone left went out in one deal): the places and the prizes,
    every chip of the prize pool paid out."""
    groups = [[p for p in state.placings if p.player in group] for group in state.groups]
    survivors = [*state.seats, *state.pending]
    if survivors:
        groups.append([Placing(survivors[0], 1, 1, 0)])
    by_place = sorted(groups, key=lambda g: g[0].place)
    prize = prizes(state.pool(), state.rules.payouts, by_place)
    winner = by_place[0][0].player if len(by_place[0]) == 1 else None
    results: list[dict[str, Any]] = [
        {"player": p.player, "place": p.place, "last": p.last, "prize": prize.get(p.player, 0)}
        for group in by_place
        for p in group
    ]
    transfers = [
        Transfer(
            prizepool_account(state.tournament_id),
            player_account(p.player),
            prize[p.player],
            "tournament_prize",
            UNIT_CHIPS,
        )
        for group in by_place
        for p in group
        if prize.get(p.player, 0) > 0
    ]
    return ev.TournamentCompleted(winner, results, transfers)


def late_seats(state: TournamentState, idle: dict[str, bool]) -> list[ev.Event]:
    """Seat waiting late registrants at idle tables with a free seat, the emptiest first."""
    events: list[ev.Event] = []
    counts = {t: len(state.members(t)) for t in state.active_tables()}
    for player in state.pending:
        free = [t for t in counts if idle[t] and counts[t] < state.rules.seats_per_table]
        if not free:
            break
        target = min(free, key=lambda t: (counts[t], state.tables.index(t)))
        counts[target] += 1
        events.append(ev.LateEntrantSeated(player, target, state.rules.starting_chips))
    return events


def needs_table(state: TournamentState) -> bool:
    """Late registrants wait and no table has a seat for them: the service opens one more."""
    if state.status != "running" or not state.pending:
        return False
    free = sum(state.rules.seats_per_table - len(state.members(t)) for t in state.active_tables())
    return free < len(state.pending)


def movers(state: TournamentState, table: cmd.TableSeen | None) -> tuple[str, ...]:
    """Who moves first from `table`: the order the service read (the last dealer first)."""
    if table is None:
        return ()
    members = state.members(table.table_id)
    ranked = [p for p in table.movers if p in members]
    return (*ranked, *(p for p in members if p not in ranked))


def schedule(
    state: TournamentState,
    by_id: dict[str, cmd.TableSeen],
    idle: dict[str, bool],
    held: set[str],
    now: datetime,
) -> list[ev.Event]:
    """The next deal of every idle table with two players, after the pause; none while held."""
    events: list[ev.Event] = []
    for table_id in state.active_tables():
        if not idle[table_id]:
            continue
        deal_no = by_id[table_id].deal_no
        current = state.scheduled.get(table_id)
        playable = len(state.members(table_id)) >= 2 and table_id not in held
        if playable and (current is None or current[0] != deal_no):
            pause = timedelta(seconds=state.rules.pause_seconds if deal_no else 0)
            events.append(ev.DealScheduled(table_id, deal_no, iso(now + pause)))
        elif not playable and current is not None:
            events.append(ev.DealHeld(table_id))
    return events


def due_deals(state: TournamentState, now: datetime) -> list[tuple[str, int]]:
    """(table, after_deal_no) of every scheduled deal whose time has come."""
    if state.status != "running":
        return []
    return [
        (t, after)
        for t, (after, at) in state.scheduled.items()
        if t in state.active_tables() and parse_time(at, "at") <= now
    ]
