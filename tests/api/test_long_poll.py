"""Long-poll of a table (`GET /tables/{id}?wait=N` + If-None-Match, tables.api.long_poll): another
version answers at once, a change during the wait wakes it (200, the new version), none gives 304
when the wait ends; the wait is bounded (400 past 30 s) and costs the API nothing: under the web
server's application it waits on the event loop (the only request thread keeps serving), under
plain WSGI at most GUTS_LONG_POLL_THREADS requests wait at once."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from django.db import connections
from django.test import override_settings

from guts_backend.asgi import Application
from http_edge.tokens import token_issue
from ledger.cashier import cashier_deposit, player_create
from tables import service
from tables.audit.sse import stream_readers_close
from tables.engine.decider import commands as cmd
from tests.api.conftest import client_for


def seated_table() -> tuple[str, Any, Any]:
    """A guts2 table with two players seated: (table id, the first player, the second)."""
    table = service.table_open(variant="guts2", options={"ante": 10}).table_id
    players = []
    for _ in range(2):
        user = player_create(username=f"lp{time.monotonic_ns()}", password="pw-not-used")
        cashier_deposit(player_id=user.pk, amount=1_000)
        service.table_command(table_id=table, command=cmd.SitDown(str(user.pk), 200))
        players.append(user)
    return table, players[0], players[1]


def later(seconds: float, action: Any) -> threading.Thread:
    """Run `action` on a thread of its own after `seconds` (its own connection, closed after)."""

    def run() -> None:
        time.sleep(seconds)
        try:
            action()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.django_db
def test_another_version_answers_at_once_and_bad_waits_are_400() -> None:
    table, ann, _ = seated_table()
    api = client_for(ann)
    url = f"/api/v1/tables/{table}"
    current = api.get(url)
    answer = api.get(f"{url}?wait=30", headers={"If-None-Match": '"1"'})
    assert answer.status_code == 200
    assert answer.json()["version"] == current.json()["version"]
    for bad in ("31", "-1", "x", "1.5", ""):
        refused = api.get(f"{url}?wait={bad}", headers={"If-None-Match": current["ETag"]})
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_query"), bad
    assert api.get(f"{url}?wait=30").status_code == 200  # no If-None-Match: nothing to wait for


@pytest.mark.django_db
def test_an_unchanged_table_answers_304_when_the_wait_ends() -> None:
    table, ann, _ = seated_table()
    api = client_for(ann)
    etag = api.get(f"/api/v1/tables/{table}")["ETag"]
    answer = api.get(f"/api/v1/tables/{table}?wait=1", headers={"If-None-Match": etag})
    assert answer.status_code == 304
    assert answer["ETag"] == etag


@pytest.mark.django_db(transaction=True)
def test_a_change_during_the_wait_wakes_the_long_poll() -> None:
    table, ann, _ = seated_table()
    api = client_for(ann)
    seen = api.get(f"/api/v1/tables/{table}").json()["version"]
    dealing = later(0.3, lambda: service.table_command(table_id=table, command=cmd.StartDeal()))
    answer = api.get(f"/api/v1/tables/{table}?wait=20", headers={"If-None-Match": f'"{seen}"'})
    dealing.join()
    assert answer.status_code == 200
    assert answer.json()["version"] > seen
    assert answer.json()["deal"]["deal_no"] == 1
    assert answer["ETag"] == f'"{answer.json()["version"]}"'


@pytest.mark.django_db(transaction=True)
@override_settings(GUTS_LONG_POLL_THREADS=1)
def test_under_wsgi_only_a_few_threads_wait_the_next_answers_at_once() -> None:
    table, ann, bob = seated_table()
    url = f"/api/v1/tables/{table}"
    etag = client_for(ann).get(url)["ETag"]
    answers: list[int] = []
    waiting = later(
        0,
        lambda: answers.append(
            client_for(ann).get(f"{url}?wait=5", headers={"If-None-Match": etag}).status_code
        ),
    )
    time.sleep(0.5)  # the first one holds the only slot
    second = client_for(bob).get(f"{url}?wait=5", headers={"If-None-Match": etag})
    assert second.status_code == 304
    assert waiting.is_alive()  # answered while the first still waits
    waiting.join()
    assert answers == [304]


# --- under the web server's application (guts_backend.asgi) -------------------------------------


def scope(path: str, query: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "root_path": "",
        "scheme": "http",
        "http_version": "1.1",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [(b"host", b"testserver"), *headers],
    }


async def request(
    app: Application, path: str, query: str = "", headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[str, str], Any]:
    """One request through the application; the client stays until answered."""
    sent: list[dict[str, Any]] = []
    answered = asyncio.Event()
    messages = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body":
            answered.set()

    await app(scope(path, query, headers or []), receive, send)
    start, content = sent
    names = {name.decode(): value.decode() for name, value in start["headers"]}
    return start["status"], names, json.loads(content["body"]) if content["body"] else None


@pytest.fixture
def app() -> Any:
    application = Application(threads=1)  # one request thread: a wait on it would block the API
    yield application
    application.threads.submit(connections.close_all).result()
    application.threads.shutdown()
    stream_readers_close()


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_waiting_long_poll_holds_no_request_thread_and_wakes_on_a_change(
    app: Application,
) -> None:
    table, ann, _ = seated_table()
    auth = (b"authorization", f"Token {token_issue(user=ann).key}".encode())
    path = f"/api/v1/tables/{table}"

    async def scenario() -> tuple[Any, ...]:
        status, headers, body = await request(app, path, headers=[auth])
        assert status == 200
        poll = asyncio.ensure_future(
            request(app, path, "wait=20", [auth, (b"if-none-match", headers["ETag"].encode())])
        )
        await asyncio.sleep(0.3)
        me = await request(app, "/api/v1/me", headers=[auth])  # the only thread is free
        assert not poll.done()
        await asyncio.to_thread(
            lambda: (service.table_command(table_id=table, command=cmd.StartDeal()), connections.close_all())
        )
        return body["version"], me[0], await asyncio.wait_for(poll, 15)

    seen, me_status, (status, headers, body) = asyncio.run(scenario())
    assert me_status == 200
    assert status == 200
    assert body["version"] > seen
    assert headers["ETag"] == f'"{body["version"]}"'


@pytest.mark.django_db(transaction=True)
def test_under_asgi_an_unchanged_table_answers_304_after_the_wait(app: Application) -> None:
    table, ann, _ = seated_table()
    auth = (b"authorization", f"Token {token_issue(user=ann).key}".encode())
    path = f"/api/v1/tables/{table}"

    async def scenario() -> tuple[int, dict[str, str], Any]:
        _, headers, _ = await request(app, path, headers=[auth])
        return await request(app, path, "wait=1", [auth, (b"if-none-match", headers["ETag"].encode())])

    status, headers, body = asyncio.run(scenario())
    assert (status, body) == (304, None)
    assert headers["ETag"]


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_client_that_leaves_ends_its_wait(app: Application) -> None:
    table, ann, _ = seated_table()
    auth = (b"authorization", f"Token {token_issue(user=ann).key}".encode())
    path = f"/api/v1/tables/{table}"

    async def scenario() -> list[dict[str, Any]]:
        _, headers, _ = await request(app, path, headers=[auth])
        messages = [{"type": "http.request", "body": b"", "more_body": False}]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop(0)
            await asyncio.sleep(0.2)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        poll = scope(path, "wait=20", [auth, (b"if-none-match", headers["ETag"].encode())])
        await asyncio.wait_for(app(poll, receive, send), 10)
        return sent

    assert asyncio.run(scenario()) == []  # gone: nothing sent, nothing left waiting


@pytest.mark.django_db(transaction=True)
def test_under_asgi_only_a_caller_who_may_read_the_table_waits(app: Application) -> None:
    """The request runs (authentication included) before any wait: no anonymous waiting, and no
    timing that tells an anonymous caller which version a table is at."""
    table, ann, _ = seated_table()
    auth = (b"authorization", f"Token {token_issue(user=ann).key}".encode())
    path = f"/api/v1/tables/{table}"

    async def scenario() -> tuple[int, Any]:
        _, headers, _ = await request(app, path, headers=[auth])
        etag = (b"if-none-match", headers["ETag"].encode())
        anonymous = asyncio.ensure_future(request(app, path, "wait=20", [etag]))
        forged = asyncio.ensure_future(
            request(app, path, "wait=20", [etag, (b"authorization", b"Token nope")])
        )
        answers = await asyncio.wait_for(asyncio.gather(anonymous, forged), 10)  # not 20 s
        return answers[0][0], answers[1][0]

    assert asyncio.run(scenario()) == (401, 401)
