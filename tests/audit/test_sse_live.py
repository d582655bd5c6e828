"""Live streams on PostgreSQL: appends notify after they commit (ledger.notify), the process's
listener wakes exactly the streams concerned and survives losing its connection, an open async
stream gets a new event at once (not at the safety poll); stream tickets open one table's stream
as their user for a minute; access logs lose query strings. The real server: tests/e2e."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import psycopg
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection, transaction
from django.test import AsyncClient, Client, override_settings
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from guts_backend.access_log import QueryStringFilter
from ledger.notify import APPLICATION_NAME, CHANNEL, listener_params, subscription
from tables import service
from tables.audit.sse import stream_readers_close
from tables.engine.decider import commands as cmd
from tests.audit.conftest import Club, Session, client_for, open_session, token_of
from tests.audit.test_sse import events_of, parse, table_positions

# Polls 30 s apart (with or without notifications): only a notification brings an event sooner.
LIVE = {
    "GUTS_SSE_SAFETY_POLL": 30.0,
    "GUTS_SSE_POLL": 30.0,
    "GUTS_SSE_HEARTBEAT": 30.0,
    "GUTS_SSE_MAX_DURATION": 30.0,
}


@pytest.fixture(autouse=True)
def readers_closed() -> Iterator[None]:
    """Async streams read on threads of their own; close them (and their connections) after."""
    yield
    stream_readers_close()


# --- NOTIFY on commit -----------------------------------------------------------------------------


@pytest.mark.postgres
def test_a_committed_append_notifies_its_streams_and_a_rolled_back_one_never(
    transactional_db: None, club: Club
) -> None:
    with psycopg.connect(**listener_params(), autocommit=True) as listening:
        listening.execute(f"LISTEN {CHANNEL}")
        session = open_session(club.ids()[:2])
        list(listening.notifies(timeout=0.5))  # the table's opening appends

        with transaction.atomic():
            service.table_command(
                table_id=session.table_id, command=cmd.SitDown(str(club.players[2].pk), 500)
            )
            assert list(listening.notifies(timeout=0.3)) == []  # nothing before the commit
        sent = list(listening.notifies(timeout=1.0))
        assert len(sent) == 1  # one per commit, after it
        assert f"table-{session.table_id}" in sent[0].payload.split(",")

        with pytest.raises(RuntimeError):
            sit_down_and_roll_back(session.table_id, club.outsider.pk)
        assert list(listening.notifies(timeout=0.5)) == []


def sit_down_and_roll_back(table_id: str, player_id: int) -> None:
    with transaction.atomic():
        service.table_command(table_id=table_id, command=cmd.SitDown(str(player_id), 500))
        raise RuntimeError("roll it back")


# --- the listener ---------------------------------------------------------------------------------


def notify_now(payload: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])


def terminate_listener() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [APPLICATION_NAME],
        )
        return cursor.fetchone()[0]


@pytest.mark.postgres
def test_the_listener_wakes_only_the_named_streams_and_reconnects_after_losing_its_connection(
    transactional_db: None,
) -> None:
    async def scenario() -> None:
        async with subscription(["table-a"]) as a, subscription(["table-b"]) as b:
            await a.wait(0.5)  # (re)connecting wakes everyone: nothing was missed
            await b.wait(0.5)
            await sync_to_async(notify_now)("table-a,player-7")
            assert await a.wait(2.0)
            assert not await b.wait(0.3)
            await sync_to_async(notify_now)("")  # too many streams to name: everyone
            assert await a.wait(2.0)
            assert await b.wait(2.0)

            assert await sync_to_async(terminate_listener)() == 1
            assert await a.wait(10.0)  # woken when the listener is back
            await sync_to_async(notify_now)("table-a")
            assert await a.wait(2.0)

    async_to_sync(scenario)()


# --- an open async stream -------------------------------------------------------------------------


async def next_ids(content: AsyncIterator[bytes], want: int, timeout: float) -> list[int]:
    """Read messages until event `want` arrived; the ids read."""
    ids: list[int] = []
    deadline = time.monotonic() + timeout
    while want not in ids:
        chunk = await asyncio.wait_for(content.__anext__(), deadline - time.monotonic())
        ids += [int(message["id"]) for message in events_of(parse(chunk.decode()))]
    return ids


@pytest.mark.postgres
@override_settings(**LIVE)
def test_an_open_stream_gets_a_committed_event_at_once_by_notification(
    transactional_db: None, club: Club, session: Session
) -> None:
    url = f"/api/v1/tables/{session.table_id}/stream"
    headers = {"Authorization": f"Token {token_of(club.players[0])}"}
    last = table_positions(session)[-1]

    async def read() -> float:
        response = await AsyncClient().get(url, headers=headers)
        assert response.is_async
        content = response.streaming_content
        await next_ids(content, last, 10.0)
        started = time.monotonic()
        await sync_to_async(service.table_command)(table_id=session.table_id, command=cmd.StartDeal())
        dealt = (await sync_to_async(table_positions)(session))[-1]
        await next_ids(content, dealt, 10.0)
        return time.monotonic() - started

    assert async_to_sync(read)() < 2.0  # the safety poll is 30 s


# --- stream tickets -------------------------------------------------------------------------------


def ticket_for(user: Any, table_id: str) -> dict[str, Any]:
    answer = client_for(user).post(f"/api/v1/tables/{table_id}/stream-tickets")
    assert answer.status_code == 201, answer.content
    return answer.json()


def read_with_ticket(url: str) -> list[dict[str, Any]]:
    response = Client().get(url)
    assert response.status_code == 200, response.content
    return parse(b"".join(response.streaming_content).decode())


@override_settings(GUTS_SSE_MAX_DURATION=0.1, GUTS_SSE_POLL=0.01)
def test_a_ticket_opens_its_tables_stream_as_its_user(club: Club, session: Session) -> None:
    session.start()
    ann, bob = club.players[0], club.players[1]
    ticket = ticket_for(ann, session.table_id)
    assert ticket["table_id"] == session.table_id
    expires = datetime.fromisoformat(ticket["expires_at"])
    assert timedelta(seconds=55) < expires - timezone.now() <= timedelta(seconds=60)
    assert ticket["stream_url"] == f"/api/v1/tables/{session.table_id}/stream?ticket={ticket['ticket']}"

    dealt = {
        m["data"]["data"]["player"]: m["data"]["data"]["cards"]
        for m in events_of(read_with_ticket(ticket["stream_url"]))
        if m["event"] == "CardsDealt"
    }
    assert dealt[str(ann.pk)] is not None  # her own cards: the stream is hers
    assert dealt[str(bob.pk)] is None
    assert read_with_ticket(ticket["stream_url"])  # reusable within its minute


def test_a_ticket_is_refused_for_another_table_when_expired_forged_or_for_an_inactive_user(
    club: Club, session: Session
) -> None:
    other = open_session(club.ids()).table_id
    ann = club.players[0]
    with mock.patch("time.time", return_value=time.time() - 61):
        expired = ticket_for(ann, session.table_id)["ticket"]
    fresh = ticket_for(ann, session.table_id)["ticket"]
    stream = f"/api/v1/tables/{session.table_id}/stream"
    refused = {
        "another table": f"/api/v1/tables/{other}/stream?ticket={fresh}",
        "expired": f"{stream}?ticket={expired}",
        "forged": f"{stream}?ticket={fresh[:-2]}xx",
        "garbage": f"{stream}?ticket=abc",
    }
    for why, url in refused.items():
        answer = Client().get(url)
        assert (answer.status_code, json.loads(answer.content)["code"]) == (401, "authentication_failed"), why
    ann.is_active = False
    ann.save()
    inactive = Client().get(f"{stream}?ticket={fresh}")
    assert inactive.status_code == 401


def test_a_ticket_needs_a_signed_in_caller_and_a_known_table(club: Club, session: Session) -> None:
    assert Client().post(f"/api/v1/tables/{session.table_id}/stream-tickets").status_code == 401
    unknown = client_for(club.players[0]).post(
        "/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/stream-tickets"
    )
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_table")


def test_the_schema_documents_tickets_and_deprecates_the_token_in_the_url() -> None:
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    stream = paths["/api/v1/tables/{table_id}/stream"]["get"]
    parameters = {p["name"]: p for p in stream["parameters"]}
    assert "ticket" in parameters
    assert parameters["token"]["deprecated"] is True
    assert {"streamTicketAuth": []} in stream["security"]
    message = stream["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert set(message["properties"]) == {"id", "event", "data", "retry"}  # one SSE message
    created = paths["/api/v1/tables/{table_id}/stream-tickets"]["post"]
    assert created["operationId"] == "tables_stream_tickets_create"
    assert "201" in created["responses"]


# --- access logs ----------------------------------------------------------------------------------


def test_access_log_records_lose_their_query_string() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/api/v1/tables/x/stream?ticket=s3cret&a=1", "1.1", 200),
        None,
    )
    assert QueryStringFilter().filter(record)
    assert record.getMessage() == '127.0.0.1:5000 - "GET /api/v1/tables/x/stream HTTP/1.1" 200'
