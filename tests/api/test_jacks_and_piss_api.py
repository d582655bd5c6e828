"""A Jacks and Piss session over HTTP (JP-01..15, EX-05, D-BET) on stacked decks.

Players a, b, c seated in that order: deal 1 is dealt b, c, a (dealer a); deal 2 c, a, b (dealer
b). Four cards each, the piss card face up, the declare, the draw of the "in" players through
POST /tables/{id}/exchanges, the betting through POST /tables/{id}/bets, the showdown.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from ledger.money import balance, check_conservation
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ANTE = 10
# EX-05: b holds A♣ 8♠ 3♥ J♥, the piss card is 8♣: four aces
DEAL_1 = [*stack_deck("Ac 8s 3h Jh", "Kc Kd 2c 5d", "Qs Qh 9d 4c"), "8c", "7s", "7d", "6s", "6d"]
# deal 2 (c, a, b): c goes in alone and the game ends (JP-13)
DEAL_2 = [*stack_deck("2h 3d 4s 5c", "9h 9c Td 6c", "Ks Kh Qd 2d"), "Jc"]


class Table:
    def __init__(self, **options: Any) -> None:
        self.club = Club.create(players=3, bankroll=5000)
        body = {
            "variant": "jacks_and_piss",
            "options": {"ante": ANTE, "min_buy_in": 100, **options},
            "stacked_decks": [DEAL_1, DEAL_2],
        }
        with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
            response = post(self.club.admin, "/api/v1/tables", body)
        assert response.status_code == 201, response.content
        self.id = response.json()["table_id"]
        self.club.seat_all(self.id, 1000)
        self.ids = dict(zip("abc", (str(p) for p in self.club.players), strict=True))

    def api(self, name: str) -> APIClient:
        return self.club.players[int(self.ids[name])]

    def name_of(self, player: str) -> str:
        return next(name for name, pid in self.ids.items() if pid == player)

    def view(self, name: str) -> dict[str, Any]:
        return self.api(name).get(table_url(self.id)).json()

    def act(self, name: str, path: str, body: dict[str, Any], deal_no: int = 1) -> Any:
        return post(self.api(name), table_url(self.id, path), {"deal_no": deal_no, **body})

    def ok(self, name: str, path: str, body: dict[str, Any], deal_no: int = 1) -> dict[str, Any]:
        response = self.act(name, path, body, deal_no)
        assert response.status_code == 200, response.content
        answer: dict[str, Any] = response.json()
        return answer

    def stacks(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["stack"] for s in self.view("a")["seats"]}


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert response.json()["code"] == code


def test_jp_a_jacks_and_piss_session_over_http() -> None:
    table = Table()
    assert post(table.api("a"), table_url(table.id, "deals")).status_code == 200
    view = table.view("c")
    assert (view["phase"], view["deal"]["board"]) == ("declare", ["8c"])  # JP-01: public
    cards = {table.name_of(p["player"]): p["cards"] for p in view["deal"]["players"]}
    assert cards == {"b": None, "c": ["Kc", "Kd", "2c", "5d"], "a": None}
    for name in "bca":
        table.ok(name, "declares", {"choice": "in"})
    view = table.view("b")
    assert (view["phase"], view["turn"]) == ("exchange", [table.ids["b"]])
    action = next(a for a in view["legal_actions"] if a["action"] == "exchange")
    assert action["max"] == 4  # JP-09
    before = event_count()
    refused(table.act("c", "exchanges", {"discards": []}), 409, "not_your_turn")
    refused(table.act("b", "bets", {"action": "check"}), 409, "not_your_turn")  # the draw first
    refused(table.act("b", "exchanges", {"discards": ["8c"]}), 400, "invalid_card")  # the piss card
    assert event_count() == before
    table.ok("b", "exchanges", {"discards": []})
    table.ok("c", "exchanges", {"discards": ["2c", "5d"]})  # draws 7s 7d
    after = table.ok("a", "exchanges", {"discards": ["9d", "4c", "Qh", "Qs"]})  # all four (JP-09)
    assert after["phase"] == "betting"
    # a stacked deck goes on with the rest of the pack in pack order after the cards given
    mine = next(p for p in after["deal"]["players"] if p["player"] == table.ids["a"])
    assert mine["cards"] == ["6s", "6d", "2d", "2h"]
    assert (
        next(p for p in table.view("b")["deal"]["players"] if p["player"] == table.ids["a"])["cards"] is None
    )  # secret to b
    table.ok("b", "bets", {"action": "bet"})
    table.ok("c", "bets", {"action": "raise", "amount": 20})
    refused(table.act("a", "bets", {"action": "bet"}), 409, "bet_not_allowed")
    table.ok("a", "bets", {"action": "fold"})
    done = table.ok("b", "bets", {"action": "call"})
    showdown = next(r["data"] for r in done["deal"]["results"] if r["type"] == "ShowdownHeld")
    values = {table.name_of(h["player"]): h["value"] for h in showdown["hands"]}
    assert values["b"] == "Four aces, three kicker"  # EX-05
    assert table.name_of(showdown["winners"][0]) == "b"
    assert [table.name_of(h["player"]) for h in showdown["hands"]] == ["b", "c"]  # a folded: unseen
    # JP-12: b takes the pre-betting pot of 30, c and a (who folded) match it; b takes the 40 bet
    assert table.stacks() == {
        "a": 1000 - ANTE - 30,
        "b": 1000 - ANTE - 20 + 30 + 40,
        "c": 1000 - ANTE - 20 - 30,
    }
    assert done["pot"] == 60
    assert balance(f"bets:{table.id}") == 0
    assert check_conservation() == []


def test_jp_13_a_lone_in_takes_the_pot_and_the_game_ends() -> None:
    table = Table(dealer_forced_in=False)
    post(table.api("a"), table_url(table.id, "deals"))
    for name, choice in (("b", "in"), ("c", "out"), ("a", "out")):
        table.ok(name, "declares", {"choice": choice})
    view = table.view("a")
    assert view["pot"] == 0
    assert view["game_no"] == 1
    assert table.stacks()["b"] == 1000 - ANTE + 30


def test_jp_variants_list_jacks_and_piss(player_api: APIClient) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    game = catalog["jacks_and_piss"]
    assert (game["max_seats"], game["game_ends"]) == (11, "lone_in_wins")
    options = {o["name"]: o for o in game["options"]}
    assert {"bet_unit", "draw_max", "ghost"} <= set(options)
    assert "JP-14" in options["draw_max"]["rule"]
    showdown = next(s for s in game["stages"][0]["steps"] if s["kind"] == "showdown")
    assert (showdown["wild"], showdown["wild_board"], showdown["board"]) == ([11], True, True)
