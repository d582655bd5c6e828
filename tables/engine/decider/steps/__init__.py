"""The step kinds, one module each (DESIGN §2.2): the registry the interpreter and the variant
checker use. Adding a kind is adding a module and a line here."""

from __future__ import annotations

from collections.abc import Mapping

from tables.engine.decider.steps import (
    all_out,
    ante,
    auction,
    award_bets,
    award_pot,
    betting,
    deal,
    declare,
    draw,
    escalation,
    exchange,
    high_low_showdown,
    lone_in,
    offer,
    pots,
    questioning,
    settle,
    showdown,
    tricks,
    trump,
)
from tables.engine.decider.steps.base import Ctx, Fold, Param, StepKind, check_step, resolve

KINDS: Mapping[str, StepKind] = {
    kind.name: kind
    for kind in (
        ante.KIND,
        deal.KIND,
        declare.KIND,
        all_out.KIND,
        lone_in.KIND,
        showdown.KIND,
        settle.KIND,
        award_pot.KIND,
        auction.KIND,
        exchange.KIND,
        escalation.KIND,
        high_low_showdown.KIND,  # T38-03, 43-03..05
        betting.KIND,
        award_bets.KIND,  # D-BET
        draw.KIND,
        pots.KIND,  # IT-12..18, D-IT-02
        offer.KIND,  # BF-02..04, D-BF-01
        questioning.KIND,
        trump.KIND,
        tricks.KIND,
    )
}  # WL-04..12, D-WL

__all__ = ["KINDS", "Ctx", "Fold", "Param", "StepKind", "check_step", "resolve"]
