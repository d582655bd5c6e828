"""settle: the chips move by the named settlement rule (`decider.settlement.RULES`).

``rule``: a rule of `settlement.RULES` (``match_pot_each``, G2-13; ``losers_pay_winners``,
D-357-01/02; ``match_escalated``, D-T38-01; ``high_low``, D-43-01; ...); ``all_out``: the
table's all-out rule (AO-*, 42X-02), for when nobody is "in". The caps (``max_loss``,
``pot_limit`` with ``cap_rule``) are the table's money terms (`money.terms_of`). A rule may excuse
players from the next deal's ante (``PotSettled.ante_exempt``: SL-04, D-MC-01, D-AO-02); the
ante step of the next deal skips them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.decider import all_out
from tables.engine.decider import events as ev
from tables.engine.decider.money import Round, Settlement, terms_of
from tables.engine.decider.settlement import RULES
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps.ante import antes_every_deal
from tables.engine.decider.steps.base import Ctx, StepKind, param


def run(ctx: Ctx[SettleParams]) -> list[ev.Event]:
    state, deal = ctx.state, ctx.deal
    result = RULES[ctx.params.rule](
        Round(
            table=state.table_id,
            order=deal.order,
            choices=deal.choices,
            winners=deal.winners,
            pot=state.pot,
            reserve=state.reserve,
            stacks={s.player: s.stack for s in state.seats},
            terms=terms_of(state.opts),
            all_out=ctx.params.all_out,
            hands=dict(zip(deal.order, deal.hands, strict=True)),
            antes_every_deal=antes_every_deal(state),
            worst=deal.worst,
            ghost_played=deal.ghost_shown,
            escalated=owed(state, deal),
            folded=deal.folded,
            sides=deal.sides,
        )
    )  # T38-04/05, WL, 43-05
    return [settled_event(deal.deal_no, result)]


def owed(state: TableState, deal: DealState) -> dict[str, int]:
    """The multiple of the pot each player owes unless he wins, as the program's kinds say
    (`StepKind.owes`: the escalation's levels, T38-04; the tricks, WL-10..12)."""
    out: dict[str, int] = {}
    for st in state.rules.program:
        if st.definition.owes is not None and st.enabled(state.opts):
            out.update(st.definition.owes(deal))
    return out


def settled_event(deal_no: int, result: Settlement) -> ev.PotSettled:
    return ev.PotSettled(
        deal_no=deal_no,
        outcome=result.outcome,
        winners=list(result.winners),
        matchers=list(result.matchers),
        transfers=list(result.transfers),
        pot=result.pot,
        reserve=result.reserve,
        ante_exempt=list(result.ante_exempt) or None,
    )


def fold(state: TableState, e: ev.PotSettled) -> TableState:
    return state.with_deal(
        outcome=e.outcome, winners=tuple(e.winners), ante_exempt=tuple(e.ante_exempt or ())
    )


@dataclass(frozen=True, slots=True)
class SettleParams:
    """The settle step's parameters."""

    rule: str = param(choices=tuple(RULES))
    all_out: str = param("carry", choices=all_out.RULES)


KIND = StepKind(
    name="settle",
    params=SettleParams,
    run=run,
    folds={ev.PotSettled: fold},
)
