"""Fixtures for the audit tests: a club (players, an admin, an auditor) and tables played through
the real tables service, recording what the live projections showed after every command."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import connection
from rest_framework.test import APIClient

from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from http_edge.tokens import token_issue
from ledger.cashier import cashier_deposit, player_create
from ledger.models import Event
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.view import legal_actions
from tables.engine.deck import new_seed
from tables.models import SeatView, TableView
from tables.state import cache, load_table
from tests.conftest import on_postgres

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """The tables service's in-process state cache must not leak across rolled-back tests."""
    cache.clear()
    yield
    cache.clear()


def client_for(user: AbstractUser) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_of(user)}")
    return client


def token_of(user: AbstractUser) -> str:
    return token_issue(user=user).key


@dataclass
class Club:
    players: list[AbstractUser]
    outsider: AbstractUser  # a player who never sits at the table
    admin: AbstractUser
    auditor: AbstractUser

    def ids(self) -> list[int]:
        return [player.pk for player in self.players]


@pytest.fixture
def club(db: Any, settings: Any) -> Club:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test speed only

    def player(name: str) -> AbstractUser:
        user = player_create(username=f"{name}{next(_names)}", password="pw-not-used", display_name=name)
        cashier_deposit(player_id=user.pk, amount=100_000)
        return user

    def staff(role: str) -> AbstractUser:
        user = get_user_model().objects.create_user(username=f"{role}{next(_names)}", password="pw-not-used")
        grant_role(user, role)
        return user

    return Club(
        players=[player("ann"), player("bob"), player("cy")],
        outsider=player("dee"),
        admin=staff(CLUB_ADMIN),
        auditor=staff(AUDITOR),
    )


@dataclass(frozen=True)
class Seen:
    """What the live projections showed after one command."""

    version: int
    deal_no: int
    pot: int
    reserve: int
    phase: str
    stacks: dict[str, int]


@dataclass
class Session:
    """A table played through the service; `seen` records the projections after every command."""

    table_id: str
    players: list[int]
    seen: list[Seen] = field(default_factory=list)
    legacy: bool = False  # deals by the seed recipe, as the service started them before
    # per-card commitments (deck schema 1): old deals in the log

    def record(self) -> None:
        view = TableView.objects.get(table_id=self.table_id)
        stacks = dict(
            SeatView.objects.filter(table_id=self.table_id, status="seated").values_list("player", "stack")
        )
        self.seen.append(Seen(view.version, view.deal_no, view.pot, view.reserve, view.phase, stacks))

    def start(self) -> int:
        if self.legacy:
            result = service.execute(self.table_id, cmd.StartDeal(seed=new_seed()))
        else:
            result = service.table_command(table_id=self.table_id, command=cmd.StartDeal())
        self.record()
        return result.state.deal_no

    def declare_all(self, choose: Callable[[str], str]) -> None:
        """Everyone whose declare is awaited declares `choose(player)` ("in" falls back to "out"
        when the stack cannot cover it), until the deal ends."""
        while (deal := load_table(self.table_id).state.live) is not None and deal.awaiting:
            state = load_table(self.table_id).state
            for player in deal.awaiting:
                choices = next(
                    a["choices"] for a in legal_actions(state, player, _now()) if a["action"] == "declare"
                )
                choice = choose(player) if choose(player) in choices else choices[0]
                service.table_command(
                    table_id=self.table_id, command=cmd.Declare(player, deal.deal_no, choice)
                )
                self.record()

    def play(self, choose: Callable[[str], str]) -> int:
        deal_no = self.start()
        self.declare_all(choose)
        return deal_no


def _now() -> Any:
    from django.utils import timezone

    return timezone.now()


def open_session(players: list[int], *, legacy: bool = False, **options: Any) -> Session:
    opened = service.table_open(variant=options.pop("variant", "guts2"), options={"ante": 10, **options})
    session = Session(opened.table_id, players, legacy=legacy)
    for player in players:
        service.table_command(table_id=session.table_id, command=cmd.SitDown(str(player), 1000))
    session.record()
    return session


@pytest.fixture
def session(club: Club) -> Session:
    """Three seated players (the club's), no deal yet."""
    return open_session(club.ids())


@pytest.fixture
def legacy_session(club: Club) -> Session:
    """As `session`, its deals by the seed recipe of deck schema 1 (deals logged before)."""
    return open_session(club.ids(), legacy=True)


def everyone_in(player: str) -> str:
    return "in"


def stored_seed(table_id: str, deal_no: int) -> str:
    """The secret seed of a deal, read from the log behind the API (for leak scans)."""
    rows = Event.objects.filter(stream=f"table-{table_id}", type="DealStarted").values_list("data", flat=True)
    return next(data["seed"] for data in rows if data["deal_no"] == deal_no)


def hole_cards(table_id: str, deal_no: int) -> dict[str, list[str]]:
    """Every participant's cards of a deal, read from the log behind the API."""
    rows = (
        Event.objects.filter(stream=f"table-{table_id}", type="CardsDealt")
        .order_by("position")
        .values_list("data", flat=True)
    )  # dealing order
    return {data["player"]: data["cards"] for data in rows if data["deal_no"] == deal_no}


def tamper(position: int, data: dict[str, Any]) -> None:
    """Change one stored event behind the store's back (on PostgreSQL the append-only trigger
    has to be disabled first; the test transaction rolls all of it back)."""
    with connection.cursor() as cursor:
        if on_postgres():
            cursor.execute("ALTER TABLE ledger_event DISABLE TRIGGER ledger_event_no_update_delete")
        cursor.execute("UPDATE ledger_event SET data = %s WHERE position = %s", [json.dumps(data), position])
        if on_postgres():
            cursor.execute("ALTER TABLE ledger_event ENABLE TRIGGER ledger_event_no_update_delete")
