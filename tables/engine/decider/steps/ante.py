"""ante: chips from the participants' seats into the pot before the cards (G2-03, G2-05, SL-03,
357-05, 42X-01/D-42X-02, TPO-04's extra ante).

``who``: ``pot_empty`` (G2-05: everyone, only when the pot is empty) | ``every_deal`` (SL-03,
357-05) | ``went_out_last_deal`` (D-42X-02: a new game antes in full; then only the players who
were not "in" at the end of the last deal) | ``in_players`` (TPO-04: the current "in" players).
``amount``: chips each (default the table's ante); ``reason``: the transfers' reason; ``ghost``
(the table's ghost option): after a deal everyone went out of, everyone antes anew (GH-06).
Whoever the last deal's settlement excused (``TableState.ante_exempt``: SL-04, D-MC-01, D-AO-02)
does not pay the deal's first antes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.accounts import Transfer, pot_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.money import affordable, rebalance_reserve, terms_of
from tables.engine.decider.state import TableState
from tables.engine.decider.steps.base import Ctx, StepKind, param

WHO = ("pot_empty", "every_deal", "went_out_last_deal", "in_players")


def payers(ctx: Ctx[AnteParams]) -> list[str]:
    """Who antes now, before the last deal's exemptions."""
    who, state, deal = ctx.params.who, ctx.state, ctx.deal
    if who == "in_players":
        return list(deal.in_players())
    if who == "every_deal" or state.pot == 0 or ghost.antes_anew(ctx.params.ghost, state):
        return list(deal.order)
    if who == "went_out_last_deal":
        return [p for p in deal.order if p not in state.last_in]
    return []  # G2-05: the pot carries


def exempt(ctx: Ctx[AnteParams], due: list[str]) -> list[str]:
    """SL-04, D-MC-01, D-AO-02: those of `due` the last deal's settlement excused from this
    deal's ante (never from TPO-04's extra ante of the "in" players)."""
    if ctx.params.who == "in_players":
        return []
    return [p for p in due if p in ctx.state.ante_exempt]


def antes_every_deal(state: TableState) -> bool:
    """Whether the program's first ante is due every deal (SL-03, 357-05): D-AO-02 asks."""
    for step in state.rules.program:
        if step.kind == "ante" and step.enabled(state.opts):
            return bool(step.param("who", state.opts) == "every_deal")
    return False


def due_before_deal(who: str, state: TableState, ghost_rule: str = ghost.NONE) -> bool:
    """Whether a deal starting now asks the players for an ante (D-GEN-06 seats only players who
    can pay it)."""
    return who in ("every_deal", "went_out_last_deal") or (
        who == "pot_empty" and (state.pot == 0 or ghost.antes_anew(ghost_rule, state))
    )


def owed_when_in(params: AnteParams, opts: Mapping[str, Any]) -> int:
    """TPO-04: the extra ante an "in" player owes at this step (D-GEN-06 counts it in what "in"
    costs)."""
    return int(params.amount or opts.get("ante", 1)) if params.who == "in_players" else 0


def asks_before_deal(state: TableState, params: AnteParams) -> bool:
    return due_before_deal(params.who, state, params.ghost)


def run(ctx: Ctx[AnteParams]) -> list[ev.Event]:
    """Everyone due pays the ante; a short "in" player's extra ante (TPO-04) is what he has,
    unless the table extends credit (D-GEN-06: no stack goes below zero without allow_debt)."""
    state, deal, table = ctx.state, ctx.deal, ctx.state.table_id
    ante, terms = ctx.params.amount or state.opts.get("ante", 1), terms_of(state.opts)
    due = payers(ctx)
    excused = exempt(ctx, due)
    amounts = {p: affordable(ante, state.stack_of(p), terms) for p in due if p not in excused}
    paid = [p for p, amount in amounts.items() if amount > 0]
    transfers = [
        Transfer(seat_account(table, p), pot_account(table), amounts[p], ctx.params.reason) for p in paid
    ]
    pot = state.pot + sum(amounts.values())
    transfers += rebalance_reserve(table, pot, state.reserve, terms)  # RES-01
    sat_out = [s.player for s in state.seats if s.player not in deal.order]  # D-GEN-06
    return [
        ev.AntesPosted(
            deal_no=deal.deal_no,
            due=bool(paid),
            ante=ante,
            paid=paid,
            sat_out=sat_out,
            transfers=list(transfers),
            exempt=excused or None,
        )
    ]


@dataclass(frozen=True, slots=True)
class AnteParams:
    """The ante step's parameters."""

    who: str = param("pot_empty", choices=WHO)
    amount: int = 0
    reason: str = param("ante", choices=("ante", "extra_ante"))
    ghost: str = param(ghost.NONE, choices=ghost.RULES)


KIND = StepKind(
    name="ante",
    params=AnteParams,
    run=run,
    owed_when_in=owed_when_in,
    due_before_deal=asks_before_deal,
)
