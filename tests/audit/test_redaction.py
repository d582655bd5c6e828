"""DESIGN §2.6 on every audit read path: each response is scanned for the cards (and the seed)
its reader may not see. A player sees his own cards and what was shown; an auditor every card
of a finished deal but never a live deal's hidden cards; the seed never before the deal ends;
sealed declares stay hidden from everyone until revealed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import override_settings
from rest_framework.test import APIClient

from tables import service
from tables.engine.decider import commands as cmd
from tests.audit.conftest import Club, Session, client_for, hole_cards, open_session, stored_seed

ROLES = ("seated", "other_seated", "outsider", "admin", "auditor")


def reader(club: Club, role: str) -> AbstractUser:
    return {
        "seated": club.players[0],
        "other_seated": club.players[1],
        "outsider": club.outsider,
        "admin": club.admin,
        "auditor": club.auditor,
    }[role]


def without_pack(value: Any) -> Any:
    """The body without the pack (public knowledge) and a finished deal's recomputed deck (all 52
    cards, in which any card of another deal also appears), as a list or as an auditor's openings
    of the undealt stock (docs/deck.md §10.5)."""
    if isinstance(value, dict):
        return {
            key: without_pack(item)
            for key, item in value.items()
            if key not in ("pack", "deck")
            and not (key == "openings" and isinstance(item, list) and _stock(item))
        }
    if isinstance(value, list):
        return [without_pack(item) for item in value]
    return value


def _stock(openings: list[Any]) -> bool:
    return any(isinstance(opening, dict) and opening.get("player") is None for opening in openings)


def body_text(response: Any) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    text = content.decode()
    if response["Content-Type"].startswith(("application/json", "application/problem+json")):
        return json.dumps(without_pack(json.loads(text)))
    return text


def leaked(text: str, secrets: Iterable[str]) -> set[str]:
    """Which secret tokens (cards, seeds) appear as whole tokens in `text`."""
    return {secret for secret in secrets if re.search(rf"(?<![0-9A-Za-z]){secret}(?![0-9A-Za-z])", text)}


@pytest.fixture
def played(club: Club, session: Session) -> Session:
    """Deal 1 finished with nobody's cards shown (one player in, uncontested); deal 2 live."""
    first = str(club.players[0].pk)
    session.play(lambda player: "in" if player == first else "out")
    session.start()
    return session


def urls(session: Session, role: str) -> list[str]:
    table = f"/api/v1/tables/{session.table_id}"
    paths = [
        f"{table}/events?limit=500",
        f"{table}/deals/1/replay",
        f"{table}/deals/2/replay",
        f"{table}/deals/1/proof",
        f"{table}/deals/2/proof",
        f"{table}/deals/1/history?format=json",
        f"{table}/deals/1/history?format=text",
        f"{table}/deals/2/history?format=json",
        f"{table}/deals/2/history?format=text",
        f"{table}/history.json",
        f"{table}/history.txt",
        f"{table}/stream",
        table,  # the views, lists and profiles that carry names beside ids: no card rides with them
        f"{table}/deals",
        "/api/v1/tables",
        f"/api/v1/players/{session.players[0]}",
        "/api/v1/me/seats",
        "/api/v1/me/stream",
    ]
    if role in ("admin", "auditor"):
        paths.append("/api/v1/audit/events?limit=500")
    return paths


def forbidden_secrets(club: Club, session: Session, role: str) -> tuple[set[str], set[str]]:
    """(secrets the reader must not see, cards the reader must see)."""
    me = str(reader(club, role).pk)
    first, live = hole_cards(session.table_id, 1), hole_cards(session.table_id, 2)
    seed = stored_seed(session.table_id, 2)  # deck schema 1 only: schema 2 has none
    hidden = {seed} if seed is not None else set()
    visible: set[str] = set()
    for deal, over in ((first, True), (live, False)):
        for player, cards in deal.items():
            if player == me or (role == "auditor" and over):
                visible |= set(cards)
            else:
                hidden |= set(cards)
    return hidden - visible, visible


@override_settings(GUTS_SSE_MAX_DURATION=0.05, GUTS_SSE_POLL=0.01)
@pytest.mark.parametrize("role", ROLES)
def test_no_response_shows_what_its_reader_may_not_see(club: Club, played: Session, role: str) -> None:
    api: APIClient = client_for(reader(club, role))
    hidden, visible = forbidden_secrets(club, played, role)
    seen_anywhere = ""
    for url in urls(played, role):
        response = api.get(url)
        assert response.status_code in (200, 409), (url, response.status_code)
        text = body_text(response)
        assert not leaked(text, hidden), (url, leaked(text, hidden))
        seen_anywhere += text
    assert leaked(seen_anywhere, visible) == visible  # the scan looks where the cards would be


@pytest.mark.parametrize("role", ROLES)
def test_the_live_deals_proof_opens_only_its_readers_own_cards(
    club: Club, played: Session, role: str
) -> None:
    """Deck schema 2: the proof of a live deal is each reader's openings so far (his own cards;
    an auditor's too are only what was shown, nothing yet); the seed recipe's is 409 until the end."""
    response = client_for(reader(club, role)).get(f"/api/v1/tables/{played.table_id}/deals/2/proof")
    assert response.status_code == 200
    proof = response.json()
    assert (proof["finished"], proof["deck"], proof["seed"]) == (False, None, None)
    own = hole_cards(played.table_id, 2).get(str(reader(club, role).pk), [])
    assert {opening["card"] for opening in proof["openings"]} == set(own)


@pytest.mark.parametrize("role", ROLES)
def test_a_live_deal_of_the_seed_recipe_has_a_409_proof(
    club: Club, legacy_session: Session, role: str
) -> None:
    legacy_session.start()
    response = client_for(reader(club, role)).get(f"/api/v1/tables/{legacy_session.table_id}/deals/1/proof")
    assert response.status_code == 409
    assert response.json()["code"] == "deal_not_finished"


def test_sealed_declares_are_hidden_from_everyone_until_revealed(club: Club) -> None:
    session = open_session(club.ids(), declare_mode="simultaneous")
    deal_no = session.start()
    declarer = club.players[0]
    service.table_command(table_id=session.table_id, command=cmd.Declare(str(declarer.pk), deal_no, "in"))
    table = f"/api/v1/tables/{session.table_id}"
    for role in ROLES:
        api = client_for(reader(club, role))
        events = api.get(f"{table}/events", {"type": "Declared"}).json()["results"]
        own = role == "seated"
        assert [event["data"]["choice"] for event in events] == (["in"] if own else [None]), role
        # The chain is served whole; the salt, which would let a hash be brute-forced, is not.
        assert all(len(event["hash"]) == 64 and "salt" not in event["data"] for event in events if not own)
        step = api.get(f"{table}/deals/{deal_no}/replay").json()["steps"][-1]
        choices = {p["player"]: p["declared"] for p in step["state"]["deal"]["players"]}
        assert choices[str(declarer.pk)] == ("in" if own else "sealed"), role
    for player in club.players[1:]:
        service.table_command(table_id=session.table_id, command=cmd.Declare(str(player.pk), deal_no, "out"))
    events = client_for(club.players[1]).get(f"{table}/events", {"type": "Declared"}).json()["results"]
    assert events[0]["data"]["choice"] == "in"  # revealed: the deal is over


def test_hidden_cards_are_served_as_salted_commitments(club: Club, played: Session) -> None:
    """DESIGN §2.6: the chain is served whole; a hidden hand appears only as its commitment."""
    page = client_for(club.outsider).get(f"/api/v1/tables/{played.table_id}/events?limit=500").json()
    dealt = [event for event in page["results"] if event["type"] == "CardsDealt"]
    assert dealt
    for event in dealt:
        assert event["data"]["cards"] is None
        assert "salt" not in event["data"]
        assert event["data"]["secret"] == ["cards"]
        assert len(event["commitments"]["cards"]) == 64
        assert len(event["hash"]) == 64
        assert len(event["prev_hash"]) == 64
    opened = page["results"][0]
    assert opened["type"] == "TableOpened"
    assert len(opened["hash"]) == 64
