"""The interpreter: walks the live deal's program, stage by stage and step by step (DESIGN §2.2).

`advance(state, now)` runs until players must act or the deal has ended. It asks the kind of each
step (`StepKind`): an automatic kind runs once and the program moves on; an interactive kind runs
while it is not `done` (and [] means: waiting for players). The position moves with the facts:
the first event a step records carries its position (`Event.at_step`), and a step that records
nothing (one already done when reached: no exchange, no auction, nobody lone) leaves no trace;
the end of the deal is DealEnded (and GameEnded when the variant's game-end rule says so). Events
are folded as they are decided, each once, so every step sees the facts before it. No step kind
appears here by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from tables.engine.decider import events as ev
from tables.engine.decider import fair
from tables.engine.decider.close import close_table_events
from tables.engine.decider.evolve import enter_step, evolve
from tables.engine.decider.game_end import GAME_END_RULES
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import Ctx
from tables.engine.decider.steps.base import deck_for, iso, parse_iso
from tables.engine.decision import Decision

__all__ = ["advance", "antes_due", "current_ctx", "deck_for", "iso", "parse_iso", "then_advance"]


def then_advance(
    state: TableState, events: list[ev.Event], now: datetime, salts: Sequence[str] = ()
) -> Decision[ev.Event, TableState]:
    """Fold `events` and run the program on: the command's events and their consequences, with
    the state after them (each event folded once). `salts`: the service's fresh salts sent with
    the command, of which `events` used the first (`fair.unused_salts`)."""
    for event in events:
        state = evolve(state, event)
    state, more = advance(state, now, fair.unused_salts(salts, events))
    return Decision([*events, *more], state)


Position = tuple[int, int]  # (stage 1-based, step 0-based); (0, 0) before the program
_MOST_MOVES = 1000  # a program is walked in far fewer moves: a loop is a bug


def advance(state: TableState, now: datetime, salts: Sequence[str] = ()) -> tuple[TableState, list[ev.Event]]:
    """Run the live deal's program; stop when players must act or the deal has ended. Each step
    at work gets the salts not used yet (a stock reshuffled commits its slots with them, D-GEN-02)."""
    emitted: list[ev.Event] = []
    deal = state.live
    if deal is None:
        return state, emitted
    cursor: Position = (deal.stage, deal.step)
    for _ in range(_MOST_MOVES):
        deal = state.live
        if deal is None:
            return state, emitted
        fresh = fair.unused_salts(salts, emitted)
        if (deal.stage, deal.step) == cursor and (waiting := _run_current(state, now, fresh)) is not None:
            if not waiting:
                return state, emitted
            state = _folded(state, waiting, emitted)
            cursor = _position(state)
            continue
        nxt = next_position(state, cursor)
        if nxt is None:
            return _folded(state, _end_of_deal(state, deal), emitted), emitted
        state, cursor, ended = _enter(state, nxt, now, emitted, fresh)
        if ended:
            live = state.deal
            assert live is not None
            return _folded(state, _end_of_deal(state, live), emitted), emitted
    raise AssertionError("the program did not come to rest")


def _run_current(state: TableState, now: datetime, salts: tuple[str, ...]) -> list[ev.Event] | None:
    """The current step's next events if it is interactive and not done ([]: waiting for
    players); None when the program moves on from it."""
    ctx, step = current_ctx(state, now, salts), state.current_step()
    if ctx is None or step is None or not step.definition.interactive or step.definition.done(ctx):
        return None
    return step.definition.run(ctx)


def _enter(
    state: TableState, position: Position, now: datetime, emitted: list[ev.Event], salts: tuple[str, ...]
) -> tuple[TableState, Position, bool]:
    """Reach the step at `position`: run it from its reset facts (its kind's `start`); its first
    event carries the position. Returns the state, the cursor and whether the deal is over."""
    stage, index = position
    step = state.rules.stages[stage - 1].steps[index]
    kind, params = step.definition, step.resolved(state.opts)
    entered = enter_step(state, stage, index)
    assert entered.deal is not None
    ctx = Ctx(entered, entered.deal, params, stage, index, now, salts)
    if kind.interactive:
        if kind.done(ctx):
            return state, position, False  # nothing to do: no trace
        new = kind.run(ctx) or [
            ev.StepStarted(deal_no=entered.deal.deal_no, stage=stage, step=index, kind=kind.name)
        ]  # waiting, with no opening
        state = _folded(state, _placed(new, position), emitted)
        return state, _position(state), False
    new = kind.run(ctx)
    after = _folded(state, _placed(new, position), emitted) if new else entered
    assert after.deal is not None
    ended = kind.ends_deal(Ctx(after, after.deal, params, stage, index, now))
    return (after if new else state), (_position(after) if new else position), ended


def _placed(events: list[ev.Event], position: Position) -> list[ev.Event]:
    """The step's events, the first carrying its position (a StepStarted carries its own)."""
    first = events[0]
    if isinstance(first, ev.StepStarted):
        return events
    return [replace(first, at_step=[position[0], position[1]]), *events[1:]]


def _position(state: TableState) -> Position:
    deal = state.deal
    assert deal is not None
    return deal.stage, deal.step


def next_position(state: TableState, cursor: Position) -> Position | None:
    """The next enabled step after `cursor` in the program (None: the program is over)."""
    stages, opts = state.rules.stages, state.opts
    stage, step = cursor
    if stage == 0:
        stage, step = 1, -1
    while stage <= len(stages):
        steps = stages[stage - 1].steps
        for index in range(step + 1, len(steps)):
            if steps[index].enabled(opts):
                return stage, index
        stage, step = stage + 1, -1
    return None


def _folded(state: TableState, events: list[ev.Event], into: list[ev.Event]) -> TableState:
    """`state` with `events` folded (each exactly once), which are appended to `into`."""
    for event in events:
        state = evolve(state, event)
        into.append(event)
    return state


def current_ctx(state: TableState, now: datetime, salts: Sequence[str] = ()) -> Ctx[Any] | None:
    """The live deal's current step at work (None between steps, deals or stages)."""
    deal, step = state.live, state.current_step()
    if deal is None or step is None:
        return None
    return Ctx(state, deal, step.resolved(state.opts), deal.stage, deal.step, now, tuple(salts))


def _end_of_deal(state: TableState, deal: DealState) -> list[ev.Event]:
    """DealEnded reveals the seed (DESIGN §2.7); the variant's game-end rule may end the game."""
    events: list[ev.Event] = [
        ev.DealEnded(deal_no=deal.deal_no, seed=deal.seed, commitment=deal.commitment, stacked=deal.stacked)
    ]
    if GAME_END_RULES[state.rules.game_ends](state, deal):
        final = bool(state.opts.get("end_on_empty_pot")) and state.pot == 0 and state.reserve == 0
        events.append(ev.GameEnded(game_no=deal.game_no, reason=deal.outcome, final=final))
        if final:
            events.append(close_table_events(state))
    return events


def antes_due(state: TableState) -> bool:
    """Whether a deal starting now asks every player for chips first (the program's first step
    that asks anything before a deal, D-GEN-06: only players who can pay are dealt in)."""
    for step in state.rules.program:
        asks = step.definition.due_before_deal
        if asks is not None and step.enabled(state.opts):
            return asks(state, step.resolved(state.opts))
    return False
