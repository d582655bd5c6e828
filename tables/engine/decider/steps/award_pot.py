"""award_pot: the holder of ``legs`` legs takes the whole pot and the reserve (357-04, 357-25),
whichever stage it is; the deal ends there and so does the game (legs reset when it ends)."""

from __future__ import annotations

from dataclasses import dataclass

from ledger.accounts import Transfer, pot_account, reserve_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.base import Ctx, StepKind


def _holder(ctx: Ctx[AwardPotParams]) -> str | None:
    legs = {s.player: s.legs for s in ctx.state.seats}
    return next((p for p in ctx.deal.order if legs.get(p, 0) >= ctx.params.legs), None)


def run(ctx: Ctx[AwardPotParams]) -> list[ev.Event]:
    player = _holder(ctx)
    if player is None:
        return []
    state, table = ctx.state, ctx.state.table_id
    transfers = [
        Transfer(source, seat_account(table, player), amount, "pot_awarded")
        for source, amount in ((pot_account(table), state.pot), (reserve_account(table), state.reserve))
        if amount > 0
    ]
    return [
        ev.PotAwarded(
            deal_no=ctx.deal.deal_no,
            player=player,
            legs=ctx.params.legs,
            transfers=list(transfers),
        )
    ]


def ends_deal(ctx: Ctx[AwardPotParams]) -> bool:
    return _holder(ctx) is not None


def fold(state: TableState, e: ev.PotAwarded) -> TableState:
    return state.with_deal(outcome="pot_awarded", winners=(e.player,))


@dataclass(frozen=True, slots=True)
class AwardPotParams:
    """The award pot step's parameters."""

    legs: int = 3


KIND = StepKind(
    name="award_pot",
    params=AwardPotParams,
    run=run,
    ends_deal=ends_deal,
    folds={ev.PotAwarded: fold},
)
