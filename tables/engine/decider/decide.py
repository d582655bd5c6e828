"""decide(state, command, now) -> Decision: what a command makes happen, or a DomainError.

The dispatch, and nothing else: the table's own commands (`table`), a tournament's commands to
its table (`tournament_table`), and the players' commands inside a deal, which go to the kind of
the deal's current step (`StepKind.commands`): its guard, then its handler. No kind is named
here. A command's events are folded as they are decided and the program is advanced until
players must act again, so one command returns every consequence (the last declare returns the
reveal, showdown, settlement and DealEnded), with the state after them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from ledger.accounts import account_kind, chipbank_account
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.evolve import fold
from tables.engine.decider.guards import check_acting
from tables.engine.decider.program import current_ctx, parse_iso, then_advance
from tables.engine.decider.state import TableState
from tables.engine.decider.steps import KINDS
from tables.engine.decider.table import TABLE_HANDLERS
from tables.engine.decider.tournament_table import TOURNAMENT_HANDLERS
from tables.engine.decision import Decision

TableDecision = Decision[ev.Event, TableState]

_HANDLERS = {**TABLE_HANDLERS, **TOURNAMENT_HANDLERS}
STEP_COMMANDS: frozenset[type] = frozenset(c for kind in KINDS.values() for c in kind.commands)


def decide(state: TableState, command: cmd.Command, now: datetime) -> TableDecision:
    """The events `command` makes happen at `now` (timezone-aware), or DomainError."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    handler = _HANDLERS.get(type(command))
    if handler is not None:
        decided: list[ev.Event] = handler(state, command, now)
    elif type(command) in STEP_COMMANDS:
        decided = _step_command(state, command, now)
    elif isinstance(command, cmd.ExpireDeclare):
        decided = _expire(state, command, now)
    else:
        raise TypeError(f"not a command: {command!r}")
    after = decided.state if isinstance(decided, Decision) else fold(decided, state)
    return Decision(in_unit(state, decided), after)


def _step_command(state: TableState, command: Any, now: datetime) -> list[ev.Event]:
    """A player's command inside the deal: the current step's kind guards and handles it; a
    command no current step takes is refused as out of turn (after the guards every action
    shares: the table open, the player seated, the deal live)."""
    ctx, step = current_ctx(state, now, _salts(command)), state.current_step()
    entry = None if ctx is None or step is None else step.definition.commands.get(type(command))
    if ctx is None or entry is None:
        check_acting(state, command.player_id, command.deal_no)
        raise DomainError(
            "not_your_turn", f"it is not {command.player_id}'s turn for that", player=command.player_id
        )
    check, handle = entry
    checked = check(ctx, command)
    return then_advance(state, handle(ctx, command, checked), now, ctx.salts)


def _expire(state: TableState, c: cmd.ExpireDeclare, now: datetime) -> list[ev.Event]:
    """The timer's command: idempotent; nothing unless the open turn or window is overdue at
    `now`; then the current step's kind says what a timeout does."""
    deal = state.live
    if (
        state.status != "open"
        or deal is None
        or deal.deal_no != c.deal_no
        or not deal.awaiting
        or deal.deadline is None
        or now < parse_iso(deal.deadline)
    ):
        return []
    ctx = current_ctx(state, now, c.salts)
    step = state.current_step()
    if ctx is None or step is None:
        return []
    expire = step.definition.expire
    assert expire is not None, "an interactive kind says how its turns time out"
    return then_advance(state, expire(ctx), now, ctx.salts)


def _salts(command: Any) -> tuple[str, ...]:
    """The fresh salts the service sent with a command (a draw's), for the slots of a stock
    reshuffled while it is decided (D-GEN-02)."""
    return tuple(getattr(command, "salts", ()))


def in_unit(state: TableState, events: list[ev.Event]) -> list[ev.Event]:
    """DESIGN §2.4: every transfer a tournament table decides is in the tournament's unit,
    stamped here at the decider's exit so no step can forget it. Its chips never leave the
    tournament: a transfer touching a bankroll, the cashier or the house is a bug, refused."""
    if state.tournament_id is None:
        return events
    unit, bank = state.unit, chipbank_account(state.tournament_id)
    stamped = []
    for event in events:
        moves = ev.transfers_of(event)
        if moves:
            for move in moves:
                for account in (move.source, move.target):
                    if account_kind(account) not in _TABLE_KINDS and account != bank:
                        raise ValueError(f"{event.type} moves a tournament's chips to {account}")
            event = replace(event, transfers=[replace(move, unit=unit) for move in moves])  # type: ignore[call-arg]
        stamped.append(event)
    return stamped


_TABLE_KINDS = frozenset({"seat", "pot", "reserve", "bets", "sidepot"})  # bets: D-BET; sidepot: D-IT-02
