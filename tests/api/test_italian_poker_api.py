"""Italian poker over HTTP (IT-05..18, D-IT-01..05) on stacked decks: a deal nobody opens and
the redeal (IT-11); an open, a four-card draw and a split of openers (IT-15, IT-16); an opener
who folds, the second round opened by the player to his left (IT-17), an all-in with a side pot
and a showdown a suit decides (IT-32, EX-17).

Players a, b, c, d seated in that order; ante 10; four players play the 32-card pack (D-IT-01).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from ledger.models import AccountEntry
from ledger.money import balance, check_conservation
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

NAMES = "abcd"
# Deal 1, dealt b, c, d, a: nobody opens.
DECK1 = stack_deck("Jh Js 7c 8d 9s", "Qh Qd 7d 8c Tc", "Ah Kd 9h 8h 7h", "As Ad Ks Kh 7s")
# Deal 2, dealt c, d, a, b: c opens on jacks; then the stock for the draw.
DECK2 = [
    *stack_deck("Jh Js 7c 8d 9s", "Qh Qd 7d 8c Tc", "Ah Kd 9h 8h 7h", "As Ad Ks Kh 7s"),
    "Ts",
    "Th",
    "Td",
    "9c",
    "9d",
    "Qs",
]
# Deal 3, dealt d, a, b, c: d a heart flush, a kings (opens), b and c queen-high straights.
DECK3 = stack_deck("7h 9h Jh Kh Ah", "Kc Kd 7s 8s As", "Qs Jd Tc 9c 8d", "Qh Js Td 9d 8c")


class Table:
    """An Italian poker table: a, b, c bought in for 1000, d for 60."""

    def __init__(self) -> None:
        self.club = Club.create(players=4, bankroll=5000)
        body = {
            "variant": "italian",
            "options": {"ante": 10, "min_buy_in": 50},
            "stacked_decks": [DECK1, DECK2, DECK3],
        }
        with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
            response = post(self.club.admin, "/api/v1/tables", body)
        assert response.status_code == 201, response.content
        self.id = response.json()["table_id"]
        clients = list(self.club.players.values())
        self.ids: dict[str, str] = {}
        for name, client, buy_in in zip(NAMES, clients, (1000, 1000, 1000, 60), strict=True):
            assert post(client, table_url(self.id, "seats"), {"buy_in": buy_in}).status_code == 200
            self.ids[name] = str(next(pk for pk, c in self.club.players.items() if c is client))
        self.clients = dict(zip(NAMES, clients, strict=True))

    def api(self, name: str) -> APIClient:
        return self.clients[name]

    def name_of(self, player: str) -> str:
        return next(name for name, pid in self.ids.items() if pid == player)

    def view(self, name: str) -> dict[str, Any]:
        return self.api(name).get(table_url(self.id)).json()

    def deal(self) -> int:
        response = post(self.api("a"), table_url(self.id, "deals"))
        assert response.status_code == 200, response.content
        return int(response.json()["deal_no"])

    def bet(self, name: str, action: str, **extra: Any) -> Any:
        deal_no = self.view(name)["deal_no"]
        return post(
            self.api(name), table_url(self.id, "bets"), {"deal_no": deal_no, "action": action, **extra}
        )

    def draw(self, name: str, discards: str = "", **extra: Any) -> Any:
        deal_no = self.view(name)["deal_no"]
        return post(
            self.api(name),
            table_url(self.id, "exchanges"),
            {"deal_no": deal_no, "discards": discards.split(), **extra},
        )

    def ok(self, response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.content
        body: dict[str, Any] = response.json()
        return body

    def stacks(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["stack"] for s in self.view("a")["seats"]}

    def action(self, name: str, kind: str) -> dict[str, Any]:
        return next(a for a in self.view(name)["legal_actions"] if a["action"] == kind)


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code
    return problem


def test_it_a_session_no_open_redeal_open_draw_split_side_pot_and_a_suit_tie() -> None:
    table = Table()
    # Deal 1 (IT-11): everyone checks; d cannot open (409 cannot_open); the pot stays.
    table.deal()
    assert table.action("b", "bet")["choices"] == ["check", "open"]
    table.ok(table.bet("b", "check"))
    table.ok(table.bet("c", "check"))
    before = event_count()
    refused(table.bet("d", "open"), 409, "cannot_open")
    refused(table.bet("d", "bet"), 409, "bet_not_allowed")
    assert event_count() == before
    table.ok(table.bet("d", "check"))
    after = table.ok(table.bet("a", "check"))
    assert (after["phase"], after["pot"]) == ("between_deals", 40)
    assert after["deal"]["betting"]["passed"] is True

    # Deal 2: the next dealer (b) deals, everyone antes again; c opens, the rest call.
    assert table.deal() == 2
    assert table.view("c")["pot"] == 80
    for name, action in (("c", "open"), ("d", "call"), ("a", "call"), ("b", "call")):
        table.ok(table.bet(name, action))
    view = table.view("c")
    assert (view["phase"], view["deal"]["betting"]["opener"]) == ("draw", table.ids["c"])
    assert table.action("c", "exchange")["openers"] == ["Jh", "Js"]
    refused(table.draw("c", "Js 7c 8d 9s"), 409, "invalid_split")  # IT-16
    drawn = table.ok(table.draw("c", "Js 7c 8d 9s", split_openers=True))  # IT-15: three now
    me = next(p for p in drawn["deal"]["players"] if p["player"] == table.ids["c"])
    assert me["cards"] == ["Jh", "Ts", "Th", "Td"]
    table.ok(table.draw("d", "7d"))
    table.ok(table.draw("a"))
    after_draw = table.ok(table.draw("b", "7s"))  # then c's fourth
    assert after_draw["phase"] == "betting"
    assert after_draw["turn"] == [table.ids["c"]]  # IT-17: the opener
    counts = table.view("d")["deal"]["draws"]  # D-IT-05: public
    assert {table.name_of(p): n for p, n in counts.items()} == {"c": 4, "d": 1, "a": 0, "b": 1}
    feed = table.api("a").get(f"/api/v1/tables/{table.id}/events?limit=500").json()["results"]
    draws = [e["data"] for e in feed if e["type"] == "CardsDrawn"]
    assert [(table.name_of(d["player"]), d["count"], d["drawn"]) for d in draws] == [
        ("c", 4, None),
        ("d", 1, None),
        ("a", 0, []),
        ("b", 1, None),
        ("c", 1, None),
    ]  # a sees his own
    assert draws[0]["split_openers"] is True  # public
    assert table.action("c", "bet")["amounts"] == {"check": 0, "bet": 20, "fold": 0}  # D-IT-02
    for name in "cdab":
        end = table.ok(table.bet(name, "check"))
    results = {r["type"]: r["data"] for r in end["deal"]["results"]}
    assert results["PotsAwarded"]["pots"][0]["winners"] == [table.ids["c"]]  # three tens
    assert results["PotsAwarded"]["pots"][0]["amount"] == 120
    assert (results["OpenersShown"]["openers"], results["OpenersShown"]["split"]) == (["Jh", "Js"], True)

    # Deal 3: d all in; the opener a folds; b (left of a) opens the second round (IT-17).
    assert table.deal() == 3
    assert table.stacks()["d"] == 20
    table.ok(table.bet("d", "check"))
    table.ok(table.bet("a", "open"))
    table.ok(table.bet("b", "raise"))
    table.ok(table.bet("c", "call"))
    assert table.action("d", "bet")["amounts"] == {"call": 20, "fold": 0}  # 20 chips: all in
    table.ok(table.bet("d", "call"))  # all in
    table.ok(table.bet("a", "fold"))
    for name in "dbc":
        table.ok(table.draw(name))
    view = table.view("b")
    assert view["turn"] == [table.ids["b"]]
    assert view["deal"]["betting"]["all_in"] == [table.ids["d"]]
    pots = view["deal"]["betting"]["pots"]
    assert [(p["amount"], [table.name_of(x) for x in p["eligible"]]) for p in pots] == [
        (110, ["d", "b", "c"])
    ]
    assert (pots[0]["account"], pots[0]["held"], view["pot"]) == (f"pot:{table.id}", 110, 110)  # gathered
    assert {table.name_of(p): chips for p, chips in pots[0]["contributions"].items()} == {
        "d": 20,
        "a": 10,
        "b": 20,
        "c": 20,
    }  # the folded opener's 10 stays in the pot he paid into
    table.ok(table.bet("b", "bet"))
    assert table.view("c")["deal"]["betting"]["to_call"] == {table.ids["b"]: 0, table.ids["c"]: 20}
    assert table.action("c", "bet")["amounts"] == {"call": 20, "raise": 40, "fold": 0}
    end = table.ok(table.bet("c", "call"))
    results = {r["type"]: r["data"] for r in end["deal"]["results"]}
    pots = results["PotsAwarded"]["pots"]
    assert [(p["amount"], table.name_of(p["winners"][0])) for p in pots] == [(110, "d"), (40, "c")]
    assert results["OpenersShown"]["player"] == table.ids["a"]  # D-IT-03: folded, shown
    assert table.stacks() == {"a": 950, "b": 920, "c": 1080, "d": 110}
    side = f"sidepot:{table.id}:1"  # D-IT-02: the side pot is an account of the deal
    assert [
        (e.event_type, e.amount, e.counterparty)
        for e in AccountEntry.objects.filter(account=side).order_by("position")
    ] == [
        ("BetsGathered", 40, f"bets:{table.id}"),
        ("PotsAwarded", -40, f"seat:{table.id}:{table.ids['c']}"),
    ]
    assert (balance(f"bets:{table.id}"), balance(f"pot:{table.id}"), balance(side)) == (0, 0, 0)
    summary = next(
        d for d in table.api("a").get(table_url(table.id, "deals")).json()["results"] if d["deal_no"] == 3
    )
    assert {"from": side, "to": f"seat:{table.id}:{table.ids['c']}", "amount": 40} in [
        {k: t[k] for k in ("from", "to", "amount")} for t in summary["transfers"]
    ]  # the deal's summary lists the awards with the antes
    assert check_conservation() == []
    text = table.api("a").get(table_url(table.id, "deals/3/history?format=text")).content.decode()
    assert "open" in text


def test_it_the_hand_history_reads_like_draw_poker() -> None:
    table = Table()
    table.deal()
    for name in "bcda":
        table.ok(table.bet(name, "check"))
    text = table.api("a").get(table_url(table.id, "deals/1/history?format=text")).content.decode()
    assert "Nobody opened: the pot of 40 stays" in text
    table.deal()
    for name, action in (("c", "open"), ("d", "call"), ("a", "call"), ("b", "call")):
        table.ok(table.bet(name, action))
    table.ok(table.draw("c", "Js 7c 8d 9s", split_openers=True))
    table.ok(table.draw("d", "7d"))
    table.ok(table.draw("a"))
    table.ok(table.draw("b", "7s"))
    for name in "cdab":
        table.ok(table.bet(name, "check"))
    text = table.api("a").get(table_url(table.id, "deals/2/history?format=text")).content.decode()
    for line in (
        "First betting round (jacks or better to open):",
        "opens 10",
        "Draw:",
        "draws 4 and splits his openers",
        "stands pat",
        "gets his last card (IT-15)",
        "Second betting round:",
        "Main pot of 120",
        "shows his openers: Jh Js (split in the draw)",
    ):
        assert line in text, (line, text)
    # In the order it was played: the antes, the first round and the pot it made, the draw with
    # each count (the reader's own cards only), the second round, the showdown, the openers.
    text = table.api("d").get(table_url(table.id, "deals/2/history?format=text")).content.decode()
    order = [
        "Antes of 10",
        "First betting round (jacks or better to open):",
        "  Main pot now 120",
        "Draw:",
        "draws 4 and splits his openers\n",  # c's cards are c's
        "draws 1 (discards 7d, gets 9c)",  # d's own
        "gets his last card (IT-15)\n",
        "Second betting round:",
        "Showdown (contested):",
        "Main pot of 120",
        "shows his openers: Jh Js (split in the draw)",
    ]
    at = [text.find(line) for line in order]
    assert -1 not in at, text
    assert at == sorted(at), text
    assert "declared" not in text  # poker has no declare


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_d_it_01_d_it_05_every_pack_size_plays_end_to_end(players: int) -> None:
    """Shuffled deals (the service draws the seed) on every pack of D-IT-01: each player takes his
    first legal choice (an open when he can, a call, a two-card draw) until a deal has reached its
    showdown; the proof verifies, the chips are conserved."""
    club = Club.create(players=players, bankroll=5000)
    response = post(
        club.admin, "/api/v1/tables", {"variant": "italian", "options": {"ante": 5, "min_buy_in": 100}}
    )
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 200)
    clients = {str(pk): client for pk, client in club.players.items()}
    showdowns = 0
    for _ in range(12):
        answer = post(club.admin, table_url(table, "deals")).json()
        deal_no = answer["deal_no"]
        assert len({c["seat"] for c in answer["seats"]}) == players
        while not answer["deal"]["over"]:
            player = answer["turn"][0]
            view = clients[player].get(table_url(table)).json()
            offer = next(a for a in view["legal_actions"] if a["action"] in ("bet", "exchange"))
            if offer["action"] == "exchange":
                body: dict[str, Any] = {
                    "deal_no": deal_no,
                    "discards": offer["choices"][-2:],
                    "split_openers": bool(set(offer["choices"][-2:]) & set(offer.get("openers", []))),
                }
                answer = post(clients[player], table_url(table, "exchanges"), body).json()
            else:
                choice = next(c for c in ("open", "call", "check") if c in offer["choices"])
                answer = post(
                    clients[player], table_url(table, "bets"), {"deal_no": deal_no, "action": choice}
                ).json()
        types = [r["type"] for r in answer["deal"]["results"]]
        proof = club.auditor.get(table_url(table, f"deals/{deal_no}/proof")).json()
        assert (proof["ok"], len(proof["pack"])) == (True, min(52, 4 * (players + 4)))  # D-IT-01
        if "PotsAwarded" in types:
            showdowns += 1
            break
    assert showdowns == 1
    assert check_conservation() == []
