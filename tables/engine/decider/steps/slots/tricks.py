"""The tricks kind's own facts (only `steps.tricks` imports this module)."""

from __future__ import annotations

from typing import NamedTuple

Play = tuple[str, str]  # (player, card)


class TricksSlot(NamedTuple):
    """The trick being played (its plays so far), every finished trick as (winner, plays), and
    whether a player without a trick pays double (WL-12, the step's parameter)."""

    playing: tuple[Play, ...] = ()
    finished: tuple[tuple[str, tuple[Play, ...]], ...] = ()
    no_trick_double: bool = False
