"""all_out: when every player is "out", the two all-out rules that deal on and declare again.

``rule`` (the table's ``all_out`` option): ``extra_card`` (AO-07, D-AO: one more card each, then a
new declare, while the pack can serve a round) and ``pass_right`` (AO-06, D-AO: everyone passes
one card to his right, chosen sealed before seeing what he receives, then a new declare). Any
other rule, or anyone "in", and the step is done at once: the showdown and settle steps apply the
rest of the all-out rules (`decider.all_out`). The return to the declare is an explicit
StepStarted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tables.engine.decider import events as ev
from tables.engine.decider.all_out import REDECLARE
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps import passing
from tables.engine.decider.steps.base import Ctx, StepKind, deadline, next_cards, swap_passed
from tables.engine.deck import STANDARD_PACK


def _pack_serves_a_round(deal: DealState) -> bool:
    return deal.dealt + len(deal.order) <= len(STANDARD_PACK)


def done(ctx: Ctx[AllOutParams]) -> bool:
    rule, deal = ctx.params.rule, ctx.deal
    if deal.in_players() or rule not in REDECLARE:
        return True
    return rule == "extra_card" and not _pack_serves_a_round(deal)


def _back_to_declare(ctx: Ctx[AllOutParams]) -> ev.StepStarted:
    steps = ctx.state.rules.stages[ctx.stage - 1].steps
    index = max(i for i in range(ctx.step) if steps[i].kind == "declare")
    return ev.StepStarted(deal_no=ctx.deal.deal_no, stage=ctx.stage, step=index, kind="declare")


def run(ctx: Ctx[AllOutParams]) -> list[ev.Event]:
    deal = ctx.deal
    if ctx.params.rule == "extra_card":  # AO-07
        cards = next_cards(ctx, len(deal.order))
        dealt: list[ev.Event] = [
            ev.CardsDealt(
                deal_no=deal.deal_no, player=p, face="down", cards=[*deal.hands[i], cards[i]], extra=True
            )
            for i, p in enumerate(deal.order)
        ]
        return [*dealt, _back_to_declare(ctx)]
    if not deal.passing:  # AO-06
        return [ev.PassOpened(deal_no=deal.deal_no, players=list(deal.order), deadline=deadline(ctx))]
    if None in deal.passed:
        return []
    return [*swap_passed(deal, +1), _back_to_declare(ctx)]


def offers(ctx: Ctx[AllOutParams], player: str) -> list[dict[str, Any]]:
    return passing.offers(ctx, player, None)


def phase(deal: DealState) -> str:
    return passing.phase(deal, "all_out")


def start(deal: DealState, params: AllOutParams) -> DealState:
    return deal._replace(passing=False, passed=())


def fold_pass_opened(state: TableState, e: ev.PassOpened) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(
        passing=True, passed=(None,) * len(deal.order), awaiting=tuple(e.players), deadline=e.deadline
    )


def fold_card_passed(state: TableState, e: ev.CardPassed) -> TableState:
    deal = state.deal
    assert deal is not None
    awaiting = tuple(p for p in deal.awaiting if p != e.player)
    return state.with_deal(
        passed=set_at(deal.passed, deal.position(e.player), e.card),
        awaiting=awaiting,
        deadline=deal.deadline if awaiting else None,
    )


def fold_cards_exchanged(state: TableState, e: ev.CardsExchanged) -> TableState:
    deal = state.deal
    assert deal is not None
    hands = set_at(deal.hands, deal.position(e.player), tuple(e.cards))
    last = e.player == deal.order[-1]
    return state.with_deal(
        hands=hands,
        passing=deal.passing and not last,
        passed=() if last else deal.passed,
        exchanged=(*deal.exchanged, e.player),
    )


@dataclass(frozen=True, slots=True)
class AllOutParams:
    """The all out step's parameters."""

    rule: str = "carry"


KIND = StepKind(
    name="all_out",
    params=AllOutParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={
        ev.PassOpened: fold_pass_opened,
        ev.CardPassed: fold_card_passed,
        ev.CardsExchanged: fold_cards_exchanged,
    },
    commands=passing.COMMANDS,
    actions=(passing.ACTION,),
    offers=offers,
    expire=passing.timeout,
    phase=phase,
)
