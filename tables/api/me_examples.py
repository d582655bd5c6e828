"""Example values of the user's endpoints (`/me/seats`, `/me/stream`) for the OpenAPI document."""

from __future__ import annotations

import json
from typing import Any

from tables.api.examples import TABLE, TABLE_ID

MY_SEAT: dict[str, Any] = {
    "table_id": TABLE_ID,
    "name": "Two-card Guts #3",
    "version": TABLE["version"],
    "variant": "guts2",
    "tournament_id": None,
    "tournament_name": None,
    "unit": "chips",
    "seat": 0,
    "stack": 490,
    "sitting_out": False,
    "phase": "declare",
    "deal_no": 4,
    "pot": 30,
    "turn": ["7"],
    "names": {"7": "Alice"},
    "my_turn": True,
    "deadline": "2026-11-29T12:00:30.000000Z",
    "my_deadline": "2026-11-29T12:00:30.000000Z",
    "legal_actions": TABLE["legal_actions"],
}

MY_SEATS: dict[str, Any] = {"count": 1, "results": [MY_SEAT]}


def sse_text(*messages: tuple[str, Any]) -> str:
    """Example stream text: the opening retry hint, `(event, data)` messages, a heartbeat."""
    body = "".join(
        f"id: 4711\nevent: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
        for event, data in messages
    )
    return f"retry: 2000\n\n{body}: heartbeat\n\n"


ME_STREAM_TEXT = sse_text(("seats", MY_SEATS), ("table", TABLE), ("tournaments", {"count": 0, "results": []}))
