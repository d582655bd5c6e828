"""The projections an append runs inside its own transaction (DESIGN §2.5): a slot the store calls.

The store does not import the projection framework (`ledger.projections` reads the store's log to
rebuild, so the two would import each other); the ledger app's ready() puts
`projections.run_inline` here. An append before that (the ledger app not installed or not ready)
fails rather than leave the balances behind the log.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ledger.dbapi import Balances
    from ledger.store import StoredEvent

# Applies the events; returns the balances they left on the accounts they moved.
InlineRunner = Callable[[Sequence["StoredEvent"]], "Balances"]

_runner: InlineRunner | None = None


def set_inline_runner(runner: InlineRunner) -> None:
    """Run `runner(events)` in every append's transaction from now on (replaces the previous one)."""
    global _runner
    _runner = runner


def run_inline(events: Sequence[StoredEvent]) -> Balances:
    """Apply freshly appended events to the inline projections; called by `store.append`.
    Returns the balances the events left on the accounts they moved."""
    if _runner is None:
        raise RuntimeError("no inline projection runner: the ledger app's ready() sets one")
    return _runner(events)
