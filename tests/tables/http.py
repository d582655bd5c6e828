"""HTTP helpers for the tables API tests: a club with funded players, tables and their URLs."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from ledger.cashier import player_create
from tests.api.conftest import client_for

_names = itertools.count(1)


def table_url(table_id: str, action: str = "") -> str:
    return f"/api/v1/tables/{table_id}" + (f"/{action}" if action else "")


def post(client: APIClient, url: str, body: Any = None, **headers: str) -> Any:
    return client.post(url, body if body is not None else {}, format="json", headers=headers)


@dataclass
class Club:
    """A club admin, an auditor, an outsider (a player never seated) and funded players."""

    admin: APIClient
    auditor: APIClient
    outsider: APIClient
    players: dict[int, APIClient] = field(default_factory=dict)

    @classmethod
    def create(cls, players: int, bankroll: int) -> Club:
        admin_user = _staff(CLUB_ADMIN)
        club = cls(
            admin=client_for(admin_user), auditor=client_for(_staff(AUDITOR)), outsider=client_for(_player())
        )
        for _ in range(players):
            user = _player()
            response = post(club.admin, f"/api/v1/players/{user.pk}/deposits", {"amount": bankroll})
            assert response.status_code == 201, response.content
            club.players[user.pk] = client_for(user)
        return club

    def open_table(self, options: dict[str, Any], decks: list[list[str]] | None = None) -> str:
        body: dict[str, Any] = {"variant": "guts2", "options": options}
        if decks is not None:
            body["stacked_decks"] = decks
        response = post(self.admin, "/api/v1/tables", body)
        assert response.status_code == 201, response.content
        return response.json()["table_id"]

    def seat_all(self, table: str, buy_in: int) -> None:
        for client in self.players.values():
            response = post(client, table_url(table, "seats"), {"buy_in": buy_in})
            assert response.status_code == 200, response.content

    def bankroll(self, player: int) -> int:
        return self.admin.get(f"/api/v1/players/{player}/balance").json()["balance"]


def _staff(role: str) -> AbstractUser:
    user = get_user_model().objects.create_user(username=f"staff{next(_names)}", password="pw-not-used")
    grant_role(user, role)
    return user


def _player() -> AbstractUser:
    return player_create(username=f"hp{next(_names)}", password="pw-not-used")
