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
# Applies the events without waiting for the database; what it returns finishes the job (the
# checks, the checkpoints) with the events' final positions once the statements were sent.
InlineApplier = Callable[[Sequence["StoredEvent"]], Callable[[Sequence["StoredEvent"]], "Balances"] | None]

_runner: InlineRunner | None = None
_applier: InlineApplier | None = None


def set_inline_runner(runner: InlineRunner, applier: InlineApplier | None = None) -> None:
    """Run `runner(events)` in every append's transaction from now on (replaces the previous one);
    `applier` is its form for an append whose statements go in one message with the COMMIT."""
    global _runner, _applier
    _runner, _applier = runner, applier


def run_inline(events: Sequence[StoredEvent]) -> Balances:
    """Apply freshly appended events to the inline projections; called by `store.append`.
    Returns the balances the events left on the accounts they moved."""
    if _runner is None:
        raise RuntimeError("no inline projection runner: the ledger app's ready() sets one")
    return _runner(events)


def collect_inline(events: Sequence[StoredEvent]) -> Callable[[Sequence[StoredEvent]], Balances] | None:
    """`run_inline` for a one-message append (ledger.dbapi.Message): the projectors' statements
    join the message; call what it returns with the final events once it was sent. None (nothing
    done) when a projector these events concern cannot join a message."""
    if _applier is None:
        raise RuntimeError("no inline projection applier: the ledger app's ready() sets one")
    return _applier(events)
