"""The interpreter: walks the live deal's program, stage by stage and step by step (DESIGN §2.2).

`advance(state, now)` runs until players must act or the deal has ended. Each turn of its loop
asks the current step's kind (`steps.KINDS`): an automatic kind runs once and the program moves
on; an interactive kind runs while it is not `done` (and [] means: waiting for players). Moving on
is always an explicit event: StageStarted, StepStarted, or the end of the deal (DealEnded, and
GameEnded when the variant's game-end rule says so). Events are folded as they are decided, so
every step sees the facts before it. No step kind appears here by name.
"""
from __future__ import annotations

from datetime import datetime

from tables.engine.decider import events as ev
from tables.engine.decider.close import close_table_events
from tables.engine.decider.evolve import evolve
from tables.engine.decider.game_end import GAME_END_RULES
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import KINDS, Ctx
from tables.engine.decider.steps.base import deck_for, iso, parse_iso
from tables.engine.decision import Decision

__all__ = ["advance", "antes_due", "current_ctx", "deck_for", "iso", "parse_iso", "then_advance"]


def then_advance(state: TableState, events: list[ev.Event], now: datetime) -> Decision[ev.Event, TableState]:
    """Fold `events` and run the program on: the command's events and their consequences, with
    the state after them (each event folded once)."""
    for event in events:
        state = evolve(state, event)
    state, more = advance(state, now)
    return Decision([*events, *more], state)


def advance(state: TableState, now: datetime) -> tuple[TableState, list[ev.Event]]:
    """Run the live deal's program; stop when players must act or the deal has ended."""
    emitted: list[ev.Event] = []
    while (deal := state.live) is not None:
        before = len(emitted)
        state = _next_events(state, deal, now, emitted)
        if len(emitted) == before:
            break
    return state, emitted


def _folded(state: TableState, events: list[ev.Event], into: list[ev.Event]) -> TableState:
    """`state` with `events` folded (each exactly once), which are appended to `into`."""
    for event in events:
        state = evolve(state, event)
        into.append(event)
    return state


def current_ctx(state: TableState, now: datetime) -> Ctx | None:
    """The live deal's current step at work (None between steps, deals or stages)."""
    deal, step = state.live, state.current_step()
    if deal is None or step is None:
        return None
    return Ctx(state, deal, step.resolved(state.opts), deal.stage, deal.step, now)


def _next_events(state: TableState, deal: DealState, now: datetime,
                 emitted: list[ev.Event]) -> TableState:
    """The program's next events, folded into the state they return and appended to `emitted`."""
    ctx = current_ctx(state, now)
    if ctx is None:
        return _folded(state, _move_on(state, deal, deal.stage, deal.step), emitted)
    step = state.current_step()
    assert step is not None
    kind = KINDS[step.kind]
    if kind.interactive:
        new = _move_on(state, deal, ctx.stage, ctx.step) if kind.done(ctx) else kind.run(ctx)
        return _folded(state, new, emitted)
    after = _folded(state, kind.run(ctx), emitted)
    assert after.deal is not None
    if kind.ends_deal(Ctx(after, after.deal, ctx.params, ctx.stage, ctx.step, now)):
        return _folded(after, _end_of_deal(after, after.deal), emitted)
    return _folded(after, _move_on(after, after.deal, ctx.stage, ctx.step), emitted)


def _move_on(state: TableState, deal: DealState, stage: int, step: int) -> list[ev.Event]:
    """The event that moves the program on from (`stage`, `step`) to the next enabled step, or
    ends the deal."""
    stages, opts = state.rules.stages, state.opts
    stage, step = (stage, step + 1) if stage else (0, 0)
    while stage <= len(stages):
        if stage == 0 or step >= len(stages[stage - 1].steps):
            stage, step = stage + 1, -1
            if stage <= len(stages):
                return [ev.StageStarted(deal_no=deal.deal_no, stage=stage, name=stages[stage - 1].name)]
            break
        if step < 0:
            step = 0
        candidate = stages[stage - 1].steps[step]
        if candidate.enabled(opts):
            return [ev.StepStarted(deal_no=deal.deal_no, stage=stage, step=step, kind=candidate.kind)]
        step += 1
    return _end_of_deal(state, deal)


def _end_of_deal(state: TableState, deal: DealState) -> list[ev.Event]:
    """DealEnded reveals the seed (DESIGN §2.7); the variant's game-end rule may end the game."""
    events: list[ev.Event] = [ev.DealEnded(deal_no=deal.deal_no, seed=deal.seed,
                                           commitment=deal.commitment, stacked=deal.stacked)]
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
