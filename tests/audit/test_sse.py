"""SSE per table: ids are positions, Last-Event-ID resumes without loss or duplicates, heartbeats,
token in the query string, and the async generator Django serves under ASGI (uvicorn)."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync
from django.test import AsyncClient, override_settings

from ledger.models import Event
from tables.audit.sse import stream_readers_close
from tests.audit.conftest import Club, Session, client_for, everyone_in, token_of

SHORT = {"GUTS_SSE_MAX_DURATION": 0.1, "GUTS_SSE_POLL": 0.01}


def parse(text: str) -> list[dict[str, Any]]:
    """SSE messages as dicts: {"id", "event", "data"} or {"comment"} or {"retry"}."""
    messages = []
    for block in text.split("\n\n"):
        if not block:
            continue
        message: dict[str, Any] = {}
        for line in block.split("\n"):
            field, _, value = line.partition(": ") if not line.startswith(":") else ("comment", "", line[1:])
            message[field] = json.loads(value) if field == "data" else value.strip()
        messages.append(message)
    return messages


def read_stream(api: Any, url: str, **headers: str) -> list[dict[str, Any]]:
    response = api.get(url, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    return parse(b"".join(response.streaming_content).decode())


def events_of(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [message for message in messages if "id" in message]


def table_positions(session: Session) -> list[int]:
    return list(
        Event.objects.filter(stream=f"table-{session.table_id}")
        .order_by("position")
        .values_list("position", flat=True)
    )


@override_settings(**SHORT)
def test_resuming_from_last_event_id_loses_nothing_and_repeats_nothing(club: Club, session: Session) -> None:
    api = client_for(club.players[0])
    url = f"/api/v1/tables/{session.table_id}/stream"
    received = events_of(read_stream(api, url))
    session.play(everyone_in)
    received += events_of(read_stream(api, url, **{"Last-Event-ID": received[-1]["id"]}))
    session.start()
    received += events_of(read_stream(api, f"{url}?last_event_id={received[-1]['id']}"))
    ids = [int(message["id"]) for message in received]
    assert ids == table_positions(session)
    assert all(int(m["id"]) == m["data"]["position"] and m["event"] == m["data"]["type"] for m in received)


@override_settings(**SHORT)
def test_the_stream_opens_with_a_retry_hint(club: Club, session: Session) -> None:
    messages = read_stream(client_for(club.players[0]), f"/api/v1/tables/{session.table_id}/stream")
    assert messages[0] == {"retry": "2000"}


@override_settings(GUTS_SSE_MAX_DURATION=0.2, GUTS_SSE_POLL=0.01, GUTS_SSE_HEARTBEAT=0.05)
def test_a_quiet_table_gets_heartbeats(club: Club, session: Session) -> None:
    url = f"/api/v1/tables/{session.table_id}/stream?last_event_id={table_positions(session)[-1]}"
    messages = read_stream(client_for(club.players[0]), url)
    assert events_of(messages) == []
    assert {"comment": "heartbeat"} in messages


@override_settings(**SHORT)
def test_eventsource_can_authenticate_with_a_token_in_the_query(
    club: Club, session: Session, client: Any
) -> None:
    url = f"/api/v1/tables/{session.table_id}/stream"
    assert client.get(url).status_code == 401
    assert client.get(f"{url}?token=not-a-token").status_code == 401
    messages = read_stream(client, f"{url}?token={token_of(club.outsider)}")
    assert [m["event"] for m in events_of(messages)][:3] == ["TableOpened", "DeckCommitted", "PlayerSeated"]


def test_bad_last_event_id_and_unknown_table(club: Club, session: Session) -> None:
    api = client_for(club.players[0])
    bad = api.get(f"/api/v1/tables/{session.table_id}/stream", headers={"Last-Event-ID": "x"})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_query")
    unknown = api.get(
        "/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/stream", headers={"Accept": "text/event-stream"}
    )
    assert unknown.status_code == 404
    assert json.loads(unknown.content)["code"] == "unknown_table"


@override_settings(**SHORT)
def test_under_asgi_the_stream_is_an_async_generator(
    transactional_db: None, club: Club, session: Session
) -> None:
    """Transactional: the async stream reads on threads of its own (`StreamReaders`), which see
    only what is committed."""
    session.play(everyone_in)
    url = f"/api/v1/tables/{session.table_id}/stream"
    headers = {"Authorization": f"Token {token_of(club.players[0])}", "Last-Event-ID": "0"}

    async def read() -> tuple[bool, str]:
        response = await AsyncClient().get(url, headers=headers)
        chunks = [chunk async for chunk in response.streaming_content]
        return response.is_async, b"".join(chunks).decode()

    try:
        is_async, text = async_to_sync(read)()
    finally:
        stream_readers_close()
    assert is_async
    assert [int(m["id"]) for m in events_of(parse(text))] == table_positions(session)
