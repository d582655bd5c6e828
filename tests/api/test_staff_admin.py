"""The admin as club staff use it (docs/api.md "Staff tooling"): players by name with their
bankrolls, the cashier's transactions, tournaments with their entrants and tables by name; pages
for staff only, and every write from them through the services, as events."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse

from ledger.cashier import cashier_deposit, player_create
from ledger.models import AccountBalance, CashierTransaction, Event, PlayerName
from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.models import DealSummary, SeatView, TableView
from tests.tournaments.conftest import T0, tournament_fields
from tournaments import service as tournaments
from tournaments.models import TournamentView

pytestmark = pytest.mark.django_db

STAFF_PAGES = (
    PlayerName,
    CashierTransaction,
    AccountBalance,
    TableView,
    SeatView,
    DealSummary,
    TournamentView,
)


@pytest.fixture
def root_client(django_user_model: type[AbstractUser]) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser(username="root", password="root-pw"))
    return client


@pytest.fixture
def club(settings: Any) -> dict[str, Any]:
    """Ann and Bob at a named table with a deal played, and a tournament they entered."""
    settings.GUTS_TOURNAMENT_TASKS = False
    ann = player_create(username="ann-login", password="pw", display_name="Ann")
    bob = player_create(username="bob-login", password="pw", display_name="Bob")
    for user in (ann, bob):
        cashier_deposit(player_id=user.pk, amount=2000, note="opening float")
    table = service.table_open(variant="guts2", options={"ante": 10}, name="Back room").table_id
    for user in (ann, bob):
        service.table_command(table_id=table, command=cmd.SitDown(str(user.pk), 200))
    service.table_command(table_id=table, command=cmd.StartDeal())
    fields = tournament_fields(name="Spring Cup", min_entrants=2, payouts=[100])
    cup = tournaments.tournament_create(fields=fields, now=T0 - timedelta(minutes=10)).tournament_id
    for user in (ann, bob):
        tournaments.tournament_register(tournament_id=cup, player_id=user.pk, now=T0 - timedelta(minutes=5))
    return {"ann": ann, "bob": bob, "table": table, "cup": cup}


def changelist(model: type[Any]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change(model: type[Any], pk: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])


def test_staff_pages_show_players_tables_and_tournaments_by_name(
    root_client: Client, club: dict[str, Any]
) -> None:
    ann = club["ann"]
    expected = {
        PlayerName: ["Ann", "ann-login", "2000"],
        CashierTransaction: ["Ann (#", "deposit", "opening float"],
        AccountBalance: ["Ann&#x27;s bankroll", "Ann&#x27;s seat at Back room"],
        TableView: ["Back room"],
        SeatView: ["Back room", "Bob"],
        DealSummary: ["Back room"],
        TournamentView: ["Spring Cup"],
    }
    for model, texts in expected.items():
        page = root_client.get(changelist(model))
        assert page.status_code == 200, model
        for text in texts:
            assert text in page.content.decode(), (model, text)
    for url in (
        change(PlayerName, ann.pk),
        change(TableView, club["table"]),
        change(CashierTransaction, Event.objects.filter(type="DepositMade").first().pk),
    ):
        assert root_client.get(url).status_code == 200, url
    cup = root_client.get(change(TournamentView, club["cup"])).content.decode()
    assert "Ann" in cup
    assert "Bob" in cup  # the entrants, by name


def test_the_cashier_page_shows_no_other_event(root_client: Client, club: dict[str, Any]) -> None:
    listed = root_client.get(changelist(CashierTransaction)).context["cl"].result_list
    assert {row.type for row in listed} == {"DepositMade"}
    table_event = Event.objects.filter(stream=f"table-{club['table']}").first()
    assert root_client.get(change(CashierTransaction, table_event.pk)).status_code == 302  # not one of them


def test_players_get_no_admin_page(club: dict[str, Any]) -> None:
    client = Client()
    client.force_login(club["ann"])
    for model in STAFF_PAGES:
        response = client.get(changelist(model))
        assert response.status_code == 302, model
        assert reverse("admin:login") in response["Location"]
    assert client.get(reverse("admin:ledger_playername_rename", args=[club["bob"].pk])).status_code == 302


def test_a_rename_and_a_deposit_from_the_admin_are_events_by_the_admin(
    root_client: Client, club: dict[str, Any], django_user_model: type[AbstractUser]
) -> None:
    ann, root = club["ann"], django_user_model.objects.get(username="root")
    rename = reverse("admin:ledger_playername_rename", args=[ann.pk])
    before = Event.objects.count()
    taken = root_client.post(rename, {"display_name": "bob"})
    assert taken.status_code == 200
    assert "display_name_taken" in taken.content.decode()
    assert Event.objects.count() == before

    assert root_client.post(rename, {"display_name": "Annie"}).status_code == 302
    renamed = read_stream(f"player-{ann.pk}")[-1]
    assert (renamed.type, renamed.data["display_name"], renamed.meta) == (
        "PlayerRenamed",
        "Annie",
        {**renamed.meta, "actor": root.pk, "source": "admin"},
    )
    cashier = reverse("admin:ledger_playername_cashier", args=[ann.pk])
    assert (
        root_client.post(cashier, {"operation": "deposit", "amount": 50, "note": "chips back"}).status_code
        == 302
    )
    deposit = read_stream(f"player-{ann.pk}")[-1]
    assert (deposit.type, deposit.data["amount"], deposit.data["note"]) == ("DepositMade", 50, "chips back")
    overdraw = root_client.post(cashier, {"operation": "withdrawal", "amount": 10**9, "note": ""})
    assert "insufficient_funds" in overdraw.content.decode()


def test_the_user_form_cannot_change_a_display_name_without_an_event(
    root_client: Client, club: dict[str, Any]
) -> None:
    ann = club["ann"]
    page = root_client.get(reverse("admin:auth_user_change", args=[ann.pk])).content.decode()
    assert 'name="first_name"' not in page
    ann.refresh_from_db()
    assert ann.first_name == "Ann"


def test_admin_labels_are_plural_english(root_client: Client) -> None:
    plurals = [str(model._meta.verbose_name_plural) for model in admin.site._registry]
    assert "account entries" in plurals
    assert "deal summaries" in plurals
    assert not [p for p in plurals if p.endswith(("ys", "fs")) and not p.endswith(("ays", "eys", "oys"))]
    index = root_client.get(reverse("admin:index")).content.decode()
    for label in ("Players", "Cashier transactions", "Tournaments", "Tables", "Account entries"):
        assert label in index
