"""The dispute streams' event types, and the marker a hold leaves on the player's stream.

A dispute lives on `dispute-<uuid>`: DisputeOpened, then any of DisputeHoldPlaced and
DisputeNoteAdded, and at most one of DisputeDecided, DisputeWithdrawn, DisputeExpired, which
close it. Every change to a bankroll's held or posted chips also appends DisputeBankrollChanged
to `player-<id>` at that stream's version, so it serialises with the cashier and with table
buy-ins, which write to the same stream.

A hold is a pending transfer (TigerBeetle's two-phase transfer): `data["pending"]` of
DisputeHoldPlaced is one transfer `{"from": <account>, "to": "hold:<dispute>", ...}` that moves
nothing yet; the closing event says how much of it was posted (a real transfer, in its
`transfers`) and how much voided. A transfer is never changed: corrections are new transfers.
"""

from __future__ import annotations

from ledger.registry import register_event_type

DISPUTE_OPENED = "DisputeOpened"
HOLD_PLACED = "DisputeHoldPlaced"
NOTE_ADDED = "DisputeNoteAdded"
DECIDED = "DisputeDecided"
WITHDRAWN = "DisputeWithdrawn"
EXPIRED = "DisputeExpired"
BANKROLL_CHANGED = "DisputeBankrollChanged"

CLOSING = frozenset({DECIDED, WITHDRAWN, EXPIRED})
DISPUTE_EVENTS = frozenset({DISPUTE_OPENED, HOLD_PLACED, NOTE_ADDED, *CLOSING})
STREAM_PREFIX = "dispute-"


def dispute_stream(dispute_id: object) -> str:
    return f"{STREAM_PREFIX}{dispute_id}"


def hold_account(dispute_id: object) -> str:
    """Where a dispute's held chips go when the hold is posted."""
    return f"hold:{dispute_id}"


def register_dispute_events() -> None:
    """Declare the types (the ledger app's ready())."""
    for name in (*sorted(DISPUTE_EVENTS), BANKROLL_CHANGED):
        register_event_type(name)
