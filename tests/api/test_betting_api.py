"""The betting round over HTTP (D-BET) in a Three to Five session (T25-01..05) on a stacked deck.

Players a, b, c seated in that order: deal 1 is dealt b, c, a (dealer a). Three cards each, the
declare, two more cards to the "in" players, then POST /tables/{id}/bets in turn from the
dealer's left. Ante 10, so the pot before the betting is 30 and the bet unit is 10.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from ledger.money import balance, check_conservation
from ledger.store import read_stream
from tables import service
from tables.engine.decider.program import parse_iso
from tables.timers import overdue_deadlines
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ANTE = 10
# b: 7h 8h 9h + Th Jh, a straight flush; c: Ac Ad 4s + Ah 4d, a full house; a goes out
DECK = [*stack_deck("7h 8h 9h", "Ac Ad 4s", "Kc Qd 2s"), "Th", "Ah", "Jh", "4d"]


class Table:
    """A Three to Five table with players a, b, c (seat order), deal 1 started."""

    def __init__(self, **options: Any) -> None:
        self.club = Club.create(players=3, bankroll=5000)
        body = {
            "variant": "three_to_five",
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

    def declare(self, name: str, choice: str) -> Any:
        return post(self.api(name), table_url(self.id, "declares"), {"deal_no": 1, "choice": choice})

    def bet(self, name: str, action: str, **extra: Any) -> Any:
        return post(self.api(name), table_url(self.id, "bets"), {"deal_no": 1, "action": action, **extra})

    def stacks(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["stack"] for s in self.view("a")["seats"]}

    def to_betting(self) -> None:
        for name, choice in (("b", "in"), ("c", "in"), ("a", "out")):
            assert self.declare(name, choice).status_code == 200


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code
    return problem


def test_t25_a_three_to_five_session_with_betting() -> None:
    table = Table()
    table.to_betting()
    view = table.view("b")
    assert (view["phase"], view["turn"], view["pot"], view["bets"]) == ("betting", [table.ids["b"]], 30, 0)
    action = next(a for a in view["legal_actions"] if a["action"] == "bet")
    assert action["choices"] == ["check", "bet", "fold"]
    assert (action["amounts"], action["to_call"], action["unit"], action["raises_left"]) == (
        {"check": 0, "bet": 10, "fold": 0},
        0,
        10,
        3,
    )
    assert not [a for a in table.view("c")["legal_actions"] if a["action"] == "bet"]
    before = event_count()
    refused(table.bet("c", "check"), 409, "not_your_turn")  # D-BET: b first
    refused(table.bet("a", "check"), 409, "not_your_turn")  # out: not in the betting
    refused(table.bet("b", "call"), 409, "bet_not_allowed")  # no bet open
    refused(table.bet("b", "shove"), 400, "invalid_choice")
    refused(table.bet("b", "bet", amount=25), 400, "invalid_amount")  # fixed limit
    refused(post(table.api("b"), table_url(table.id, "bets"), {"action": "bet"}), 400, "invalid_input")
    assert event_count() == before  # nothing stored
    assert table.bet("b", "bet", amount=10).status_code == 200
    refused(table.bet("c", "bet"), 409, "bet_not_allowed")  # a bet is open
    refused(table.bet("c", "check"), 409, "bet_not_allowed")
    assert table.bet("c", "raise").status_code == 200
    assert table.bet("b", "raise").status_code == 200
    betting = table.view("a")["deal"]["betting"]
    assert (betting["total"], betting["high"], betting["raises"]) == (50, 30, 2)
    assert betting["stakes"] == {table.ids["b"]: 30, table.ids["c"]: 20, table.ids["a"]: 0}
    assert table.bet("c", "raise").status_code == 200
    problem = refused(table.bet("b", "raise"), 409, "raise_limit")  # three raises
    assert problem["raises"] == 3
    after = table.bet("b", "call").json()
    assert after["phase"] == "between_deals"
    assert after["bets"] == 0
    # b's straight flush beats c's full house: the pot of 30 (pre-betting) and the 80 of bets
    assert table.stacks() == {"a": 1000 - ANTE, "b": 1000 - ANTE - 40 + 30 + 80, "c": 1000 - ANTE - 40 - 30}
    assert after["pot"] == 30  # JP-12, T25-04
    assert balance(f"bets:{table.id}") == 0
    assert check_conservation() == []
    feed = table.api("a").get(f"/api/v1/tables/{table.id}/events").json()
    made = [e["data"] for e in feed["results"] if e["type"] == "BetMade"]
    assert [m["action"] for m in made] == ["bet", "raise", "raise", "raise", "call"]
    history = table.api("a").get(table_url(table.id, "deals/1/history?format=json")).json()
    assert [(table.name_of(b["player"]), b["action"], b["amount"]) for b in history["betting"]] == [
        ("b", "bet", 10),
        ("c", "raise", 20),
        ("b", "raise", 20),
        ("c", "raise", 20),
        ("b", "call", 10),
    ]
    assert any(r["type"] == "BetsAwarded" for r in history["results"])
    text = table.api("a").get(table_url(table.id, "deals/1/history?format=text")).content.decode()
    assert "Betting (bets apart from the pot):" in text
    assert "raises 20" in text
    assert "Bets of 80 to" in text


def test_d_bet_a_fold_over_http_forfeits_the_bets_and_matches() -> None:
    table = Table()
    table.to_betting()
    assert table.bet("b", "bet").status_code == 200
    after = table.bet("c", "fold").json()
    folded = next(p for p in after["deal"]["players"] if p["player"] == table.ids["c"])
    assert folded["folded"] is True
    assert table.stacks() == {"a": 990, "b": 1000 - ANTE - 10 + 30 + 10, "c": 1000 - ANTE - 30}


def test_d_bet_the_betting_turn_gets_a_timer_and_a_timeout_checks_then_folds() -> None:
    table = Table()
    table.to_betting()
    opened = [e for e in read_stream(f"table-{table.id}") if e.type == "BetTurnOpened"]
    due = parse_iso(opened[-1].data["deadline"])
    assert [d.due for d in overdue_deadlines(due) if d.table_id == table.id] == [due]
    service.deal_expire(table_id=table.id, deal_no=1, now=due)
    made = [e for e in read_stream(f"table-{table.id}") if e.type == "BetMade"]
    assert [(e.data["player"], e.data["action"], e.data["timed_out"]) for e in made] == [
        (table.ids["b"], "check", True)
    ]
    assert table.bet("c", "bet").status_code == 200
    opened = [e for e in read_stream(f"table-{table.id}") if e.type == "BetTurnOpened"]
    service.deal_expire(table_id=table.id, deal_no=1, now=parse_iso(opened[-1].data["deadline"]))
    made = [e for e in read_stream(f"table-{table.id}") if e.type == "BetMade"]
    assert (made[-1].data["player"], made[-1].data["action"]) == (table.ids["b"], "fold")
    assert table.view("a")["phase"] == "between_deals"


def test_t25_variants_list_three_to_five_with_its_bet_unit(player_api: APIClient) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    game = catalog["three_to_five"]
    option = next(o for o in game["options"] if o["name"] == "bet_unit")
    assert (option["default"], option["type"]) == (0, "int")
    assert "D-BET" in option["rule"]
    kinds = [s["kind"] for s in game["stages"][0]["steps"]]
    assert kinds[-4:] == ["betting", "showdown", "settle", "award_bets"]
