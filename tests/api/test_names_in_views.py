"""Names beside ids (tables.naming, docs/api.md "Players and their names"): every document that
shows a player id shows his display name with it (`names`, `player_name`), tables and tournaments
are named in every view and list, and a refusal about a player names him."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import override_settings
from rest_framework.test import APIClient

from http_edge.roles import AUDITOR, CLUB_ADMIN
from ledger.cashier import cashier_deposit, player_create
from tables.naming import ids_in
from tests.api.conftest import client_for, event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import _staff, post, table_url

pytestmark = pytest.mark.django_db

OPTIONS = {"ante": 10, "min_buy_in": 100, "pot_limit": 100}
NAMES = ("Ann", "Bob", "Cy")
_count = itertools.count(1)


@dataclass
class Named:
    admin: APIClient
    auditor: APIClient
    users: dict[str, AbstractUser]  # by display name

    def client(self, player: str) -> APIClient:
        return client_for(next(u for u in self.users.values() if str(u.pk) == player))

    def name_of(self, player: str) -> str:
        return next(name for name, u in self.users.items() if str(u.pk) == player)


@pytest.fixture
def named() -> Named:
    users = {}
    for name in NAMES:
        users[name] = player_create(
            username=f"{name.lower()}{next(_count)}", password="pw", display_name=name
        )
        cashier_deposit(player_id=users[name].pk, amount=5000)
    return Named(client_for(_staff(CLUB_ADMIN)), client_for(_staff(AUDITOR)), users)


def assert_named(document: Any, named: Named) -> None:
    """Every player id anywhere in the document is in its `names`, with his display name."""
    players = {str(u.pk) for u in named.users.values()}
    found = set(ids_in(document)) & players
    assert found, "the document names no player"
    assert {player: document["names"][player] for player in found} == {p: named.name_of(p) for p in found}


def assert_rows_named(rows: list[dict[str, Any]], named: Named) -> None:
    assert rows
    for row in rows:
        assert row["player_name"] == named.name_of(row["player"]), row


def open_and_deal(named: Named, name: str | None = None) -> tuple[str, dict[str, Any]]:
    body: dict[str, Any] = {"variant": "guts2", "options": OPTIONS}
    body["stacked_decks"] = [stack_deck("As Ad", "Ks Kd", "2c 7h")]
    if name is not None:
        body["name"] = name
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        opened = post(named.admin, "/api/v1/tables", body)
    assert opened.status_code == 201, opened.content
    table = opened.json()["table_id"]
    for user in named.users.values():
        assert post(client_for(user), table_url(table, "seats"), {"buy_in": 500}).status_code == 200
    started = post(named.admin, table_url(table, "deals"))
    assert started.status_code == 200, started.content
    return table, started.json()


def play_out(named: Named, table: str, view: dict[str, Any]) -> dict[str, Any]:
    for choice in ("in", "in", "out"):
        [player] = view["turn"]
        response = post(named.client(player), table_url(table, "declares"), {"deal_no": 1, "choice": choice})
        assert response.status_code == 200, response.content
        view = response.json()
    return view


def test_a_table_view_names_its_table_and_every_player_in_it(named: Named) -> None:
    table, view = open_and_deal(named)
    assert re.fullmatch(r"Two-card Guts #\d+", view["name"])
    assert view["tournament_name"] is None
    assert_named(view, named)  # seats, dealer, turn
    assert_rows_named(view["seats"], named)
    assert_rows_named(view["deal"]["players"], named)
    assert view["names"][view["turn"][0]] == named.name_of(view["turn"][0])

    over = play_out(named, table, view)
    assert over["deal"]["winners"]
    assert_named(over, named)  # winners and every stage's results too
    for player in over["deal"]["winners"]:
        assert over["names"][player] == named.name_of(player)
    seen_by_auditor = named.auditor.get(table_url(table)).json()
    assert_named(seen_by_auditor, named)


def test_a_table_opened_with_a_name_keeps_it_in_its_view_and_the_list(named: Named) -> None:
    table, view = open_and_deal(named, "Friday high rollers")
    assert view["name"] == "Friday high rollers"
    listing = named.auditor.get("/api/v1/tables").json()["results"]
    [row] = [row for row in listing if row["table_id"] == table]
    assert row["name"] == "Friday high rollers"
    assert row["tournament_name"] is None
    assert_named(row, named)  # dealer and turn
    before = event_count()
    refused = post(named.admin, "/api/v1/tables", {"variant": "guts2", "name": "Kings As"})
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_table_name")
    assert event_count() == before


def test_default_table_names_count_the_variants_tables(named: Named) -> None:
    first = post(named.admin, "/api/v1/tables", {"variant": "guts3"}).json()["name"]
    second = post(named.admin, "/api/v1/tables", {"variant": "guts3"}).json()["name"]
    number = int(first.removeprefix("Three-card Guts #"))
    assert second == f"Three-card Guts #{number + 1}"


def test_deal_histories_name_their_table_and_players(named: Named) -> None:
    table, view = open_and_deal(named)
    play_out(named, table, view)
    ann = named.users["Ann"]
    for page in (
        named.auditor.get(table_url(table, "deals")).json(),
        client_for(ann).get(f"/api/v1/players/{ann.pk}/deals").json(),
    ):
        [deal] = page["results"]
        assert deal["table_name"] == view["name"]
        assert_named(deal, named)  # dealer, participants, winners, losers, results
        assert_rows_named(deal["hands"], named)

    document = client_for(ann).get(f"/api/v1/tables/{table}/deals/1/history", {"format": "json"}).json()
    assert document["table_name"] == view["name"]
    assert_named(document, named)
    assert_rows_named(document["hands"], named)
    assert_rows_named(document["before"]["seats"], named)
    text = client_for(ann).get(f"/api/v1/tables/{table}/deals/1/history", {"format": "text"}).content.decode()
    assert f"at table {table} ({view['name']})" in text
    for name, user in named.users.items():
        assert f"{user.username} (#{user.pk}) is {name}" in text


def test_a_refusal_about_a_player_names_him(named: Named) -> None:
    table, view = open_and_deal(named)
    [turn] = view["turn"]
    waiting = next(str(u.pk) for u in named.users.values() if str(u.pk) != turn)
    before = event_count()
    response = post(named.client(waiting), table_url(table, "declares"), {"deal_no": 1, "choice": "in"})
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "not_your_turn"
    assert problem["detail"] == f"it is not {named.name_of(waiting)}'s turn to declare"
    assert (problem["player"], problem["player_name"]) == (waiting, named.name_of(waiting))
    assert event_count() == before

    again = post(named.client(turn), table_url(table, "seats"), {"buy_in": 500})
    assert again.json()["code"] == "already_seated"
    assert again.json()["detail"].startswith(f"{named.name_of(turn)} is already seated")
    assert again.json()["player_name"] == named.name_of(turn)


def test_statement_lines_say_when_with_whom_and_the_cashiers_note(named: Named) -> None:
    ann = named.users["Ann"]
    post(named.admin, f"/api/v1/players/{ann.pk}/deposits", {"amount": 300, "note": "cash at the desk"})
    table, _ = open_and_deal(named, "Corner table")
    lines = client_for(ann).get(f"/api/v1/players/{ann.pk}/statement").json()["results"]
    by_reason = {line["reason"]: line for line in lines}
    deposit = by_reason["deposit"]
    assert (deposit["counter_account"], deposit["counter_account_name"]) == ("cashier", "Cashier")
    assert deposit["counter_account"] == deposit["counterparty"]
    assert [line["note"] for line in lines if line["reason"] == "deposit"] == ["", "cash at the desk"]
    buy_in = next(line for line in lines if line["counterparty"].startswith("seat:"))
    assert buy_in["counter_account"] == f"seat:{table}:{ann.pk}"
    assert buy_in["counter_account_name"] == "Ann's seat at Corner table"
    assert buy_in["note"] == ""
    for line in lines:
        assert line["recorded_at"].endswith("Z")
