"""The questioning kind's own facts (only `steps.questioning` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class QuestioningSlot(NamedTuple):
    """The trump chooser the questioning named (None: not asked)."""

    chooser: str | None = None
