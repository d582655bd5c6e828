"""The redaction walk over the pages (no browser): for every role, during a live deal and after it,
every card a page draws is a card its API twin serves the same user (DESIGN §2.6). The pages call
the API's selectors; this holds them to it, and to the roles of the API (403 where it is 403)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from ledger.models import Event
from tests.audit.conftest import open_session
from tests.web.conftest import People

CARD = re.compile(r"^(10|[2-9TJQKA])[cdhs]$")
DRAWN = re.compile(r'data-card="([^"]+)"')


def served_cards(value: Any) -> set[str]:
    """Every card string anywhere in an API answer."""
    if isinstance(value, dict):
        return set().union(*(served_cards(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(served_cards(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and CARD.match(value) else set()


def drawn_cards(html: str) -> set[str]:
    return set(DRAWN.findall(html))


def face_down(table_id: str, deal_no: int, player: str) -> set[str]:
    """The player's face-down cards of the deal, read from the log behind the API."""
    rows = Event.objects.filter(stream=f"table-{table_id}", type="CardsDealt").values_list("data", flat=True)
    dealt = [data for data in rows if data["deal_no"] == deal_no and data["player"] == player]
    up = {card for data in dealt if data["face"] == "up" for card in data["cards"]}
    return {card for data in dealt if data["face"] == "down" for card in data["cards"]} - up


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def pages_and_twins(table_id: str, deal_no: int) -> list[tuple[str, str]]:
    return [
        (f"/tables/{table_id}/", f"/api/v1/tables/{table_id}"),
        (f"/tables/{table_id}/panel", f"/api/v1/tables/{table_id}"),
        (f"/audit/tables/{table_id}/", f"/api/v1/tables/{table_id}/deals"),
        (f"/audit/tables/{table_id}/deals/{deal_no}/", f"/api/v1/tables/{table_id}/deals/{deal_no}/replay"),
    ]


def walk(people: People, table_id: str, deal_no: int) -> dict[str, set[str]]:
    """For each role, the cards its pages drew; asserting each is one its API twin serves it."""
    drawn = {}
    for role in ("alice", "bob", "carol", "admin", "auditor"):
        client = client_of(getattr(people, role))
        seen: set[str] = set()
        for page, twin in pages_and_twins(table_id, deal_no):
            html = client.get(page)
            api = client.get(twin, HTTP_ACCEPT="application/json")
            assert html.status_code == 200 == api.status_code, (role, page)
            cards = drawn_cards(html.content.decode())
            assert cards <= served_cards(json.loads(api.content)), (role, page, cards)
            seen |= cards
        drawn[role] = seen
    return drawn


@pytest.mark.parametrize("variant", ["guts2", "four_two_two", "three_five_seven"])
def test_every_page_draws_only_cards_its_api_twin_serves_live_and_after(people: People, variant: str) -> None:
    alice, bob = str(people.alice.pk), str(people.bob.pk)
    session = open_session([people.alice.pk, people.bob.pk], variant=variant)
    deal_no = session.start()
    live = walk(people, session.table_id, deal_no)
    assert face_down(session.table_id, deal_no, alice) <= live["alice"]
    assert face_down(session.table_id, deal_no, bob) <= live["bob"]
    assert face_down(session.table_id, deal_no, bob).isdisjoint(
        live["carol"] | live["admin"] | live["auditor"]
    )

    session.declare_all(lambda player: "out" if player == bob else "in")
    after = walk(people, session.table_id, deal_no)
    assert face_down(session.table_id, deal_no, bob) <= after["auditor"]  # the auditor: every card, after


def test_pages_refuse_what_the_api_refuses(people: People) -> None:
    session = open_session([people.alice.pk, people.bob.pk])
    carol = client_of(people.carol)
    for account in (
        f"player:{people.alice.pk}",
        f"seat:{session.table_id}:{people.bob.pk}",
        f"pot:{session.table_id}",
    ):
        page = carol.get(f"/audit/accounts/{account}/")
        api = carol.get(f"/api/v1/audit/accounts/{account}/statement")
        assert page.status_code == api.status_code == 403
    assert carol.get(f"/audit/accounts/player:{people.carol.pk}/").status_code == 200
    assert client_of(people.auditor).get(f"/audit/accounts/player:{people.alice.pk}/").status_code == 200
    missing = "00000000-0000-4000-8000-000000000000"
    assert carol.get(f"/tables/{missing}/").status_code == 404
    assert carol.get(f"/audit/tables/{session.table_id}/deals/9/").status_code == 404
    assert Client().get("/audit/").status_code == 302  # signed out: to the login page
    assert Client().get(f"/tables/{session.table_id}/panel").status_code == 302


def test_names_follow_get_players_id(people: People) -> None:
    """A player sees his own name and numbers for the others (GET /players/{id} is 403 for him);
    an auditor sees every name."""
    session = open_session([people.alice.pk, people.bob.pk])
    page = f"/tables/{session.table_id}/"
    as_alice = client_of(people.alice).get(page).content.decode()
    assert "Alice (you)" in as_alice
    assert "Bob" not in as_alice
    assert f"Player {people.bob.pk}" in as_alice
    as_auditor = client_of(people.auditor).get(page).content.decode()
    assert "Alice" in as_auditor
    assert "Bob" in as_auditor


def test_session_login_is_throttled_like_the_token_login(people: People, settings: Any) -> None:
    settings.GUTS_LOGIN_FAILURES_PER_USERNAME = 2
    client = Client()
    for _ in range(2):
        answer = client.post("/login/", {"username": people.alice.get_username(), "password": "wrong"})
        assert answer.status_code == 200
        assert "correct username and password" in answer.content.decode()
    answer = client.post("/login/", {"username": people.alice.get_username(), "password": "web-test-pass"})
    assert "Too many failed logins" in answer.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_sealed_declare_stays_sealed_on_the_pages(people: People) -> None:  # SIM: simultaneous declares
    from tables import service
    from tables.engine.decider import commands as cmd

    alice = str(people.alice.pk)
    session = open_session([people.alice.pk, people.bob.pk], declare_mode="simultaneous")
    deal_no = session.start()
    service.table_command(table_id=session.table_id, command=cmd.Declare(alice, deal_no, "in"))
    for viewer, expected in ((people.bob, "sealed"), (people.carol, "sealed"), (people.alice, "in")):
        html = client_of(viewer).get(f"/tables/{session.table_id}/panel").content.decode()
        seat = re.search(rf'data-player="{alice}">(.*?)</li>', html, re.S)
        assert seat is not None
        declared = re.findall(r'class="declared">([^<]*)<', seat.group(1))
        assert declared == [expected], (viewer, declared)


def test_a_statement_line_of_a_deal_links_to_its_replay(people: People) -> None:
    session = open_session([people.alice.pk, people.bob.pk])
    deal_no = session.play(lambda player: "in")
    alice = client_of(people.alice)
    seat = alice.get(f"/audit/accounts/seat:{session.table_id}:{people.alice.pk}/").content.decode()
    assert f'href="/audit/tables/{session.table_id}/deals/{deal_no}/"' in seat  # the ante's line
    bankroll = alice.get(f"/audit/accounts/player:{people.alice.pk}/").content.decode()
    assert f'href="/audit/accounts/seat:{session.table_id}:{people.alice.pk}/"' in bankroll  # the buy-in's
    assert alice.get(f"/audit/tables/{session.table_id}/deals/{deal_no}/").status_code == 200
