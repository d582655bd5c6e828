"""Exchanges before the declare over HTTP (EXC-01..03, Q-EXC-01/02) on stacked decks.

Three-card Guts, players a, b, c seated in that order: deal 1 is dealt b, c, a (dealer a). With
`exchange=draw` each player in turn takes up to three cards from the stock through
POST /tables/{id}/exchanges; with `exchange=pass_left` everyone passes one card to his left through
POST /tables/{id}/passes. The timer times a draw out like a declare (it stands pat).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from ledger.money import check_conservation
from ledger.store import read_stream
from tables import service
from tables.engine.decider.program import parse_iso
from tables.timers import overdue_deadlines
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ANTE = 10
DECK = [*stack_deck("As Ks 4d", "Qd Jd 9c", "2c 7h 5s"), "Ah", "Kh", "Qh", "Jh"]  # b, c, a; stock


class Table:
    """A Three-card Guts table with players a, b, c (seat order) and the club around it."""

    def __init__(self, **options: Any) -> None:
        self.club = Club.create(players=3, bankroll=5000)
        body = {
            "variant": "guts3",
            "options": {"ante": ANTE, "min_buy_in": 100, **options},
            "stacked_decks": [DECK],
        }
        with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
            response = post(self.club.admin, "/api/v1/tables", body)
        assert response.status_code == 201, response.content
        self.id = response.json()["table_id"]
        self.club.seat_all(self.id, 1000)
        self.ids = dict(zip("abc", (str(p) for p in self.club.players), strict=True))
        response = post(self.api("a"), table_url(self.id, "deals"))
        assert response.status_code == 200, response.content

    def api(self, name: str) -> APIClient:
        return self.club.players[int(self.ids[name])]

    def name_of(self, player: str) -> str:
        return next(name for name, pid in self.ids.items() if pid == player)

    def view(self, name: str) -> dict[str, Any]:
        return self.api(name).get(table_url(self.id)).json()

    def exchange(self, name: str, discards: list[str]) -> Any:
        return post(self.api(name), table_url(self.id, "exchanges"), {"deal_no": 1, "discards": discards})

    def passes(self, name: str, card: str) -> Any:
        return post(self.api(name), table_url(self.id, "passes"), {"deal_no": 1, "card": card})

    def hands(self, viewer: str) -> dict[str, list[str] | None]:
        return {self.name_of(p["player"]): p["cards"] for p in self.view(viewer)["deal"]["players"]}

    def stacks(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["stack"] for s in self.view("a")["seats"]}


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code
    return problem


def test_exc_02_a_three_card_draw_session() -> None:
    table = Table(exchange="draw")
    view = table.view("b")
    assert (view["phase"], view["turn"]) == ("exchange", [table.ids["b"]])
    action = next(a for a in view["legal_actions"] if a["action"] == "exchange")
    assert (action["min"], action["max"], action["choices"]) == (0, 3, ["As", "Ks", "4d"])
    assert not [a for a in table.view("c")["legal_actions"] if a["action"] == "exchange"]
    before = event_count()
    refused(table.exchange("c", []), 409, "not_your_turn")  # Q-EXC-01: b first
    refused(table.exchange("b", ["Qd"]), 400, "invalid_card")
    refused(table.exchange("b", ["As", "as"]), 400, "invalid_discards")
    refused(table.exchange("b", ["As", "Ks", "4d", "Qd", "Jd"]), 400, "invalid_input")  # at most 4 (JP-09)
    refused(
        post(table.api("b"), table_url(table.id, "declares"), {"deal_no": 1, "choice": "in"}),
        409,
        "not_your_turn",
    )
    assert event_count() == before  # nothing stored
    answer = table.exchange("b", ["Ks", "4d"])
    assert answer.status_code == 200, answer.content
    assert table.hands("b")["b"] == ["As", "Ah", "Kh"]
    assert table.hands("c")["b"] is None
    refused(table.exchange("b", []), 409, "already_exchanged")
    assert table.exchange("c", []).status_code == 200  # stands pat
    after = table.exchange("a", ["2c"]).json()
    assert (after["phase"], after["turn"]) == ("declare", [table.ids["b"]])
    mine = next(p for p in after["deal"]["players"] if p["player"] == table.ids["a"])
    assert mine["cards"] == ["7h", "5s", "Qh"]
    for move in ("b:in", "c:out", "a:in"):
        name, choice = move.split(":")
        response = post(table.api(name), table_url(table.id, "declares"), {"deal_no": 1, "choice": choice})
        assert response.status_code == 200, response.content
    # b's pair of aces (after the draw) beats a's queen high: a matches the pot of 30 (G2-13)
    assert table.stacks() == {"a": 1000 - ANTE - 30, "b": 1000 - ANTE + 30, "c": 1000 - ANTE}
    assert table.view("a")["pot"] == 30
    assert check_conservation() == []
    history = table.api("b").get(f"/api/v1/tables/{table.id}/deals/1/history?format=json").json()
    assert {h["player"]: h["cards"] for h in history["hands"]}[table.ids["b"]] == ["As", "Ah", "Kh"]


def test_exc_draws_stay_secret_in_the_event_feed() -> None:
    table = Table(exchange="draw")
    table.exchange("b", ["Ks", "4d"])
    feed = table.api("c").get(f"/api/v1/tables/{table.id}/events").json()
    drawn = next(e for e in feed["results"] if e["type"] == "CardsDrawn")
    assert (drawn["data"]["count"], drawn["data"]["drawn"], drawn["data"]["discarded"]) == (2, None, None)
    text = json.dumps(feed)
    assert all(f'"{card}"' not in text for card in ("Ah", "Kh", "Ks", "4d", "As"))
    mine = table.api("b").get(f"/api/v1/tables/{table.id}/events").json()
    assert next(e for e in mine["results"] if e["type"] == "CardsDrawn")["data"]["drawn"] == ["Ah", "Kh"]


def test_exc_03_the_three_card_pass_to_the_left() -> None:
    table = Table(exchange="pass_left")
    view = table.view("c")
    assert view["phase"] == "pass"
    action = next(a for a in view["legal_actions"] if a["action"] == "pass")
    assert (action["direction"], action["choices"]) == ("left", ["Qd", "Jd", "9c"])
    assert table.passes("b", "Ks").status_code == 200
    refused(table.passes("b", "As"), 409, "already_passed")
    assert table.hands("b")["b"] == ["As", "Ks", "4d"]  # sealed: nothing moved yet
    assert table.passes("c", "9c").status_code == 200
    after = table.passes("a", "2c").json()
    assert after["phase"] == "declare"
    hands = {name: table.hands(name)[name] for name in "abc"}
    assert hands == {"b": ["As", "4d", "2c"], "c": ["Qd", "Jd", "Ks"], "a": ["7h", "5s", "9c"]}
    assert table.hands("c")["b"] is None


def test_exc_the_draw_gets_a_timer_and_a_timeout_stands_pat() -> None:
    table = Table(exchange="draw")
    opened = [e for e in read_stream(f"table-{table.id}") if e.type == "ExchangeOpened"]
    due = parse_iso(opened[-1].data["deadline"])
    assert [d.due for d in overdue_deadlines(due) if d.table_id == table.id] == [due]  # the timers see it
    service.deal_expire(table_id=table.id, deal_no=1, now=due)
    drawn = [e for e in read_stream(f"table-{table.id}") if e.type == "CardsDrawn"]
    assert [(e.data["player"], e.data["count"], e.data["timed_out"]) for e in drawn] == [
        (table.ids["b"], 0, True)
    ]
    assert table.view("c")["turn"] == [table.ids["c"]]


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("guts2", {"exchange": "draw", "all_out": "pass_right"}),
        ("guts3", {"exchange": "pass_left", "all_out": "pass_right"}),
        ("guts2", {"exchange": "pass_left"}),
        ("guts2", {"exchange": "draw", "seats": 26}),
    ],
)
def test_exc_conflicting_options_are_invalid_option(
    admin_api: APIClient, variant: str, options: dict[str, Any]
) -> None:
    before = event_count()
    response = post(admin_api, "/api/v1/tables", {"variant": variant, "options": options})
    problem = refused(response, 400, "invalid_option")
    assert problem["option"] == ("seats" if "seats" in options else "exchange")
    assert event_count() == before


def test_exc_variants_list_the_exchange_option(player_api: APIClient) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    for name, choices in (("guts2", ["none", "draw"]), ("guts3", ["none", "draw", "pass_left"])):
        option = next(o for o in catalog[name]["options"] if o["name"] == "exchange")
        assert (option["choices"], option["default"]) == (choices, "none")
        assert "EXC-01..03" in option["rule"]
        step = next(s for s in catalog[name]["stages"][0]["steps"] if s["kind"] == "exchange")
        assert step["when"] == "exchange"
