"""The Django admin shows events and balances read-only: nobody, superusers included, may add,
change or delete them there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client

from ledger.cashier import cashier_deposit
from ledger.models import AccountBalance, Event


@pytest.fixture
def superuser_client(django_user_model: type[AbstractUser]) -> Client:
    root = django_user_model.objects.create_superuser(username="root", password="root-password")
    client = Client()
    client.force_login(root)
    return client


@pytest.fixture
def event(player: AbstractUser) -> Event:
    cashier_deposit(player_id=player.pk, amount=100)
    return Event.objects.filter(stream=f"player-{player.pk}").order_by("-version").first()


def test_superuser_can_list_and_view_events(superuser_client: Client, event: Event) -> None:
    listing = superuser_client.get("/admin/ledger/event/", {"q": event.stream})
    assert listing.status_code == 200
    assert event.stream in listing.content.decode()
    assert superuser_client.get("/admin/ledger/event/", {"type": "DepositMade"}).status_code == 200
    assert superuser_client.get(f"/admin/ledger/event/{event.pk}/change/").status_code == 200


def test_superuser_cannot_change_an_event(superuser_client: Client, event: Event) -> None:
    response = superuser_client.post(
        f"/admin/ledger/event/{event.pk}/change/",
        {"type": "Forged", "stream": event.stream, "version": event.version},
    )
    assert response.status_code == 403
    assert Event.objects.get(pk=event.pk).type == "DepositMade"


def test_superuser_cannot_delete_or_add_an_event(superuser_client: Client, event: Event) -> None:
    assert superuser_client.get(f"/admin/ledger/event/{event.pk}/delete/").status_code == 403
    confirmed = superuser_client.post(f"/admin/ledger/event/{event.pk}/delete/", {"post": "yes"})
    assert confirmed.status_code == 403
    assert superuser_client.get("/admin/ledger/event/add/").status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()


def test_balances_are_read_only_too(superuser_client: Client, event: Event) -> None:
    row = AccountBalance.objects.get(account=event.stream.replace("player-", "player:"))
    assert superuser_client.get("/admin/ledger/accountbalance/").status_code == 200
    response = superuser_client.post(f"/admin/ledger/accountbalance/{row.pk}/change/", {"balance": 10**9})
    assert response.status_code == 403
    assert superuser_client.get(f"/admin/ledger/accountbalance/{row.pk}/delete/").status_code == 403
    assert AccountBalance.objects.get(pk=row.pk).balance == 100
