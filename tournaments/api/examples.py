"""Examples for the OpenAPI document of the tournaments API."""

from __future__ import annotations

from typing import Any

CREATE: dict[str, Any] = {
    "name": "Sunday Guts",
    "variant": "guts2",
    "options": {"pot_limit": 400},
    "buy_in": 100,
    "fee": 10,
    "starting_chips": 1000,
    "seats_per_table": 6,
    "min_entrants": 6,
    "max_entrants": 60,
    "start_at": "2026-12-06T19:00:00Z",
    "levels": [{"ante": 5, "minutes": 10}, {"ante": 10, "minutes": 10}],
    "late_registration_level": 1,
    "payouts": [50, 30, 20],
    "pause_seconds": 5,
    "cancel_settlement": "chip_chop",
}

CONFIG: dict[str, Any] = {**CREATE, "options": {"pot_limit": 400}, "cancel_fees": "refund"}

DETAIL: dict[str, Any] = {
    "tournament_id": "2b1f6a0e-7c55-4a53-9a4e-1d5c0b7e2f10",
    "name": "Sunday Guts",
    "version": 31,
    "status": "running",
    "config": CONFIG,
    "entrants": ["7", "8", "9", "10", "11", "12"],
    "prize_pool": 600,
    "registration_open": True,
    "level": {"level": 1, "ante": 5, "next_at": "2026-12-06T19:10:00.000000Z", "seconds_to_next": 312},
    "tables": [
        {
            "table_id": "6f1c0c52-0000-4000-8000-000000000000",
            "name": "Sunday Guts · table 1",
            "broken": False,
            "closed": False,
            "seats": [
                {"seat": 0, "player": "9", "player_name": "Carol", "chips": 1250},
                {"seat": 1, "player": "7", "player_name": "Alice", "chips": 750},
            ],
        }
    ],
    "standings": [
        {
            "player": "9",
            "player_name": "Carol",
            "chips": 1250,
            "place": None,
            "status": "playing",
            "table_id": "6f1c0c52-0000-4000-8000-000000000000",
        },
        {
            "player": "12",
            "player_name": "Frank",
            "chips": 0,
            "place": 6,
            "places": [6, 6],
            "status": "eliminated",
            "table_id": None,
        },
    ],
    "results": [],
    "payouts": [],
    "winner": None,
    "seating": {
        "commitment": "9f2c…",
        "seed": "41d0…",
        "entrants": ["7", "8", "9", "10", "11", "12"],
        "order": ["8", "7", "12", "9", "11", "10"],
    },
    "cancellation": None,
    "names": {"7": "Alice", "8": "Bob", "9": "Carol", "10": "Dave", "11": "Erin", "12": "Frank"},
    "winner_name": None,
}
