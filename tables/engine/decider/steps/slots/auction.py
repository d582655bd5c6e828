"""The auction kind's own facts (only `steps.auction` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class AuctionSlot(NamedTuple):
    """The open hand's auction: the standing bid (0: none), its bidder, the passes in a row since
    the last bid (or the start) and whose turn comes next (an index in `order`)."""

    high_bid: int = 0
    high_bidder: str | None = None
    bid_passes: int = 0
    bid_turn: int = 0
