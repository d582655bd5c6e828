"""The offer kind's own facts (only `steps.offer` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class OfferSlot(NamedTuple):
    """The middle card (None before it is turned), the index in `order` of the next player to be
    offered it, how many have declined it in a row, who put it there (-1: the stock), and every
    take so far as (player, took, gave)."""

    middle: str | None = None
    next_at: int = 0
    declined: int = 0
    giver: int = -1
    swaps: tuple[tuple[str, str, str], ...] = ()
