"""The trump kind's own facts (only `steps.trump` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class TrumpSlot(NamedTuple):
    """The trump chosen (None: not yet, or no tricks in this deal)."""

    trump: str | None = None
