"""The web server's application (guts_backend.asgi): an API request runs Django's WSGI handler
on a pool thread in one hop and answers exactly as Django does (status, headers as Django spells
them, cookies, body); a header spelt with underscores never passes for one with dashes."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import pytest
from django.db import connections

from guts_backend.asgi import STREAM_PATH, Application, wsgi_environ

pytestmark = pytest.mark.django_db(transaction=True)


def call(
    app: Application,
    method: str,
    path: str,
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[str, str], Any]:
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "http_version": "1.1",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *(headers or []),
        ],
    }
    chunks = [
        {"type": "http.request", "body": body[:3], "more_body": True},
        {"type": "http.request", "body": body[3:], "more_body": False},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return chunks.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    start, content = sent
    names = {name.decode(): value.decode() for name, value in start["headers"]}
    return start["status"], names, json.loads(content["body"]) if content["body"] else None


@pytest.fixture
def app() -> Application:
    application = Application(threads=2)
    yield application
    application.threads.submit(connections.close_all).result()  # the pool thread's connection
    application.threads.shutdown()


def test_an_api_request_answers_as_django_does(app: Application) -> None:
    status, headers, body = call(app, "GET", "/api/v1/me")
    assert status == 401
    assert headers["Content-Type"] == "application/problem+json"  # Django's spelling, kept
    assert body["code"] == "not_authenticated"


def test_a_body_sent_in_parts_reaches_the_view(app: Application) -> None:
    credentials = json.dumps({"username": "nobody", "password": "wrong"}).encode()
    status, _, body = call(app, "POST", "/api/v1/auth/token", credentials)
    assert (status, body["code"]) == (400, "invalid_credentials")


def test_headers_with_underscores_are_dropped() -> None:
    environ = wsgi_environ(
        {
            "method": "GET",
            "path": "/x",
            "headers": [
                (b"x-forwarded-for", b"1.2.3.4"),
                (b"x_forwarded_for", b"6.6.6.6"),
                (b"accept", b"a"),
                (b"accept", b"b"),
            ],
        },
        io.BytesIO(),
    )
    assert environ["HTTP_X_FORWARDED_FOR"] == "1.2.3.4"
    assert environ["HTTP_ACCEPT"] == "a,b"


def test_only_the_table_streams_take_the_asgi_path() -> None:
    assert STREAM_PATH.match("/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/stream")
    assert not STREAM_PATH.match("/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/stream-tickets")
    assert not STREAM_PATH.match("/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10")
