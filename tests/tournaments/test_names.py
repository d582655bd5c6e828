"""Tournaments by name (docs/api.md "Players and their names", "Tournaments"): the detail names
every player in it and its tables, a tournament's tables carry the tournament's name, and a club
admin cannot schedule a start in the past (400 start_in_past, nothing appended)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from http_edge.roles import CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue
from ledger.cashier import cashier_deposit, player_create
from ledger.models import Event
from tables.naming import ids_in
from tournaments import service

from .conftest import T0, tournament_fields

URL = "/api/v1/tournaments"
NAMES = ("Ann", "Bob", "Cy", "Dee")
_count = itertools.count(1)


def client_for(user: Any) -> APIClient:
    return APIClient(headers={"Authorization": f"Token {token_issue(user=user).key}"})


@pytest.fixture
def admin(db: Any) -> APIClient:
    user = get_user_model().objects.create_user(username=f"names-admin{next(_count)}", password="pw")
    grant_role(user, CLUB_ADMIN)
    return client_for(user)


@pytest.fixture
def running(db: Any) -> tuple[str, dict[str, str]]:
    """A started tournament "Spring Cup" of four named players: its id and {player id: name}."""
    players = {}
    for name in NAMES:
        user = player_create(username=f"{name.lower()}{next(_count)}", password="pw", display_name=name)
        cashier_deposit(player_id=user.pk, amount=1000)
        players[str(user.pk)] = name
    fields = tournament_fields(name="Spring Cup", min_entrants=4, seats_per_table=4, payouts=[100])
    tid = service.tournament_create(fields=fields, now=T0 - timedelta(minutes=10)).tournament_id
    for player in players:
        service.tournament_register(tournament_id=tid, player_id=int(player), now=T0 - timedelta(minutes=5))
    service.tournament_start(tournament_id=tid, now=T0)
    return tid, players


def test_the_detail_names_every_player_and_table_of_the_tournament(
    admin: APIClient, running: tuple[str, dict[str, str]]
) -> None:
    tid, players = running
    detail = admin.get(f"{URL}/{tid}").json()
    assert detail["name"] == "Spring Cup"
    assert {player: detail["names"][player] for player in set(ids_in(detail)) & set(players)} == players
    assert set(detail["entrants"]) <= set(detail["names"])
    assert {row["player"]: row["player_name"] for row in detail["standings"]} == players
    [table] = detail["tables"]
    assert table["name"] == "Spring Cup · table 1"
    assert all(seat["player_name"] == players[seat["player"]] for seat in table["seats"])
    assert detail["winner_name"] is None

    [listed] = [t for t in admin.get(URL).json()["results"] if t["tournament_id"] == tid]
    assert (listed["name"], listed["winner_name"]) == ("Spring Cup", None)

    view = admin.get(f"/api/v1/tables/{table['table_id']}").json()
    assert (view["name"], view["tournament_name"]) == ("Spring Cup · table 1", "Spring Cup")
    assert {seat["player_name"] for seat in view["seats"]} == set(NAMES)
    [row] = [t for t in admin.get("/api/v1/tables").json()["results"] if t["table_id"] == table["table_id"]]
    assert (row["name"], row["tournament_name"]) == ("Spring Cup · table 1", "Spring Cup")


@pytest.mark.parametrize("start_at", ["2020-01-05T19:00:00Z", "past"])
def test_a_start_in_the_past_is_400_start_in_past_and_appends_nothing(
    admin: APIClient, start_at: str
) -> None:
    if start_at == "past":
        start_at = (timezone.now() - timedelta(seconds=5)).isoformat()
    before = Event.objects.count()
    response = admin.post(URL, tournament_fields(start_at=start_at), format="json")
    assert response.status_code == 400, response.json()
    assert (response.json()["code"], response.json()["field"]) == ("start_in_past", "start_at")
    assert Event.objects.count() == before
    ahead = (timezone.now() + timedelta(hours=1)).isoformat()
    assert admin.post(URL, tournament_fields(start_at=ahead), format="json").status_code == 201
