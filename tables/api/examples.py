"""Example values for the OpenAPI document of the tables API (shapes as the API returns them)."""

from __future__ import annotations

from typing import Any

from tables.engine.variants import GUTS2, validate_options

TABLE_ID = "6f1c0c52-8d7e-4c3b-9a51-3d2f0e9b7a10"
OPTIONS: dict[str, Any] = validate_options("guts2", {"ante": 10, "pot_limit": 1000, "min_buy_in": 200})

OPEN_TABLE = {
    "variant": "guts2",
    "options": {"ante": 10, "pot_limit": 1000, "min_buy_in": 200, "declare_mode": "sequential"},
}

VARIANT = GUTS2.to_json()

NAMES = {"7": "Alice", "8": "Bob", "9": "Carol"}  # every player id of a document, by display name

TABLE: dict[str, Any] = {
    "table_id": TABLE_ID,
    "name": "Two-card Guts #3",
    "status": "open",
    "variant": "guts2",
    "tournament_id": None,
    "tournament_name": None,
    "unit": "chips",
    "options": OPTIONS,
    "pot": 30,
    "reserve": 0,
    "deal_no": 4,
    "game_no": 2,
    "dealer": "9",
    "phase": "declare",
    "turn": ["7"],
    "deadline": "2026-11-29T12:00:30.000000Z",
    "seats": [
        {"player": "7", "player_name": "Alice", "seat": 0, "stack": 490},
        {"player": "8", "player_name": "Bob", "seat": 1, "stack": 615},
        {"player": "9", "player_name": "Carol", "seat": 2, "stack": 380},
    ],
    "deal": {
        "deal_no": 4,
        "game_no": 2,
        "dealer": "9",
        "over": False,
        "mode": "sequential",
        "turn": ["7"],
        "deadline": "2026-11-29T12:00:30.000000Z",
        "players": [
            {
                "player": "7",
                "player_name": "Alice",
                "cards": ["As", "Kd"],
                "card_count": 2,
                "declared": None,
                "timed_out": False,
                "forced_in": False,
            },
            {
                "player": "8",
                "player_name": "Bob",
                "cards": None,
                "card_count": 2,
                "declared": None,
                "timed_out": False,
                "forced_in": False,
            },
            {
                "player": "9",
                "player_name": "Carol",
                "cards": None,
                "card_count": 2,
                "declared": None,
                "timed_out": False,
                "forced_in": False,
            },
        ],
        "winners": [],
        "outcome": None,
        "stacked": False,
        "commitment": "1f6b2c0e0b5b6a1e1a44b9f3c4f43d3b0a1e9c7f2d5e8a0b6c3d2e1f0a9b8c7d",
        "seed": None,
    },
    "legal_actions": [
        {
            "action": "declare",
            "deal_no": 4,
            "choices": ["in", "out"],
            "in_cost": 30,
            "deadline": "2026-11-29T12:00:30.000000Z",
            "overdue": False,
        }
    ],
    "version": 57,
    "names": NAMES,
}

TABLE_SUMMARY: dict[str, Any] = {
    "table_id": TABLE_ID,
    "name": "Two-card Guts #3",
    "tournament_name": None,
    "names": {"7": "Alice", "9": "Carol"},
    "variant": "guts2",
    "tournament_id": None,
    "unit": "chips",
    "options": OPTIONS,
    "stacked": False,
    "status": "open",
    "deal_no": 4,
    "phase": "declare",
    "pot": 30,
    "reserve": 0,
    "dealer": "9",
    "turn": ["7"],
    "deadline": "2026-11-29T12:00:30Z",
    "seated": 3,
    "version": 57,
    "opened_at": "2026-11-29T11:40:00Z",
    "updated_at": "2026-11-29T12:00:00Z",
}

DEAL: dict[str, Any] = {
    "table_id": TABLE_ID,
    "table_name": "Two-card Guts #3",
    "deal_no": 3,
    "game_no": 2,
    "dealer": "8",
    "participants": ["9", "7", "8"],
    "hands": [
        {
            "player": "9",
            "player_name": "Carol",
            "cards": ["Qh", "Qc"],
            "card_count": 2,
            "declared": "in",
            "timed_out": False,
        },
        {
            "player": "7",
            "player_name": "Alice",
            "cards": ["As", "2d"],
            "card_count": 2,
            "declared": "in",
            "timed_out": False,
        },
        {
            "player": "8",
            "player_name": "Bob",
            "cards": None,
            "card_count": 2,
            "declared": "out",
            "timed_out": False,
        },
    ],
    "shown": ["9", "7"],
    "winners": ["9"],
    "losers": ["7"],
    "outcome": "won",
    "over": True,
    "stacked": False,
    "commitment": "9b1d0e6f5c4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c",
    "seed": "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00",
    "pot_before": 30,
    "reserve_before": 0,
    "pot_after": 30,
    "reserve_after": 0,
    "transfers": [
        {
            "from": "pot:" + TABLE_ID,
            "to": f"seat:{TABLE_ID}:9",
            "amount": 30,
            "unit": "chips",
            "reason": "pot_won",
        },
        {
            "from": f"seat:{TABLE_ID}:7",
            "to": "pot:" + TABLE_ID,
            "amount": 30,
            "unit": "chips",
            "reason": "pot_matched",
        },
    ],
    "started_at": "2026-11-29T11:58:00Z",
    "ended_at": "2026-11-29T11:58:40Z",
    "names": NAMES,
}
