"""evolve(state, event) -> state: never fails (events are facts)."""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from ledger.accounts import prizepool_account
from tournaments.engine import events as ev
from tournaments.engine.config import Config
from tournaments.engine.places import Placing
from tournaments.engine.state import TournamentState, drop, put


def evolve(state: TournamentState, event: ev.Event) -> TournamentState:
    match event:
        case ev.TournamentCreated():
            return state.with_(
                status="registering",
                tournament_id=event.tournament_id,
                config=Config.from_json(event.config),
                commitment=event.seating_commitment,
                seed=event.seating_seed,
            )
        case ev.EntrantRegistered():
            pending = (*state.pending, event.player) if event.late else state.pending
            return state.with_(entrants=(*state.entrants, event.player), pending=pending)
        case ev.EntrantUnregistered():
            return state.with_(entrants=tuple(p for p in state.entrants if p != event.player))
        case ev.TournamentCancelRequested():
            return state.with_(
                status="cancelling",
                cancel_requested_at=event.at,
                cancel_reason=event.reason,
                scheduled=MappingProxyType({}),
            )
        case ev.TournamentCancelled():
            pool = prizepool_account(state.tournament_id)
            paid = tuple(
                (t.target.removeprefix("player:"), t.amount) for t in event.transfers if t.source == pool
            )
            return state.with_(
                status="cancelled",
                settlement=event.settlement,
                results=tuple(event.results),
                payments=paid,
                seats=MappingProxyType({}),
                pending=(),
                scheduled=MappingProxyType({}),
                closed=frozenset(state.tables),
            )
        case ev.TournamentStarted():
            seats = {p: t["table_id"] for t in event.tables for p in t["players"]}
            tables = tuple(t["table_id"] for t in event.tables)
            return state.with_(
                status="running",
                started_at=event.started_at,
                seed=event.seed,
                seating_input=tuple(event.entrants),
                seating_order=tuple(event.order),
                tables=tables,
                seats=MappingProxyType(seats),
                level=event.level,
                antes=MappingProxyType(dict.fromkeys(tables, event.ante)),
                processed=MappingProxyType(dict.fromkeys(tables, 0)),
            )
        case ev.LevelStarted():
            return state.with_(level=event.level)
        case ev.AnteSet():
            return state.with_(antes=put(state.antes, event.table_id, event.ante))
        case ev.TableAdded():
            return state.with_(
                tables=(*state.tables, event.table_id),
                processed=put(state.processed, event.table_id, 0),
                antes=put(state.antes, event.table_id, state.rules.ante_of(state.level)),
            )
        case ev.LateEntrantSeated():
            return state.with_(
                pending=tuple(p for p in state.pending if p != event.player),
                seats=put(state.seats, event.player, event.table_id),
            )
        case ev.DealProcessed():
            return state.with_(processed=put(state.processed, event.table_id, event.deal_no))
        case ev.EntrantsEliminated():
            return _eliminated(state, event)
        case ev.TournamentTableBroken():
            return state.with_(
                broken=state.broken | {event.table_id}, scheduled=drop(state.scheduled, event.table_id)
            )
        case ev.EntrantMoved():
            return state.with_(seats=put(drop(state.seats, event.player), event.player, event.to_table))
        case ev.DealScheduled():
            slot = (event.after_deal_no, event.at)
            return state.with_(scheduled=put(state.scheduled, event.table_id, slot))
        case ev.DealHeld():
            return state.with_(scheduled=drop(state.scheduled, event.table_id))
        case ev.TournamentCompleted():
            return state.with_(
                status="complete",
                winner=event.winner,
                results=tuple(event.results),
                seats=MappingProxyType({}),
                scheduled=MappingProxyType({}),
                closed=frozenset(state.tables),
            )
    return state


def _eliminated(state: TournamentState, event: ev.EntrantsEliminated) -> TournamentState:
    placings = [Placing(p["player"], p["place"], p["last"], p["start_stack"]) for p in event.placings]
    out = {p.player for p in placings}
    groups: dict[int, list[str]] = {}
    for placing in placings:
        groups.setdefault(placing.place, []).append(placing.player)
    return state.with_(
        seats=drop(state.seats, *out),
        placings=(*state.placings, *placings),
        groups=(*state.groups, *(tuple(g) for g in groups.values())),
    )


def fold(events: Iterable[ev.Event], state: TournamentState | None = None) -> TournamentState:
    result = state if state is not None else TournamentState()
    for event in events:
        result = evolve(result, event)
    return result
