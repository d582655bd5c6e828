"""No response of the tables API shows a card its caller may not see, or a sealed declare (§2.6).

Every observer (each seated player, a player never seated, a club admin, an auditor) walks every
tables endpoint (and his own `/me/seats` and `/me/stream`) after every step of several deals;
the JSON text of each deal it is shown is scanned for every card of every hand that viewer may
not see: another player's hand that was not shown (G2-11: a lone "in" hand is not shown; "out"
hands never are), unless the viewer is an auditor and the deal is over. Sealed simultaneous
declares (SIM-01) must read "sealed" or null.
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

HANDS = [
    ("As Ad", "Ks Kd", "Qs Qd", "2c 7h"),
    ("3c 4d", "9h 9c", "Jc Th", "8s 5s"),
    ("6c 6d", "Ah 2d", "Tc 3h", "Kc Qh"),
]
CHOICES = [
    ("in", "out", "out", "out"),
    ("in", "in", "out", "in"),
    ("out", "out", "out", "out"),
    ("in", "out", "in", "out"),
]


@dataclass
class Truth:
    """What really happened in a deal, from the test's own script."""

    hands: dict[str, list[str]]
    choices: dict[str, str] = field(default_factory=dict)
    shown: set[str] = field(default_factory=set)
    over: bool = False
    sealed: bool = False


@dataclass(frozen=True)
class Observer:
    client: APIClient
    player: str | None
    role: str  # player | admin | auditor

    def forbidden(self, truth: Truth) -> set[str]:
        if self.role == "auditor" and truth.over:
            return set()
        return {
            f'"{card}"'
            for p, cards in truth.hands.items()
            if p != self.player and p not in truth.shown
            for card in cards
        }


def check_deal_json(observer: Observer, text: str, truth: Truth) -> None:
    leaked = [card for card in observer.forbidden(truth) if card in text]
    assert not leaked, f"{observer.role} {observer.player} sees {leaked}"


def check_table(observer: Observer, view: dict[str, Any], truths: dict[int, Truth]) -> None:
    deal = view["deal"]
    if deal is None:
        return
    truth = truths[deal["deal_no"]]
    check_deal_json(observer, json.dumps(view), truth)
    if truth.sealed:
        for entry in deal["players"]:
            if entry["player"] != observer.player:
                assert entry["declared"] in (None, "sealed"), entry


def check_history(observer: Observer, page: dict[str, Any], truths: dict[int, Truth]) -> None:
    for entry in page["results"]:
        truth = truths[entry["deal_no"]]
        check_deal_json(observer, json.dumps(entry), truth)
        if truth.sealed:
            assert all(h["declared"] is None for h in entry["hands"] if h["player"] != observer.player)


def my_stream(client: APIClient) -> list[dict[str, Any]]:
    """The messages of the caller's own stream (`/me/stream`), read to its end: its lifetime is
    made short here, for every walk that uses this."""
    with override_settings(GUTS_SSE_MAX_DURATION=0.02, GUTS_SSE_POLL=0.01):
        response = client.get("/api/v1/me/stream")
    assert response.status_code == 200
    text = b"".join(response.streaming_content).decode()
    messages = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and line[0] != ":")
        if "data" in fields:
            messages.append({"event": fields["event"], "data": json.loads(fields["data"])})
    return messages


def check_mine(observer: Observer, table: str, truths: dict[int, Truth]) -> None:
    """`/me/seats` and `/me/stream` show the observer what the table's GET does, and nothing more."""
    live = truths[max(truths)]
    check_deal_json(observer, json.dumps(observer.client.get("/api/v1/me/seats").json()), live)
    messages = my_stream(observer.client)
    assert any(m["event"] == "table" for m in messages) == (observer.player is not None)  # seated
    for message in messages:
        if message["event"] == "table":
            check_table(observer, message["data"], truths)
            assert message["data"] == observer.client.get(table_url(table)).json()
        else:
            check_deal_json(observer, json.dumps(message["data"]), live)


def walk(observers: list[Observer], table: str, players: list[str], truths: dict[int, Truth]) -> None:
    for observer in observers:
        check_table(observer, observer.client.get(table_url(table)).json(), truths)
        check_mine(observer, table, truths)
        check_history(observer, observer.client.get(table_url(table, "deals")).json(), truths)
        for player in players:
            response = observer.client.get(f"/api/v1/players/{player}/deals")
            if response.status_code == 200:
                check_history(observer, response.json(), truths)
            else:
                assert observer.role == "player"
                assert observer.player != player


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_no_response_leaks_a_hidden_card_or_a_sealed_declare(mode: str) -> None:
    club = Club.create(players=4, bankroll=5000)
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table = club.open_table(
            {"ante": 10, "min_buy_in": 100, "declare_mode": mode}, [stack_deck(*hands) for hands in HANDS]
        )
    club.seat_all(table, 1000)
    players = [str(p) for p in club.players]
    observers = [Observer(client, str(pid), "player") for pid, client in club.players.items()]
    observers += [
        Observer(club.outsider, None, "player"),
        Observer(club.admin, None, "admin"),
        Observer(club.auditor, None, "auditor"),
    ]
    truths: dict[int, Truth] = {}
    for deal_no, choices in enumerate(CHOICES, start=1):
        view = post(club.admin, table_url(table, "deals")).json()
        order = [p["player"] for p in view["deal"]["players"]]
        hands = HANDS[(deal_no - 1) % len(HANDS)]
        truth = Truth(hands={p: hands[i].split() for i, p in enumerate(order)}, sealed=mode == "simultaneous")
        truths[deal_no] = truth
        check_table(Observer(club.admin, None, "admin"), view, truths)
        walk(observers, table, players, truths)
        for player, choice in zip(order, choices, strict=True):
            if club.outsider.get(table_url(table)).json()["turn"] == []:
                break  # G2-10: the dealer was forced in
            response = post(
                club.players[int(player)],
                table_url(table, "declares"),
                {"deal_no": deal_no, "choice": choice},
            )
            assert response.status_code == 200, response.content
            truth.choices[player] = choice
            done = response.json()["deal"]["over"]
            if done:
                finish(truth, order)
            check_table(Observer(club.players[int(player)], player, "player"), response.json(), truths)
            walk(observers, table, players, truths)
        assert truth.over
    assert truths[2].shown  # some hands were shown, others not


def finish(truth: Truth, order: list[str]) -> None:
    """The deal is over: G2-12 the "in" players show when two or more are in; declares are public."""
    if all(truth.choices.get(p) == "out" for p in order[:-1]) and order[-1] not in truth.choices:
        truth.choices[order[-1]] = "in"  # G2-10 (sequential)
    ins = [p for p in order if truth.choices.get(p) == "in"]
    truth.shown = set(ins) if len(ins) > 1 else set()
    truth.over, truth.sealed = True, False
