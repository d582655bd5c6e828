"""award_bets: the deal's bets go to the showdown's winner(s) (D-BET, Q-JP-01, Q-T25-01).

After the pot was settled at its pre-betting size (JP-12, T25-04), every chip in the deal's bets
account (`bets:<table>`, filled by the `betting` step) goes to the winner(s) of the showdown,
shared equally with the odd chips to the winners nearest the dealer's left (D-GEN-01). Folders'
bets are forfeited to them like everyone else's. When nobody won (a ghost hand that no "in"
player beat, GH-05) the bets join the pot, which stays for the next deal. No bets, no event.
"""

from __future__ import annotations

from ledger.accounts import Transfer, bets_account, pot_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider.money import split_evenly
from tables.engine.decider.steps.base import Ctx, NoParams, StepKind


def run(ctx: Ctx[NoParams]) -> list[ev.Event]:
    state, deal = ctx.state, ctx.deal
    amount, table = state.bets, state.table_id
    if amount <= 0:
        return []
    winners = [p for p in deal.order if p in deal.winners]
    if not winners:
        transfers = [Transfer(bets_account(table), pot_account(table), amount, "bets_to_pot")]
    else:
        transfers = [
            Transfer(bets_account(table), seat_account(table, player), share, "bets_won")
            for player, share in zip(winners, split_evenly(amount, winners), strict=True)
            if share > 0
        ]
    return [ev.BetsAwarded(deal_no=deal.deal_no, winners=winners, amount=amount, transfers=list(transfers))]


KIND = StepKind(name="award_bets", run=run)
