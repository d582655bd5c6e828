"""The open hand's auction (MCA-04, D-MC-04) shows nobody a hidden card: at every bid every role
reads every deal endpoint, and no face-down hand but the reader's own appears in any answer.

The open hand is face up (public); a buyer's swap is public too (his new hand was the open hand,
his old hand becomes it). What stays hidden during the deal: every other hand, from every player,
the outsider, the admin and the auditor (auditors see hands once the deal is over).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.test_monte_carlo_api import HANDS, bid, open_game
from tests.tables.conftest import stack_deck
from tests.tables.http import table_url

pytestmark = pytest.mark.django_db(transaction=True)
CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])")
OPEN = "7s 7h 7d"


def endpoints(table: str) -> list[str]:
    base = table_url(table)
    return [
        base,
        "/api/v1/tables",
        f"{base}/deals",
        f"{base}/events?limit=500",
        f"{base}/deals/1/replay",
        f"{base}/deals/1/history?format=json",
        f"{base}/deals/1/history?format=text",
        f"{base}/history.json",
    ]


def seen_cards(client: APIClient, table: str) -> set[str]:
    cards: set[str] = set()
    for url in endpoints(table):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        cards |= set(CARD.findall(response.content.decode()))
    return cards


def hidden_from(reader: str | None, hands: dict[str, str], public: set[str]) -> set[str]:
    """Cards of the live deal this reader may not see (the face-down hands not his own)."""
    return {
        card for name, hand in hands.items() if name != reader for card in hand.split() if card not in public
    }


def check_everyone(game: Any, hands: dict[str, str], public: set[str]) -> None:
    readers: list[tuple[str | None, APIClient]] = [(name, game.api(name)) for name in "abcd"]
    readers += [(None, game.club.admin), (None, game.club.auditor), (None, game.club.outsider)]
    for name, client in readers:
        seen = seen_cards(client, game.table)
        assert not seen & hidden_from(name, hands, public), (name, seen & hidden_from(name, hands, public))
        assert public <= seen  # the open hand reaches everyone
        if name is not None:
            assert set(hands[name].split()) <= seen  # and each player his own hand


def test_mca_04_no_bid_and_no_swap_shows_a_hidden_hand() -> None:
    game = open_game("monte_carlo", [stack_deck(*HANDS, OPEN)], open_hand="auction")
    game.start()
    hands = dict(zip("bcda", HANDS, strict=True))  # deal order: the dealer (a) last
    public = set(OPEN.split())
    check_everyone(game, hands, public)
    for name, amount in (("b", 5), ("c", 10), ("d", None), ("a", None), ("b", None)):
        assert bid(game, name, amount).status_code == 200
        if name == "b" and amount is None:  # c bought: his old and new hands are public
            public |= set(hands["c"].split())
            hands["c"] = OPEN
        check_everyone(game, hands, public)
