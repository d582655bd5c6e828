"""Consecutive, Alternating, Buddha's Folly and Wolfie's Lou played end to end over HTTP on stacked
decks (GUTS_ALLOW_STACKED_DECKS), to the settlement, with what GET /tables/{id} shows after the
commands and the stacks worked out here from the rules (RULES.md §13: CONS, ALT, BF, WL; §16:
D-CONS-01, D-BF-01, D-WL-01..06). A refused command is a problem with its code and appends nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from ledger.money import check_conservation
from tests.api.conftest import event_count
from tests.api.test_games_api import BUY_IN, Game, cards
from tests.tables.conftest import stack_deck
from tests.tables.http import post, table_url

pytestmark = pytest.mark.django_db


def test_consecutive_ex_06_wins_the_classic_settlement_then_a_lone_in_ends_the_game() -> None:
    """CONS-01..05, EX-06, D-CONS-01: a sequential declare; 8-7 makes a wild for three queens; the
    others match the pot; then a lone "in" takes it and the game ends."""
    decks = [
        stack_deck("8h Qd 3c 7s Qs", "Kc Kd 9c 5s 2d", "Ts 8d 6h 4h 2c"),  # b, c, a
        stack_deck("As Ks Js 9d 4d", "7c 7d 7h 5c 3s", "Ah Jh 9h 6s 3d"),
    ]  # c, a, b
    game = Game.open("consecutive", decks)
    view = game.start()
    assert (view["pot"], view["deal"]["mode"], view["deal"]["turn"]) == (30, "sequential", [game.ids["b"]])
    assert [p["card_count"] for p in view["deal"]["players"]] == [5, 5, 5]
    view = game.declares("b:in", "c:in", "a:in")
    hands = {game.name_of(h["player"]): h["value"] for h in view["deal"]["results"][-2]["data"]["hands"]}
    assert hands["b"] == "Three queens"  # EX-06
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert (view["pot"], game.stacks()) == (60, {"a": 960, "b": 1020, "c": 960})
    view = game.start()  # the pot carries
    assert view["pot"] == 60
    view = game.declares("c:out", "a:in", "b:out")
    assert view["deal"]["outcome"] == "uncontested"  # CONS-05
    assert game.hands("c")["a"] is None  # not shown
    assert [(e["game_no"], e["reason"]) for e in game.events("GameEnded")] == [(1, "uncontested")]
    assert (view["pot"], game.stacks()) == (0, {"a": 1020, "b": 1020, "c": 960})
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_alternating_ex_07_with_the_pot_limit_and_reserve() -> None:
    """ALT-02, EX-07, D-CONS-01, CAP-01/RES-01: the 8-6 gap makes three aces; the matches above the
    pot limit wait in the reserve."""
    decks = [stack_deck("Ah Ad 8c Js 6s", "Kc Kd 9c 5s 2d", "Th 7h 4d 3d 2h")]
    game = Game.open("alternating", decks, pot_limit=40)
    game.start()
    view = game.declares("b:in", "c:in", "a:in")
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands("c")["b"] == cards("Ah Ad 8c Js 6s")  # shown (G2-12)
    assert (view["pot"], view["reserve"]) == (40, 20)
    assert game.stacks() == {"a": 960, "b": 1020, "c": 960}
    assert check_conservation() == []


def refused(game: Game, name: str, endpoint: str, body: dict[str, Any], code: str, status: int = 409) -> None:
    """The command is a problem with `code`, and nothing is appended."""
    before = event_count()
    response = post(game.api(name), table_url(game.table, endpoint), body)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code
    assert event_count() == before


def act(game: Game, name: str, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    response = post(game.api(name), table_url(game.table, endpoint), body)
    assert response.status_code == 200, (name, endpoint, body, response.content)
    return response.json()
