"""Response examples for the audit API's OpenAPI document (shapes as the endpoints return them)."""

from __future__ import annotations

from typing import Any

TABLE = "0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10"
STREAM = f"table-{TABLE}"

_DEALT_HIDDEN: dict[str, Any] = {
    "position": 118,
    "stream": STREAM,
    "version": 9,
    "type": "CardsDealt",
    "recorded_at": "2026-11-29T12:00:05.120000Z",
    "table_id": TABLE,
    "deal_no": 2,
    "data": {"deal_no": 2, "player": "4", "face": "down", "cards": None, "secret": ["cards"]},
    "meta": {"actor": 3, "schema_version": 1},
    "commitments": {"cards": "9c1e5a0f6be2d4a7c3f18e0b52d9a6c4" * 2},
    "prev_hash": "0a4d55a8d778e5022fab701977c5d840" * 2,
    "hash": "5d41402abc4b2a76b9719d911017c592" * 2,
}
_DEALT_OWN: dict[str, Any] = {
    "position": 119,
    "stream": STREAM,
    "version": 10,
    "type": "CardsDealt",
    "recorded_at": "2026-11-29T12:00:05.120000Z",
    "table_id": TABLE,
    "deal_no": 2,
    "data": {
        "deal_no": 2,
        "player": "3",
        "face": "down",
        "cards": ["As", "Kd"],
        "secret": ["cards"],
        "salt": "3f2a9b1c7d4e8f60a1b2c3d4e5f60718",
    },
    "meta": {"actor": 3, "schema_version": 1},
    "commitments": {"cards": "e4c2b7a9013f5d6e8a9b0c1d2e3f4a5b" * 2},
    "prev_hash": "5d41402abc4b2a76b9719d911017c592" * 2,
    "hash": "7d793037a0760186574b0282f2f435e7" * 2,
}

FEED_PAGE = {
    "results": [_DEALT_HIDDEN, _DEALT_OWN],
    "cursor": 119,
    "has_more": True,
    "next": f"http://localhost:8000/api/v1/tables/{TABLE}/events?after=119&limit=2",
}

SSE_TEXT = (
    "retry: 2000\n\n"
    f'id: 118\nevent: CardsDealt\ndata: {{"position":118,"stream":"{STREAM}","version":9,'
    '"type":"CardsDealt","deal_no":2,"data":{"player":"4","cards":null,'
    '"secret":["cards"]},"commitments":{"cards":"9c1e…"},"hash":"5d41…"}\n\n'
    ": heartbeat\n\n"
)

_STATE = {
    "table_id": TABLE,
    "status": "open",
    "variant": "guts2",
    "pot": 40,
    "reserve": 0,
    "deal_no": 2,
    "game_no": 1,
    "dealer": "4",
    "phase": "declare",
    "seats": [{"player": "3", "seat": 0, "stack": 990}, {"player": "4", "seat": 1, "stack": 990}],
    "deal": {
        "deal_no": 2,
        "game_no": 1,
        "dealer": "4",
        "over": False,
        "mode": "sequential",
        "turn": ["3"],
        "deadline": "2026-11-29T12:00:35.120000Z",
        "players": [
            {
                "player": "3",
                "cards": ["As", "Kd"],
                "card_count": 2,
                "declared": None,
                "timed_out": False,
                "forced_in": False,
            },
            {
                "player": "4",
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
        "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "seed": None,
    },
}

REPLAY = {
    "table_id": TABLE,
    "deal_no": 2,
    "finished": True,
    "rules": {"variant": "guts2", "options": {"ante": 10, "declare_mode": "sequential"}},
    "before": {**_STATE, "phase": "between_deals", "deal": None, "pot": 20},
    "steps": [{"event": _DEALT_OWN, "state": _STATE}],
}

PROOF = {
    "table_id": TABLE,
    "deal_no": 2,
    "deck_schema": 1,
    "provable": True,
    "stacked": False,
    "ok": True,
    "commitment_ok": True,
    "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    "seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "pack": ["2c", "2d", "2h", "2s", "…", "As"],
    "deck": None,
    "reason": None,
    "dealt": [
        {"index": 0, "player": "3", "card": "Qs", "expected": "Qs", "matches": True},
        {"index": 1, "player": "4", "card": None, "expected": None, "matches": True},
        {"index": 2, "player": "3", "card": "Ks", "expected": "Ks", "matches": True},
        {"index": 3, "player": "4", "card": None, "expected": None, "matches": True},
    ],
}

LIVE_PROOF = {
    "table_id": TABLE,
    "deal_no": 3,
    "provable": True,
    "finished": False,
    "stacked": False,
    "ok": True,
    "commitment_ok": True,
    "commitment": None,
    "seed": None,
    "pack": ["2c", "2d", "2h", "2s", "…", "As"],
    "deck_schema": 2,
    "root": "e43b41983ad0e4d3a3a1b3c8a0f6f1e3c7d2a9b8e1f0c3d4a5b6c7d8e9f0a1b2",
    "size": 52,
    "entropy": [{"player": "3", "client_seed": "9f2c4e1a7b3d5f60718293a4b5c6d7e8"}],
    "player_entropy": True,
    "permutation_key": "cf0749165b2e7d1a3c4f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3d2e1f0a9",
    "permutation": [9, 26, 25, 4, 40],
    "stocks": [],
    "deck": None,
    "reshuffles": None,
    "reason": None,
    "dealt": [
        {"index": 0, "player": "3", "card": "4d", "expected": "4d", "matches": True},
        {"index": 1, "player": "4", "card": None, "expected": None, "matches": True},
    ],
    "out_of_play": [],
    "openings": [
        {
            "index": 0,
            "player": "3",
            "tree": 0,
            "position": 9,
            "card": "4d",
            "salt": "2bdece27a1f04c6e9d3b5a7c8e0f1d2c",
            "path": ["77b3ef92…", "4b1bcfc3…"],
        }
    ],
}

VERIFY_BROKEN = {
    "ok": False,
    "events": 1200,
    "streams": 14,
    "transfers": 830,
    "broken_events": 1,
    "first_broken": {
        "position": 118,
        "stream": STREAM,
        "version": 9,
        "problem": "hash does not match the stored event: its data, meta, type or time were changed",
    },
    "conservation_problems": [],
    "projection_problems": [],
    "units": ["chips"],
    "holds_pending": 0,
    "hold_problems": [],
    "checkpoints": 2,
    "checkpoint_problems": [],
}

STATEMENT = {
    "account": f"seat:{TABLE}:3",
    "count": 2,
    "next": None,
    "previous": None,
    "results": [
        {
            "amount": 1000,
            "balance_after": 1000,
            "unit": "chips",
            "counterparty": "player:3",
            "reason": "buy_in",
            "recorded_at": "2026-11-29T12:00:01Z",
            "event": {"position": 101, "stream": STREAM, "version": 2, "type": "PlayerSeated"},
            "table_id": TABLE,
            "deal": None,
            "dispute": None,
            "explanation": f"buy_in: received 1000 from player:3 at table {TABLE} (PlayerSeated, "
            "event #101); balance now 1000 chips",
        },
        {
            "amount": -10,
            "balance_after": 990,
            "unit": "chips",
            "counterparty": f"pot:{TABLE}",
            "reason": "ante",
            "recorded_at": "2026-11-29T12:00:05Z",
            "event": {"position": 116, "stream": STREAM, "version": 7, "type": "AntesPosted"},
            "table_id": TABLE,
            "deal": {"table_id": TABLE, "deal_no": 2},
            "dispute": None,
            "explanation": f"ante: paid 10 to pot:{TABLE} in deal 2 at table {TABLE} (AntesPosted, "
            "event #116); balance now 990 chips",
        },
    ],
    "holds": [],
}

HISTORY_TEXT = (
    f"Deal 2 (game 1) at table {TABLE}\n"
    "Variant guts2; started 2026-11-29T12:00:05+00:00, ended 2026-11-29T12:00:09+00:00\n"
    "Dealer: bob (#4)\n"
    "Before the deal: pot 0, reserve 0\n"
    "  seat 0: alice (#3) stack 1000\n  seat 1: bob (#4) stack 1000\n"
    "Antes of 10: alice (#3), bob (#4)\n"
    "Cards and declares (dealing order from the dealer's left):\n"
    "  alice (#3): Qs Ks; declared in\n  bob (#4): [2 cards, hidden]; declared out\n"
    "Settlement: uncontested\n"
    f"  pot:{TABLE} -> seat:{TABLE}:3: 20 (win)\n"
    "After the deal: pot 0, reserve 0\n"
    "  seat 0: alice (#3) stack 1010\n  seat 1: bob (#4) stack 990\n"
    "Deck: commitment 630dcd29…\n      seed 00010203…\n"
    "      every dealt card matches (check it yourself: python docs/verify_deal.py deal.json)\n"
)

STREAM_TICKET = {
    "ticket": "eyJ1c2VyIjozLCJ0YWJsZSI6IjBiN2YzYzllLTZmMWEtNGI3ZS05YTUxLTJkMmMxZjhlNGExMCJ9:1uQk2T:x7Qm…",
    "table_id": TABLE,
    "expires_at": "2026-11-29T12:01:05.120000Z",
    "stream_url": f"/api/v1/tables/{TABLE}/stream?ticket=eyJ1c2VyIjozLCJ0YWJsZSI6…",
}
