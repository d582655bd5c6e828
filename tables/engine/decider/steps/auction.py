"""auction: the players bid for the open hand before the declare (MCA-04, D-MC-04, Q-MC-04).

``rule`` (the table's ``open_hand`` option, `decider.ghost`): only ``auction`` bids; any other
rule and the step is done at once. D-MC-04: in turn from the dealer's left each player bids more
than the current high bid or passes (a bid is whole chips, at least one, within his stack unless
allow_debt, D-GEN-06); when every other player has passed after a bid, the high bidder pays the
bid into the pot and swaps hands with the open hand, which then holds his cards, face up; then
the auction starts again from the dealer's left, until a full turn passes with no bid. A turn not
taken by its deadline is a pass. Bids and the swap are public: the open hand is face up.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.accounts import Transfer, pot_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import Ctx, Param, StepKind, deadline


def _running(ctx: Ctx) -> bool:
    return ctx.params["rule"] == ghost.AUCTION and bool(ctx.deal.ghost)


def done(ctx: Ctx) -> bool:
    """Over when no auction is played, or a full turn passed with no bid."""
    deal = ctx.deal
    return not _running(ctx) or (deal.high_bidder is None and deal.bid_passes >= len(deal.order))


def run(ctx: Ctx) -> list[ev.Event]:
    deal = ctx.deal
    if deal.awaiting:
        return []
    if deal.high_bidder is not None and deal.bid_passes >= len(deal.order) - 1:
        return [_sold(ctx, deal.high_bidder, deal.high_bid)]
    player = deal.order[deal.bid_turn]
    return [ev.BidOpened(deal_no=deal.deal_no, player=player, high_bid=deal.high_bid,
                         deadline=deadline(ctx))]


def _sold(ctx: Ctx, player: str, bid: int) -> ev.OpenHandBought:
    """D-MC-04: the high bidder pays his bid into the pot and swaps hands with the open hand."""
    deal, table = ctx.deal, ctx.state.table_id
    transfer = Transfer(seat_account(table, player), pot_account(table), bid, "open_hand_bid")
    return ev.OpenHandBought(deal_no=deal.deal_no, player=player, bid=bid,
                             gave=list(deal.hand_of(player)), received=list(deal.ghost),
                             transfers=[transfer.to_json()])


def start(deal: DealState, params: Mapping[str, Any]) -> DealState:
    return _new_round(deal)


def _new_round(deal: DealState) -> DealState:
    return deal._replace(high_bid=0, high_bidder=None, bid_passes=0, bid_turn=0, awaiting=(),
                         deadline=None)


def fold_opened(state: TableState, e: ev.BidOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_bid(state: TableState, e: ev.BidMade) -> TableState:
    deal = state.deal
    assert deal is not None
    turn = (deal.position(e.player) + 1) % len(deal.order)
    if e.amount is None:
        return state.with_deal(bid_passes=deal.bid_passes + 1, bid_turn=turn, awaiting=(),
                               deadline=None)
    return state.with_deal(high_bid=e.amount, high_bidder=e.player, bid_passes=0, bid_turn=turn,
                           awaiting=(), deadline=None)


def fold_bought(state: TableState, e: ev.OpenHandBought) -> TableState:
    deal = state.deal
    assert deal is not None
    hands = set_at(deal.hands, deal.position(e.player), tuple(e.received))
    return state._replace(deal=_new_round(deal._replace(hands=hands, ghost=tuple(e.gave))))


KIND = StepKind(
    name="auction",
    schema={"rule": Param((str,), ghost.NONE, choices=ghost.RULES)},
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.BidOpened: fold_opened, ev.BidMade: fold_bid, ev.OpenHandBought: fold_bought},
)
