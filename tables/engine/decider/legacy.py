"""Deals logged before the program's position was explicit (no StageStarted/StepStarted).

Those logs are Two- and Three-card Guts deals whose position advanced as a side effect of the
step events. `walk` replays that rule on today's Guts program, so an old log folds to the same
state as it did when it was written, and a deal left in progress plays on (the all_out step, which
the old program lacked, follows the declare: AO-06/AO-07 still happen). The first StageStarted or
StepStarted makes the deal explicit and this module steps aside. Nothing new is written this way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.engine.decider import events as ev
from tables.engine.decider.state import DealState, TableState, copy_with

if TYPE_CHECKING:
    from tables.engine.decider.variants import Step


def walk(state: TableState, event: ev.Event) -> TableState:
    deal = state.deal
    assert deal is not None
    if isinstance(event, ev.DealStarted):
        return state
    steps = state.rules.stages[0].steps
    kinds = [s.kind for s in steps]
    if deal.stage == 0:
        deal = copy_with(deal, stage=1, step=kinds.index("ante"))
    if _rewinds(event, deal):  # AO-06/AO-07: a new declare
        deal = copy_with(
            deal,
            step=kinds.index("declare"),
            choices=(None,) * len(deal.order),
            forced=None,
            passing=False,
            passed=(),
        )
    else:
        # The event ends the first step at or after the position it completes: the declare's end
        # moves to all_out, and a ShowdownHeld passes over all_out to the settle.
        done = next((i for i in range(max(deal.step, 0), len(kinds)) if _done(kinds[i], event, deal)), None)
        if done is not None:
            deal = copy_with(deal, step=_enabled_from(state, steps, done + 1))
    return copy_with(state, deal=deal)


def _enabled_from(state: TableState, steps: tuple[Step, ...], index: int) -> int:
    """The first step at or after `index` that the table's options switch on (old tables have
    none of the later optional steps, such as the exchange)."""
    while index < len(steps) and not steps[index].enabled(state.opts):
        index += 1
    return index


def _rewinds(event: ev.Event, deal: DealState) -> bool:
    last = deal.order[-1]
    return (isinstance(event, ev.CardsDealt) and event.extra and event.player == last) or (
        isinstance(event, ev.CardsExchanged) and event.player == last
    )


def _done(kind: str, event: ev.Event, deal: DealState) -> bool:
    """The old rule: does this event complete the current step?"""
    if kind == "ante":
        return isinstance(event, ev.AntesPosted)
    if kind == "deal":
        return isinstance(event, ev.CardsDealt) and event.player == deal.order[-1]
    if kind == "declare":
        return (
            isinstance(event, ev.Declared | ev.DeclareTimedOut | ev.DeclaresRevealed)
            and not deal.sealed
            and None not in deal.choices
        )
    if kind == "showdown":
        return isinstance(event, ev.ShowdownHeld)
    if kind == "settle":
        return isinstance(event, ev.PotSettled)
    return False
