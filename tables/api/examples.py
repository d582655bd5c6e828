"""Example values for the OpenAPI document of the tables API (shapes as the API returns them)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tables.engine.decider.commands import OpenTable, SitDown, StartDeal
from tables.engine.decider.decide import decide
from tables.engine.decider.state import initial_state
from tables.engine.decider.view import Viewer
from tables.engine.variants import GUTS2, validate_options
from tables.naming import with_player_names
from tables.selectors import view_at

TABLE_ID = "6f1c0c52-8d7e-4c3b-9a51-3d2f0e9b7a10"
OPTIONS: dict[str, Any] = validate_options("guts2", {"ante": 10, "pot_limit": 1000, "min_buy_in": 200})

OPEN_TABLE = {
    "variant": "guts2",
    "options": {"ante": 10, "pot_limit": 1000, "min_buy_in": 200, "declare_mode": "sequential"},
}

VARIANT = GUTS2.to_json()


def _table_in_a_declare() -> dict[str, Any]:
    """The table view of the player on his turn to declare, as the engine builds it (so the example
    has every field the API sends): three players, deal 1 of a seeded guts2 table."""
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    state = initial_state()
    commands: list[Any] = [
        OpenTable(TABLE_ID, "guts2", {"ante": 10, "pot_limit": 1000, "min_buy_in": 200}),
        SitDown("7", 500),
        SitDown("8", 625),
        SitDown("9", 390),
        StartDeal(None, "c0ffee00" * 8),
    ]
    for command in commands:
        state = decide(state, command, now).state
    turn = state.live.awaiting[0] if state.live is not None else "7"
    return view_at(state=state, version=57, viewer=Viewer(turn), now=now)


NAMES = {"7": "Alice", "8": "Bob", "9": "Carol"}  # every player id of a document, by display name


def _named(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the API names it (tables.naming): the table's name, players' beside their ids."""
    view = {**view, "name": "Two-card Guts #3", "tournament_name": None}
    deal = view.get("deal")
    return with_player_names(view, [view.get("seats"), deal.get("players") if deal else None], NAMES)


TABLE: dict[str, Any] = _named(_table_in_a_declare())

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

DEAL_TRANSFERS: list[dict[str, Any]] = [
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
]

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
            "face_up": [],
            "card_count": 2,
            "declared": "in",
            "timed_out": False,
        },
        {
            "player": "7",
            "player_name": "Alice",
            "cards": ["As", "2d"],
            "face_up": [],
            "card_count": 2,
            "declared": "in",
            "timed_out": False,
        },
        {
            "player": "8",
            "player_name": "Bob",
            "cards": None,
            "face_up": [],
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
    "transfers": DEAL_TRANSFERS,
    "board": [],
    "results": [
        {
            "stage": 1,
            "type": "AntesPosted",
            "data": {"deal_no": 3, "due": False, "ante": 10, "paid": [], "sat_out": [], "transfers": []},
        },
        {
            "stage": 1,
            "type": "ShowdownHeld",
            "data": {
                "deal_no": 3,
                "reason": "contested",
                "hands": [
                    {"player": "9", "cards": ["Qh", "Qc"], "value": "pair of queens", "category": "pair"},
                    {"player": "7", "cards": ["As", "2d"], "value": "ace high", "category": "high_card"},
                ],
                "winners": ["9"],
                "losers": ["7"],
            },
        },
        {
            "stage": 1,
            "type": "PotSettled",
            "data": {
                "deal_no": 3,
                "outcome": "won",
                "winners": ["9"],
                "matchers": ["7"],
                "transfers": DEAL_TRANSFERS,
                "pot": 30,
                "reserve": 0,
            },
        },
    ],
    "started_at": "2026-11-29T11:58:00Z",
    "ended_at": "2026-11-29T11:58:40Z",
    "names": NAMES,
}
