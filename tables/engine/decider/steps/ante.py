"""ante: chips from the participants' seats into the pot before the cards (G2-03, G2-05, SL-03,
357-05, 42X-01/D-42X-02, TPO-04's extra ante).

``who``: ``pot_empty`` (G2-05: everyone, only when the pot is empty) | ``every_deal`` (SL-03,
357-05) | ``went_out_last_deal`` (D-42X-02: a new game antes in full; then only the players who
were not "in" at the end of the last deal) | ``in_players`` (TPO-04: the current "in" players).
``amount``: chips each (default the table's ante); ``reason``: the transfers' reason.
"""
from __future__ import annotations

from ledger.accounts import Transfer, pot_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider.money import rebalance_reserve, terms_of
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.base import Ctx, Param, StepKind

WHO = ("pot_empty", "every_deal", "went_out_last_deal", "in_players")


def payers(ctx: Ctx) -> list[str]:
    who, state, deal = ctx.params["who"], ctx.state, ctx.deal
    if who == "in_players":
        return list(deal.in_players())
    if who == "every_deal" or state.pot == 0:
        return list(deal.order)
    if who == "went_out_last_deal":
        return [p for p in deal.order if p not in state.last_in]
    return []                                                   # G2-05: the pot carries


def due_before_deal(who: str, state: TableState) -> bool:
    """Whether a deal starting now asks the players for an ante (D-GEN-06 seats only players who
    can pay it)."""
    return who in ("every_deal", "went_out_last_deal") or (who == "pot_empty" and state.pot == 0)


def run(ctx: Ctx) -> list[ev.Event]:
    state, deal, table = ctx.state, ctx.deal, ctx.state.table_id
    ante = ctx.params["amount"] or state.opts.get("ante", 1)
    paid = payers(ctx)
    transfers = [Transfer(seat_account(table, p), pot_account(table), ante, ctx.params["reason"])
                 for p in paid]
    pot = state.pot + ante * len(paid)
    transfers += rebalance_reserve(table, pot, state.reserve, terms_of(state.opts))   # RES-01
    sat_out = [s.player for s in state.seats if s.player not in deal.order]           # D-GEN-06
    return [ev.AntesPosted(deal_no=deal.deal_no, due=bool(paid), ante=ante, paid=paid,
                           sat_out=sat_out, transfers=[t.to_json() for t in transfers])]


KIND = StepKind(
    name="ante",
    schema={"who": Param((str,), "pot_empty", choices=WHO), "amount": Param((int,), 0),
            "reason": Param((str,), "ante", choices=("ante", "extra_ante"))},
    run=run,
)
