"""No response shows a drawn, discarded or passed card of another player (EXC-01..03, DESIGN §2.6).

Four players play two deals of Three-Card Guts with `exchange=draw` and two with
`exchange=pass_left`. After every command every observer (each seated player, a player never
seated, a club admin, an auditor) reads every endpoint that shows a deal: the table, the deal
lists, the event feed, the deal's replay and history, the table's history (and, once the deal is
over, its proof). The JSON is scanned for every card another player ever held in the deal (dealt,
drawn, discarded, passed or received) that the observer never held himself, except, once the
deal is over, the hands shown at the showdown; an auditor sees everything once the deal is over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

HANDS = [("As Ks 4d", "Qd Jd 9c", "2c 7h 5s", "8h 8d 3s"), ("Ac Kc 4h", "Qs Js 9d", "2d 7c 5h", "8c 8s 3h")]
STOCKS = [["Ah", "Kh", "Qh", "Jh", "Th", "9h"], ["Ad", "Kd", "Td", "Tc", "6c", "6d"]]
# Per deal, by place in the dealing order: the cards each discards (draw) or passes left (pass_left).
DRAWS = [([1, 2], [], [0, 1, 2], [2]), ([0], [0, 1], [], [0, 1, 2])]
PASSES = [(1, 2, 0, 2), (0, 0, 1, 1)]
DECLARES = [("in", "in", "in", "in"), ("in", "out", "out", "out")]


@dataclass
class Truth:
    """A deal as the script played it: every card each player ever held, the shown hands."""

    held: dict[str, set[str]]
    final: dict[str, list[str]]
    shown: set[str] = field(default_factory=set)
    over: bool = False

    def forbidden(self, player: str | None, role: str) -> set[str]:
        if role == "auditor" and self.over:
            return set()
        mine = self.held.get(player or "", set())
        seen = {card for p in self.shown for card in self.final[p]}
        return {card for p, cards in self.held.items() if p != player for card in cards} - mine - seen


@dataclass(frozen=True)
class Observer:
    client: APIClient
    player: str | None
    role: str


def without_packs(document: Any) -> Any:
    """The document without the proofs' `pack` lists (every card of the pack, public)."""
    if isinstance(document, dict):
        return {key: without_packs(value) for key, value in document.items() if key != "pack"}
    if isinstance(document, list):
        return [without_packs(item) for item in document]
    return document


def check(observer: Observer, url: str, truth: Truth) -> None:
    response = observer.client.get(url)
    if response.status_code in (403, 404, 409):
        return  # not for this role, or not yet
    assert response.status_code == 200, (url, response.content)
    text = json.dumps(without_packs(response.json()))
    leaked = sorted(card for card in truth.forbidden(observer.player, observer.role) if f'"{card}"' in text)
    assert not leaked, f"{observer.role} {observer.player} sees {leaked} at {url}"


def walk(observers: list[Observer], table: str, players: list[str], deal_no: int, truth: Truth) -> None:
    deal = f"deals/{deal_no}"
    urls = [
        table_url(table),
        table_url(table, "deals"),
        table_url(table, "events?limit=500"),
        table_url(table, f"{deal}/replay"),
        table_url(table, f"{deal}/history?format=json"),
        table_url(table, "history?format=json"),
        *(f"/api/v1/players/{p}/deals" for p in players),
    ]
    if truth.over:
        urls.append(table_url(table, f"deals/{deal_no}/proof"))
    for observer in observers:
        for url in urls:
            check(observer, url, truth)


def play(client: APIClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = post(client, url, body)
    assert response.status_code == 200, response.content
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize("exchange", ["draw", "pass_left"])
def test_no_response_leaks_an_exchanged_card(exchange: str) -> None:
    club = Club.create(players=4, bankroll=5000)
    decks = [[*stack_deck(*hands), *stock] for hands, stock in zip(HANDS, STOCKS, strict=True)]
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(
            club.admin,
            "/api/v1/tables",
            {
                "variant": "guts3",
                "stacked_decks": decks,
                "options": {"ante": 10, "min_buy_in": 100, "exchange": exchange},
            },
        )
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    club.seat_all(table, 1000)
    players = [str(p) for p in club.players]
    observers = [Observer(client, str(pid), "player") for pid, client in club.players.items()]
    observers += [
        Observer(club.outsider, None, "player"),
        Observer(club.admin, None, "admin"),
        Observer(club.auditor, None, "auditor"),
    ]
    for deal_no in (1, 2):
        view = play(club.admin, table_url(table, "deals"), {})
        order = [p["player"] for p in view["deal"]["players"]]
        hands = {p: HANDS[deal_no - 1][i].split() for i, p in enumerate(order)}
        truth = Truth(held={p: set(cards) for p, cards in hands.items()}, final=hands)
        walk(observers, table, players, deal_no, truth)
        if exchange == "draw":
            exchange_by_draw(club, table, order, deal_no, truth, observers, players)
        else:
            exchange_by_pass(club, table, order, deal_no, truth, observers, players)
        for i, player in enumerate(order):
            answer = play(
                club.players[int(player)],
                table_url(table, "declares"),
                {"deal_no": deal_no, "choice": DECLARES[deal_no - 1][i]},
            )
            if answer["deal"]["over"]:
                ins = [p for p, choice in zip(order, DECLARES[deal_no - 1], strict=True) if choice == "in"]
                truth.shown, truth.over = (set(ins) if len(ins) > 1 else set()), True
            walk(observers, table, players, deal_no, truth)
        assert truth.over
        assert truth.forbidden(players[0], "player") or deal_no == 1  # deal 2 keeps hands hidden


def exchange_by_draw(
    club: Club,
    table: str,
    order: list[str],
    deal_no: int,
    truth: Truth,
    observers: list[Observer],
    players: list[str],
) -> None:
    stock = iter(STOCKS[deal_no - 1])
    for i, player in enumerate(order):
        hand = truth.final[player]
        discards = [hand[k] for k in DRAWS[deal_no - 1][i]]
        drawn = [next(stock) for _ in discards]
        play(
            club.players[int(player)],
            table_url(table, "exchanges"),
            {"deal_no": deal_no, "discards": discards},
        )
        truth.final[player] = [card for card in hand if card not in discards] + drawn
        truth.held[player] |= set(drawn)
        walk(observers, table, players, deal_no, truth)


def exchange_by_pass(
    club: Club,
    table: str,
    order: list[str],
    deal_no: int,
    truth: Truth,
    observers: list[Observer],
    players: list[str],
) -> None:
    passed = {p: truth.final[p][PASSES[deal_no - 1][i]] for i, p in enumerate(order)}
    for player in order:
        play(
            club.players[int(player)],
            table_url(table, "passes"),
            {"deal_no": deal_no, "card": passed[player]},
        )
        if player == order[-1]:  # the last choice: the cards move
            for i, holder in enumerate(order):
                received = passed[order[i - 1]]  # from the right (EXC-03)
                truth.final[holder] = [c for c in truth.final[holder] if c != passed[holder]] + [received]
                truth.held[holder].add(received)
        walk(observers, table, players, deal_no, truth)
