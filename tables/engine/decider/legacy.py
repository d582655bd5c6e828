"""Deals logged before the program's position was explicit (no StageStarted/StepStarted).

Those logs are Two- and Three-card Guts deals whose position advanced as a side effect of the
step events. `walk` replays exactly that rule, so an old log folds to the same state as it did
when it was written; the first StageStarted or StepStarted makes the deal explicit and this
module steps aside. Nothing new is written this way.
"""
from __future__ import annotations

from tables.engine.decider import events as ev
from tables.engine.decider.state import DealState, TableState, copy_with

_OLD_PROGRAM = ("ante", "deal", "declare", "showdown", "settle")


def walk(state: TableState, event: ev.Event) -> TableState:
    deal = state.deal
    assert deal is not None
    if isinstance(event, ev.DealStarted):
        return state
    steps = state.rules.stages[0].steps
    kinds = [s.kind for s in steps]
    if deal.stage == 0:
        deal = copy_with(deal, stage=1, step=kinds.index("ante"))
    if _rewinds(event, deal):                               # AO-06/AO-07: a new declare
        deal = copy_with(deal, step=kinds.index("declare"), choices=(None,) * len(deal.order),
                         forced=None, passing=False, passed=())
    elif 0 <= deal.step < len(kinds) and _done(kinds[deal.step], event, deal):
        later = [i for i in range(deal.step + 1, len(kinds)) if kinds[i] in _OLD_PROGRAM]
        deal = copy_with(deal, step=later[0] if later else len(kinds))
    return copy_with(state, deal=deal)


def _rewinds(event: ev.Event, deal: DealState) -> bool:
    last = deal.order[-1]
    return ((isinstance(event, ev.CardsDealt) and event.extra and event.player == last)
            or (isinstance(event, ev.CardsExchanged) and event.player == last))


def _done(kind: str, event: ev.Event, deal: DealState) -> bool:
    """The old rule: does this event complete the current step?"""
    if kind == "ante":
        return isinstance(event, ev.AntesPosted)
    if kind == "deal":
        return isinstance(event, ev.CardsDealt) and event.player == deal.order[-1]
    if kind == "declare":
        return (isinstance(event, ev.Declared | ev.DeclareTimedOut | ev.DeclaresRevealed)
                and not deal.sealed and None not in deal.choices)
    if kind == "showdown":
        return isinstance(event, ev.ShowdownHeld)
    if kind == "settle":
        return isinstance(event, ev.PotSettled)
    return False
