"""What a decider returns: the events a command makes happen and the state after them.

Each event is folded exactly once, as it is decided; the command runner, the state cache and the
projections read `state` instead of folding the same events again (DESIGN §2.2 "Fold once").
A `Decision` is a list of its events, so code that only wants the events reads it as one.
"""

from __future__ import annotations

from typing import Generic, TypeVar

E = TypeVar("E")
S = TypeVar("S")


class Decision(list[E], Generic[E, S]):
    """The decided events (the list itself) and `state`, the stream's state after them."""

    __slots__ = ("state",)

    def __init__(self, events: list[E], state: S) -> None:
        super().__init__(events)
        self.state = state
