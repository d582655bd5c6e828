"""Where am I, and live views of it: `GET /me/seats` and `/me/tournaments` for a player with two cash
tables and a tournament; the user's stream (`/me/stream`) and a tournament's (`/tournaments/{id}/
stream`) send the views the GET endpoints serve, redacted for each viewer alike (DESIGN §2.6: a
player's own cards, nobody else's, G2-11); one representation only (`?format=json` is 406); stream
tickets per stream. The real server (ASGI) receives them in tests/e2e/test_live_views.py."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from tables.engine.decider.view import legal_actions
from tables.state import load_table
from tests.audit.conftest import Club, Session, client_for, hole_cards, open_session
from tests.audit.test_sse import events_of, parse
from tests.tournaments.conftest import tournament_fields
from tournaments import service as tournaments
from tournaments.state import cache as tournament_cache

SHORT = {"GUTS_SSE_MAX_DURATION": 0.1, "GUTS_SSE_POLL": 0.01}


@pytest.fixture(autouse=True)
def no_tournament_tasks(settings: Any) -> Any:
    """The tests drive the tournament themselves (tournament_tick); no Celery send."""
    settings.GUTS_TOURNAMENT_TASKS = False
    tournament_cache.clear()
    yield
    tournament_cache.clear()


def running_tournament(players: list[int]) -> tuple[str, str]:
    """A tournament of `players` started now, its first deal dealt: (tournament id, its table)."""
    now = timezone.now()
    created = tournaments.tournament_create(
        fields=tournament_fields(
            min_entrants=2,
            payouts=[100],
            start_at=(now + timedelta(hours=1)).isoformat(),
            late_registration_level=0,
            pause_seconds=0,
        )
    )
    tournament = created.tournament_id
    for player in players:
        tournaments.tournament_register(tournament_id=tournament, player_id=player)
    started = tournaments.tournament_start(tournament_id=tournament, now=now)
    tournaments.tournament_tick(tournament_id=tournament, now=now)
    (table,) = started.state.active_tables()
    return tournament, table


@pytest.fixture
def world(club: Club, session: Session) -> dict[str, Any]:
    """Ann at two cash tables (a deal live at the first) and in a running tournament with Dee."""
    ann, dee = club.players[0], club.outsider
    session.start()
    quiet = open_session([ann.pk, club.players[1].pk])
    tournament, table = running_tournament([ann.pk, dee.pk])
    return {"cash": [session.table_id, quiet.table_id], "tournament": tournament, "tournament_table": table}


def test_me_seats_lists_my_tables_with_turns_deadlines_and_the_table_views_legal_actions(
    club: Club, world: dict[str, Any]
) -> None:
    ann = club.players[0]
    api = client_for(ann)
    body = api.get("/api/v1/me/seats").json()
    tables = {entry["table_id"]: entry for entry in body["results"]}
    assert body["count"] == 3
    assert set(tables) == {*world["cash"], world["tournament_table"]}
    for table_id, entry in tables.items():
        view = api.get(f"/api/v1/tables/{table_id}").json()
        mine = next(seat for seat in view["seats"] if seat["player"] == str(ann.pk))
        assert entry["version"] == view["version"]
        assert entry["variant"] == "guts2"
        assert (entry["seat"], entry["stack"]) == (mine["seat"], mine["stack"])
        assert entry["turn"] == view["turn"]
        assert entry["my_turn"] == (str(ann.pk) in view["turn"])
        assert entry["legal_actions"] == view["legal_actions"]  # the same shape and values
        assert (entry["name"], entry["tournament_name"]) == (view["name"], view["tournament_name"])
        assert entry["names"] == {p: view["names"][p] for p in view["turn"]}  # a name for each id
        in_tournament = table_id == world["tournament_table"]
        assert entry["tournament_id"] == (world["tournament"] if in_tournament else None)
        acting = [a for a in entry["legal_actions"] if a.get("deadline")]
        assert entry["my_deadline"] == (min(a["deadline"] for a in acting) if acting else None)
    assert tables[world["cash"][1]]["phase"] == "between_deals"
    assert tables[world["cash"][1]]["my_turn"] is False
    waiting = [entry for entry in body["results"] if entry["my_deadline"]]
    assert body["results"][: len(waiting)] == waiting  # where I must act come first


def test_me_seats_is_empty_for_staff_and_outsiders_and_401_without_credentials(
    club: Club, world: dict[str, Any]
) -> None:
    for user in (club.admin, club.auditor, club.players[2]):
        body = client_for(user).get("/api/v1/me/seats").json()
        expected = 1 if user == club.players[2] else 0  # cy sits at the first cash table only
        assert body["count"] == expected
    assert Client().get("/api/v1/me/seats").status_code == 401


def test_me_tournaments_says_status_table_and_seat(club: Club, world: dict[str, Any]) -> None:
    ann = club.players[0]
    body = client_for(ann).get("/api/v1/me/tournaments").json()
    assert body["count"] == 1
    (entry,) = body["results"]
    seat = next(s for s in load_table(world["tournament_table"]).state.seats if s.player == str(ann.pk))
    assert entry["tournament_id"] == world["tournament"]
    assert (entry["status"], entry["entry"]) == ("running", "playing")
    where = (entry["table_id"], entry["seat"], entry["chips"])
    assert where == (world["tournament_table"], seat.seat, seat.stack)
    assert entry["name"] == "Sunday"
    assert client_for(club.players[1]).get("/api/v1/me/tournaments").json()["count"] == 0


def test_a_registration_before_the_start_is_listed_and_unregistering_removes_it(club: Club) -> None:
    bob = club.players[1]
    created = tournaments.tournament_create(
        fields=tournament_fields(start_at=(timezone.now() + timedelta(hours=2)).isoformat())
    )
    tournaments.tournament_register(tournament_id=created.tournament_id, player_id=bob.pk)
    (entry,) = client_for(bob).get("/api/v1/me/tournaments").json()["results"]
    assert (entry["status"], entry["entry"], entry["table_id"], entry["seat"]) == (
        "registering",
        "registered",
        None,
        None,
    )
    tournaments.tournament_unregister(tournament_id=created.tournament_id, player_id=bob.pk)
    assert client_for(bob).get("/api/v1/me/tournaments").json()["count"] == 0


# --- the streams ------------------------------------------------------------------------------------


def read(api: Any, url: str) -> list[dict[str, Any]]:
    response = api.get(url)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    return events_of(parse(b"".join(response.streaming_content).decode()))


def cards_leaked(text: str, cards: set[str]) -> set[str]:
    return {card for card in cards if f'"{card}"' in text}


@override_settings(**SHORT)
def test_my_stream_sends_my_seats_my_tables_and_my_tournaments_as_the_gets_do(
    club: Club, world: dict[str, Any]
) -> None:
    ann = club.players[0]
    api = client_for(ann)
    messages = read(api, "/api/v1/me/stream")
    kinds = [m["event"] for m in messages]
    assert kinds[0] == "seats"
    assert kinds.count("table") == 3
    assert "tournaments" in kinds
    first = {m["event"]: m["data"] for m in messages if m["event"] != "table"}
    seats = api.get("/api/v1/me/seats").json()
    assert first["seats"] == seats
    assert first["tournaments"] == api.get("/api/v1/me/tournaments").json()
    for message in (m for m in messages if m["event"] == "table"):
        assert message["data"] == api.get(f"/api/v1/tables/{message['data']['table_id']}").json()
        assert int(message["id"]) >= message["data"]["version"]  # a log position, never behind


@override_settings(**SHORT)
def test_each_viewer_of_my_stream_and_a_tournaments_stream_sees_only_his_own_cards(
    club: Club, world: dict[str, Any]
) -> None:  # DESIGN §2.6, G2-11
    ann, dee = club.players[0], club.outsider
    dealt = hole_cards(world["tournament_table"], 1)
    assert set(dealt) == {str(ann.pk), str(dee.pk)}
    hands = {world["tournament_table"]: dealt, world["cash"][0]: hole_cards(world["cash"][0], 1)}
    for viewer in (ann, dee, club.players[1], club.admin, club.auditor):
        api = client_for(viewer)
        me = str(viewer.pk)
        own = {c for table in hands.values() for c in table.get(me, [])}
        for url in ("/api/v1/me/stream", f"/api/v1/tournaments/{world['tournament']}/stream"):
            for message in read(api, url):
                # A table's view: the others' cards at that table; any other view: anyone's but
                # the viewer's own (two decks: one card may be his at one table, hers at another).
                table = message["data"].get("table_id") if message["event"] == "table" else None
                deals = [hands[table]] if table in hands else [] if table else list(hands.values())
                hidden = {c for deal in deals for p, cs in deal.items() if p != me for c in cs}
                hidden -= set() if table else own
                leaked = cards_leaked(json.dumps(message["data"]), hidden)
                assert not leaked, (viewer.username, url, message["event"], leaked)
        tournament = read(api, f"/api/v1/tournaments/{world['tournament']}/stream")
        assert [m["event"] for m in tournament] == ["tournament", "table"]
        assert tournament[0]["data"]["tournament_id"] == world["tournament"]
        assert tournament[1]["data"] == api.get(f"/api/v1/tables/{world['tournament_table']}").json()
        if str(viewer.pk) in dealt:  # the scan looks where the cards are: his own are there
            assert cards_leaked(json.dumps(tournament[1]["data"]), set(dealt[str(viewer.pk)]))


@override_settings(**SHORT)
def test_a_view_is_sent_again_only_when_it_changed(club: Club, world: dict[str, Any]) -> None:
    """The WSGI generator re-reads every poll: unchanged views are not repeated."""
    messages = read(client_for(club.players[0]), "/api/v1/me/stream")
    keys = [(m["event"], m["data"].get("table_id")) for m in messages]
    assert len(keys) == len(set(keys))


def test_streams_have_one_representation_json_is_406(club: Club, world: dict[str, Any]) -> None:
    api = client_for(club.players[0])
    for url in (
        f"/api/v1/tables/{world['cash'][0]}/stream",
        f"/api/v1/tournaments/{world['tournament']}/stream",
        "/api/v1/me/stream",
    ):
        for query, headers in (("?format=json", {}), ("", {"Accept": "application/json"})):
            response = api.get(url + query, headers=headers)
            assert response.status_code == 406, (url, query, response.status_code)
            assert not response.streaming
            assert json.loads(response.content)["code"] == "not_acceptable"


def test_an_unknown_tournaments_stream_is_404_and_anonymous_streams_401(club: Club) -> None:
    response = client_for(club.players[0]).get(
        "/api/v1/tournaments/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/stream"
    )
    assert (response.status_code, json.loads(response.content)["code"]) == (404, "unknown_tournament")
    assert Client().get("/api/v1/me/stream").status_code == 401


@override_settings(**SHORT)
def test_stream_tickets_open_their_own_stream_only(club: Club, world: dict[str, Any]) -> None:
    ann = club.players[0]
    api = client_for(ann)
    mine = api.post("/api/v1/me/stream-tickets")
    assert mine.status_code == 201, mine.content
    ticket = mine.json()["ticket"]
    assert mine.json()["stream_url"] == f"/api/v1/me/stream?ticket={ticket}"
    seats = [m for m in read(Client(), mine.json()["stream_url"]) if m["event"] == "seats"]
    assert seats[0]["data"]["count"] == 3  # the stream is ann's
    tournament = f"/api/v1/tournaments/{world['tournament']}"
    theirs = api.post(f"{tournament}/stream-tickets").json()
    assert read(Client(), theirs["stream_url"])[0]["event"] == "tournament"
    table_ticket = api.post(f"/api/v1/tables/{world['cash'][0]}/stream-tickets").json()["ticket"]
    for url in (
        f"{tournament}/stream?ticket={ticket}",  # my stream's ticket
        f"/api/v1/me/stream?ticket={theirs['ticket']}",  # the tournament's
        f"/api/v1/me/stream?ticket={table_ticket}",  # a table's
        f"/api/v1/tables/{world['cash'][0]}/stream?ticket={ticket}",
    ):
        answer = Client().get(url)
        assert answer.status_code == 401, url
        assert json.loads(answer.content)["code"] == "authentication_failed"


def test_legal_actions_of_me_seats_are_the_engines(club: Club, world: dict[str, Any]) -> None:
    """The entry's actions are the engine's `legal_actions` for the player, nothing re-derived."""
    ann = club.players[0]
    entries = client_for(ann).get("/api/v1/me/seats").json()["results"]
    live = next(e for e in entries if e["table_id"] == world["cash"][0])
    expected = legal_actions(load_table(world["cash"][0]).state, str(ann.pk), timezone.now())
    assert [a["action"] for a in live["legal_actions"]] == [a["action"] for a in expected]


def test_the_schema_declares_the_streams_as_event_streams_with_no_json_twin() -> None:
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path in (
        "/api/v1/tables/{table_id}/stream",
        "/api/v1/tournaments/{tournament_id}/stream",
        "/api/v1/me/stream",
    ):
        operation = paths[path]["get"]
        assert list(operation["responses"]["200"]["content"]) == ["text/event-stream"], path
        assert "format" not in {p["name"] for p in operation.get("parameters", [])}, path
    me = paths["/api/v1/me/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert me["properties"]["event"]["enum"] == ["seats", "table", "tournaments"]
    seats = paths["/api/v1/me/seats"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert seats["$ref"].endswith("/MySeats")


# --- under ASGI: woken by notifications, following the tables the user is moved to ----------------

LIVE = {
    "GUTS_SSE_SAFETY_POLL": 30.0,
    "GUTS_SSE_POLL": 30.0,
    "GUTS_SSE_HEARTBEAT": 30.0,
    "GUTS_SSE_MAX_DURATION": 30.0,
}


async def next_views(content: Any, want: Any, timeout: float) -> list[tuple[str, Any]]:
    """Read messages until `want(event, data)` holds for one; every (event, data) read."""
    import asyncio
    import time

    seen: list[tuple[str, Any]] = []
    deadline = time.monotonic() + timeout
    while not any(want(event, data) for event, data in seen):
        chunk = await asyncio.wait_for(content.__anext__(), deadline - time.monotonic())
        seen += [(m["event"], m["data"]) for m in events_of(parse(chunk.decode()))]
    return seen


@pytest.mark.postgres
@override_settings(**LIVE)
def test_my_stream_follows_me_to_a_tournament_table_by_notification(
    transactional_db: None, club: Club
) -> None:
    """Registered before the start, Ann's open stream gets her tournament seat when it starts (the
    tournament's stream is watched), then the new table's changes (watched from then on), each by
    notification: the safety poll is 30 s."""
    from asgiref.sync import async_to_sync, sync_to_async
    from django.test import AsyncClient

    from tables.audit.sse import stream_readers_close
    from tests.audit.conftest import token_of

    ann, dee = club.players[0], club.outsider
    now = timezone.now()
    created = tournaments.tournament_create(
        fields=tournament_fields(
            min_entrants=2, payouts=[100], start_at=(now + timedelta(hours=1)).isoformat()
        )
    )
    tournament = created.tournament_id
    for player in (ann, dee):
        tournaments.tournament_register(tournament_id=tournament, player_id=player.pk)
    headers = {"Authorization": f"Token {token_of(ann)}"}

    def start() -> str:
        started = tournaments.tournament_start(tournament_id=tournament, now=timezone.now())
        return started.state.active_tables()[0]

    def seated_at(table: str) -> Any:
        return lambda event, data: event == "seats" and [s["table_id"] for s in data["results"]] == [table]

    async def scenario() -> tuple[list[Any], list[Any]]:
        response = await AsyncClient().get("/api/v1/me/stream", headers=headers)
        assert response.is_async
        content = response.streaming_content
        opening = await next_views(content, lambda event, data: event == "tournaments", 10)
        assert ("seats", {"count": 0, "results": []}) in opening
        table = await sync_to_async(start)()
        moved = await next_views(content, seated_at(table), 10)
        moved += await next_views(
            content, lambda event, data: event == "table" and data["table_id"] == table, 10
        )
        before = max(
            data["version"] for event, data in moved if event == "table" and data["table_id"] == table
        )
        tick = sync_to_async(tournaments.tournament_tick)
        await tick(tournament_id=tournament, now=timezone.now())  # deals at the new table
        later = await next_views(
            content, lambda event, data: event == "table" and data["version"] > before, 10
        )
        return moved, later

    try:
        moved, later = async_to_sync(scenario)()
    finally:
        stream_readers_close()
    entries = [data for event, data in moved + later if event == "tournaments"]
    assert entries[-1]["results"][0]["entry"] == "playing"
    dealt = [data for event, data in later if event == "table" and data["deal"] is not None]
    assert dealt[-1]["deal"]["players"]  # the deal at her new table, as her GET shows it
