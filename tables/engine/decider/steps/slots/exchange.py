"""The exchange kind's own facts (only `steps.exchange` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class ExchangeSlot(NamedTuple):
    """How many cards each player has drawn in the deal, aligned with `order` (public: EXC-01/02,
    D-IT-05; the cards themselves are private)."""

    drew: tuple[int, ...] = ()
