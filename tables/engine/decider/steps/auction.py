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

from dataclasses import dataclass
from typing import Any, NamedTuple

from ledger.accounts import Transfer, pot_account, seat_account
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting, check_amount
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import (
    Ctx,
    StepKind,
    deadline,
    param,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class AuctionSlot(NamedTuple):
    """The open hand's auction: the standing bid (0: none), its bidder, the passes in a row since
    the last bid (or the start) and whose turn comes next (an index in `order`)."""

    high_bid: int = 0
    high_bidder: str | None = None
    bid_passes: int = 0
    bid_turn: int = 0


NAME = "auction"


_EMPTY = AuctionSlot()


def auction_of(deal: DealState) -> AuctionSlot:
    return slot_of(deal, NAME, _EMPTY)


def _running(ctx: Ctx[AuctionParams]) -> bool:
    return ctx.params.rule == ghost.AUCTION and bool(ctx.deal.ghost)


def done(ctx: Ctx[AuctionParams]) -> bool:
    """Over when no auction is played, or a full turn passed with no bid."""
    auction = auction_of(ctx.deal)
    return not _running(ctx) or (auction.high_bidder is None and auction.bid_passes >= len(ctx.deal.order))


def run(ctx: Ctx[AuctionParams]) -> list[ev.Event]:
    deal = ctx.deal
    if deal.awaiting:
        return []
    auction = auction_of(deal)
    if auction.high_bidder is not None and auction.bid_passes >= len(deal.order) - 1:
        return [_sold(ctx, auction.high_bidder, auction.high_bid)]
    player = deal.order[auction.bid_turn]
    return [
        ev.BidOpened(deal_no=deal.deal_no, player=player, high_bid=auction.high_bid, deadline=deadline(ctx))
    ]


def _sold(ctx: Ctx[AuctionParams], player: str, bid: int) -> ev.OpenHandBought:
    """D-MC-04: the high bidder pays his bid into the pot and swaps hands with the open hand."""
    deal, table = ctx.deal, ctx.state.table_id
    transfer = Transfer(seat_account(table, player), pot_account(table), bid, "open_hand_bid")
    return ev.OpenHandBought(
        deal_no=deal.deal_no,
        player=player,
        bid=bid,
        gave=list(deal.hand_of(player)),
        received=list(deal.ghost),
        transfers=[transfer],
    )


# --- the players' command: Bid (MCA-04, D-MC-04) ---------------------------------------------------


def bid_range(state: TableState, player: str) -> tuple[int, int | None]:
    """(min, max) of a bid now: above the standing bid, within the stack unless allow_debt
    (D-GEN-06); max None = no maximum."""
    deal = state.live
    assert deal is not None
    allow_debt = state.opts.get("stack_policy", "default") == "allow_debt"
    return auction_of(deal).high_bid + 1, None if allow_debt else state.stack_of(player)


def check_bid(ctx: Ctx[AuctionParams], c: cmd.Bid) -> None:
    """MCA-04, D-MC-04: the player's turn in the open hand's auction; a bid is whole chips above
    the standing bid that his stack can pay (None: a pass)."""
    state = ctx.state
    deal = check_acting(state, c.player_id, c.deal_no)
    if c.player_id not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {c.player_id}'s turn to bid", player=c.player_id)
    if c.amount is None:
        return
    check_amount(c.amount)
    low, high = bid_range(state, c.player_id)
    if c.amount < low:
        raise DomainError(
            "bid_too_low", f"bid more than the standing bid of {auction_of(deal).high_bid}", minimum=low
        )
    if high is not None and c.amount > high:
        raise DomainError("insufficient_stack", "the stack cannot pay this bid", needed=c.amount, stack=high)


def bid(ctx: Ctx[AuctionParams], c: cmd.Bid, checked: None) -> list[ev.Event]:
    return [ev.BidMade(deal_no=c.deal_no, player=c.player_id, amount=c.amount, timed_out=False)]


def expire(ctx: Ctx[AuctionParams]) -> list[ev.Event]:
    """MCA-04: a bid not made in time is a pass."""
    return [
        ev.BidMade(deal_no=ctx.deal.deal_no, player=p, amount=None, timed_out=True) for p in ctx.deal.awaiting
    ]


def offers(ctx: Ctx[AuctionParams], player: str) -> list[dict[str, Any]]:
    deal = ctx.deal
    if player not in deal.awaiting:
        return []
    low, high = bid_range(ctx.state, player)
    auction = auction_of(deal)
    return [
        {
            "action": "bid",
            "deal_no": deal.deal_no,
            "min": low,
            "max": high,
            "high_bid": auction.high_bid,
            "high_bidder": auction.high_bidder,
            **turn_fields(deal, ctx.now),
        }
    ]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """The standing bid while the auction is the current step (bids are public, MCA-04)."""
    step = state.current_step() if not deal.over else None
    if step is None or step.kind != NAME:
        return {"auction": None}
    auction = auction_of(deal)
    return {"auction": {"high_bid": auction.high_bid, "high_bidder": auction.high_bidder}}


# --- folds ---------------------------------------------------------------------------------------------


def start(deal: DealState, params: AuctionParams) -> DealState:
    return _new_round(deal)


def _new_round(deal: DealState) -> DealState:
    return with_slot(deal._replace(awaiting=(), deadline=None), NAME, _EMPTY)


def fold_opened(state: TableState, e: ev.BidOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_bid(state: TableState, e: ev.BidMade) -> TableState:
    deal = state.deal
    assert deal is not None
    auction = auction_of(deal)
    turn = (deal.position(e.player) + 1) % len(deal.order)
    if e.amount is None:
        auction = auction._replace(bid_passes=auction.bid_passes + 1, bid_turn=turn)
    else:
        auction = AuctionSlot(high_bid=e.amount, high_bidder=e.player, bid_passes=0, bid_turn=turn)
    return state._replace(deal=with_slot(deal._replace(awaiting=(), deadline=None), NAME, auction))


def fold_bought(state: TableState, e: ev.OpenHandBought) -> TableState:
    deal = state.deal
    assert deal is not None
    hands = set_at(deal.hands, deal.position(e.player), tuple(e.received))
    return state._replace(deal=_new_round(deal._replace(hands=hands, ghost=tuple(e.gave))))


@dataclass(frozen=True, slots=True)
class AuctionParams:
    """The auction step's parameters."""

    rule: str = param(ghost.NONE, choices=ghost.RULES)


KIND = StepKind(
    name=NAME,
    params=AuctionParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.BidOpened: fold_opened, ev.BidMade: fold_bid, ev.OpenHandBought: fold_bought},
    commands={cmd.Bid: (check_bid, bid)},
    actions=("bid",),
    offers=offers,
    expire=expire,
    view=view,
    slot=AuctionSlot,
)
