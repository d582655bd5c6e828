"""The escalation kind's own facts (only `steps.escalation` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class EscalationSlot(NamedTuple):
    """The pot's level now (a multiple of the pot; 0: no escalation ran), the highest level each
    player (aligned with `order`) accepted, who has had a turn, and the index in `order` of the
    last to act (-1: nobody yet)."""

    esc_level: int = 0
    accepted: tuple[int, ...] = ()
    acted: tuple[str, ...] = ()
    esc_last: int = -1
