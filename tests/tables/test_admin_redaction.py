"""The Django admin is a read path too (DESIGN §2.6): the event log shows a live deal's hidden
cards and committed decks to nobody, and a finished deal in full, as the audit feed shows it to an
auditor."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.models import Event
from tables import service
from tables.engine.decider import commands as cmd

pytestmark = pytest.mark.django_db


def quoted(card: str) -> str:
    """A card as a JSON string in the admin's HTML (two letters alone also occur in ordinary text)."""
    return f"&quot;{card}&quot;"


def admin_page(client: Client, event: Event) -> str:
    response = client.get(f"/admin/ledger/event/{event.pk}/change/")
    assert response.status_code == 200
    return response.content.decode()


def test_admin_event_pages_never_show_a_live_deals_secrets(funded_player: Any) -> None:
    superuser = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-123")
    client = Client()
    client.force_login(superuser)
    players = [funded_player(1000) for _ in range(3)]
    table = service.table_open(variant="guts2", options={"ante": 5}).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    live = service.table_command(table_id=table, command=cmd.StartDeal()).state.live
    stream = Event.objects.filter(stream=f"table-{table}")
    dealt = stream.filter(type="CardsDealt").first()
    committed = list(stream.filter(type="DeckCommitted").order_by("version"))
    cards = dealt.data["cards"]
    assert not any(quoted(card) in admin_page(client, dealt) for card in cards)
    assert not any(salt in admin_page(client, deck) for deck in committed for salt in deck.data["salts"])

    for player in live.order[:-1]:  # the dealer is forced in (G2-10)
        service.table_command(table_id=table, command=cmd.Declare(player, 1, "out"))
    assert all(quoted(card) in admin_page(client, dealt) for card in cards)  # the deal is over
    # a committed deck is opened card by card by the proof, never shown whole (docs/deck.md §10)
    assert not any(salt in admin_page(client, deck) for deck in committed for salt in deck.data["salts"])


def test_admin_event_list_searches_by_stream_type_and_position(funded_player: Any) -> None:
    superuser = get_user_model().objects.create_superuser("root2", "root2@example.com", "pw-root-123")
    client = Client()
    client.force_login(superuser)
    funded_player(100)
    event = Event.objects.order_by("-position").first()
    for term in (event.stream, event.type, str(event.position), "not-a-number"):
        response = client.get("/admin/ledger/event/", {"q": term})
        assert response.status_code == 200, term
    assert (
        f"/admin/ledger/event/{event.pk}/change/"
        in client.get("/admin/ledger/event/", {"q": str(event.position)}).content.decode()
    )
