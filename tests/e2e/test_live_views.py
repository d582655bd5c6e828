"""The live views against the web service exactly as docker-compose.yml runs it (gunicorn, uvicorn
workers, ASGI) on PostgreSQL: a tournament's stream and a player's own stream ("my tables") are
received by EventSource-like clients, each redacted for its viewer (DESIGN §2.6: own cards only,
G2-11), and a committed change reaches them by notification (the safety poll is 30 s here);
long-polls of a table (`?wait=` + If-None-Match) wake on a change, answer 304 when the wait ends,
and many of them waiting at once (more than the server's request threads) hold no thread and no
database connection each: the API stays fast.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from tables import service
from tables.engine.decider import commands as cmd
from tables.state import load_table
from tests.audit.conftest import hole_cards
from tests.e2e.helpers import players, wait_until
from tests.e2e.servers import WebServer, stream_web
from tests.e2e.test_streams_under_load import call, database_sessions, login, seconds_to_get
from tests.tournaments.conftest import tournament_fields
from tournaments import service as tournaments

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

LIFETIME = 40.0
SAFETY_POLL = 30.0
PROMPT = 5.0  # a committed change reaches the open streams within this (s); the safety poll is 30 s
LONG_POLLS = 30  # more than the server's request threads (3 workers x 6)
P99_BOUND = 0.100


class ViewStream(threading.Thread):
    """An SSE client on a thread of its own: every message as (event, data), in order."""

    def __init__(self, server: WebServer, path: str) -> None:
        super().__init__(daemon=True)
        self.server, self.path = server, path
        self.status: int | None = None
        self.messages: list[tuple[str, Any]] = []
        self.error: Exception | None = None

    def run(self) -> None:
        client = http.client.HTTPConnection(self.server.host, self.server.port, timeout=LIFETIME + 30)
        try:
            client.request("GET", self.path, headers={"Accept": "text/event-stream"})
            response = client.getresponse()
            self.status = response.status
            event = None
            while line := response.readline():
                if line.startswith(b"event: "):
                    event = line[7:].strip().decode()
                elif line.startswith(b"data: "):
                    self.messages.append((event or "", json.loads(line[6:])))
        except (OSError, http.client.HTTPException) as error:
            self.error = error
        finally:
            client.close()

    def views(self, event: str) -> list[Any]:
        return [data for kind, data in list(self.messages) if kind == event]


@pytest.fixture
def web(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[WebServer]:
    settings.GUTS_TOURNAMENT_TASKS = False  # this test drives the tournament (tournament_tick)
    with stream_web(tmp_path, lifetime=LIFETIME, heartbeat=5, safety_poll=SAFETY_POLL) as server:
        yield server


def running_tournament(entrants: list[int]) -> tuple[str, str]:
    """A tournament of two started now with its first deal dealt: (tournament, its table)."""
    now = timezone.now()
    created = tournaments.tournament_create(
        fields=tournament_fields(
            min_entrants=2, payouts=[100], start_at=(now + timedelta(hours=1)).isoformat(), pause_seconds=0
        )
    )
    for player in entrants:
        tournaments.tournament_register(tournament_id=created.tournament_id, player_id=player)
    started = tournaments.tournament_start(tournament_id=created.tournament_id, now=now)
    tournaments.tournament_tick(tournament_id=created.tournament_id, now=now)
    (table,) = started.state.active_tables()
    return created.tournament_id, table


def shown_cards(views: list[Any]) -> set[str]:
    return {card for view in views for text in [json.dumps(view)] for card in _cards_in(text)}


def _cards_in(text: str) -> set[str]:
    ranks, suits = "23456789TJQKA", "cdhs"
    return {f"{r}{s}" for r in ranks for s in suits if f'"{r}{s}"' in text} | {
        f"10{s}" for s in suits if f'"10{s}"' in text
    }


def test_the_tournament_and_my_stream_are_live_and_redacted_per_viewer(web: WebServer) -> None:
    ann, dee, bob = players(3)
    tournament, table = running_tournament([ann, dee])
    tokens = {player: login(web, player) for player in (ann, dee, bob)}
    dealt = hole_cards(table, load_table(table).state.deal_no)
    assert set(dealt) == {str(ann), str(dee)}

    def ticket(player: int, path: str) -> str:
        return call(web, "POST", path, token=tokens[player])["stream_url"]

    streams = {
        "ann-me": ViewStream(web, ticket(ann, "/api/v1/me/stream-tickets")),
        "dee-tournament": ViewStream(web, ticket(dee, f"/api/v1/tournaments/{tournament}/stream-tickets")),
        "bob-tournament": ViewStream(web, f"/api/v1/tournaments/{tournament}/stream?token={tokens[bob]}"),
    }
    for stream in streams.values():
        stream.start()
    assert wait_until(lambda: all(s.views("table") for s in streams.values()), 30), [
        (s.status, s.error, s.messages[:1]) for s in streams.values()
    ]

    # Each viewer sees his own cards and nobody else's, as GET /tables/{id} shows him.
    own = {"ann-me": str(ann), "dee-tournament": str(dee), "bob-tournament": None}
    for name, stream in streams.items():
        seen = shown_cards([data for _, data in stream.messages])
        mine = set(dealt.get(own[name] or "", []))
        others = {c for p, cs in dealt.items() if p != own[name] for c in cs} - mine
        assert mine <= seen, name
        assert not seen & others, (name, seen & others)
        view = stream.views("table")[-1]
        assert view == call(web, "GET", f"/api/v1/tables/{table}", token=tokens[int(own[name] or bob)])
    ann_seats = streams["ann-me"].views("seats")[-1]["results"]
    assert [(s["table_id"], s["tournament_id"]) for s in ann_seats] == [(table, tournament)]
    (entry,) = streams["ann-me"].views("tournaments")[-1]["results"]
    assert (entry["tournament_id"], entry["entry"], entry["table_id"]) == (tournament, "playing", table)
    assert streams["dee-tournament"].views("tournament")[-1]["tournament_id"] == tournament

    # A declare reaches every stream at once (by notification: the safety poll is 30 s).
    version = streams["ann-me"].views("table")[-1]["version"]
    state = load_table(table).state
    deal = state.live
    assert deal is not None
    first = deal.awaiting[0]
    service.table_command(table_id=table, command=cmd.Declare(first, deal.deal_no, "out"))
    committed = time.monotonic()
    assert wait_until(
        lambda: all(s.views("table")[-1]["version"] > version for s in streams.values()), PROMPT + 1
    ), "not delivered"
    print(f"a declare reached the 3 streams within {(time.monotonic() - committed) * 1000:.0f} ms")
    (seat,) = streams["ann-me"].views("seats")[-1]["results"]
    assert seat["turn"] == streams["ann-me"].views("table")[-1]["turn"]
    for name, stream in streams.items():
        seen = shown_cards([data for _, data in stream.messages])
        hidden = {c for p, cs in dealt.items() if p != own[name] for c in cs} - set(
            dealt.get(own[name] or "", [])
        )
        assert not seen & hidden, name


def long_poll(web: WebServer, path: str, token: str, etag: str, wait: int) -> tuple[int, dict[str, str], Any]:
    client = http.client.HTTPConnection(web.host, web.port, timeout=wait + 30)
    try:
        client.request(
            "GET", f"{path}?wait={wait}", headers={"Authorization": f"Token {token}", "If-None-Match": etag}
        )
        response = client.getresponse()
        body = response.read()
        return response.status, dict(response.getheaders()), json.loads(body) if body else None
    finally:
        client.close()


class LongPoll(threading.Thread):
    def __init__(self, web: WebServer, path: str, token: str, etag: str, wait: int) -> None:
        super().__init__(daemon=True)
        self.args = (web, path, token, etag, wait)
        self.answer: tuple[int, dict[str, str], Any] | None = None
        self.error: Exception | None = None

    def run(self) -> None:
        try:
            self.answer = long_poll(*self.args)
        except (OSError, http.client.HTTPException) as error:
            self.error = error


def test_long_polls_wake_on_a_change_and_many_waiting_leave_the_api_fast(web: WebServer) -> None:
    ann, bob = players(2)
    table = service.table_open(variant="guts2", options={"ante": 10}).table_id
    for player in (ann, bob):
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    token = login(web, ann)
    path = f"/api/v1/tables/{table}"
    current = call(web, "GET", path, token=token)
    etag = f'"{current["version"]}"'

    status, headers, body = long_poll(web, path, token, etag, wait=1)  # nothing changes: 304
    assert (status, headers["ETag"], body) == (304, etag, None)
    status, _, body = long_poll(web, path, token, '"1"', wait=20)  # another version: at once
    assert (status, body["version"]) == (200, current["version"])

    waiting = [LongPoll(web, path, token, etag, wait=25) for _ in range(LONG_POLLS)]
    for poll in waiting:
        poll.start()
    time.sleep(2)  # all of them connected and waiting
    assert not [poll for poll in waiting if poll.answer is not None or poll.error is not None]

    # More long-polls wait than the server has request threads, and the API answers at once; they
    # hold no database connection each.
    me = f"{web.base_url}/api/v1/me"
    for _ in range(10):
        seconds_to_get(me, token)
    latencies = sorted(seconds_to_get(me, token) for _ in range(100))
    print(
        f"GET /me with {LONG_POLLS} long-polls waiting: p50 {latencies[49] * 1000:.1f} ms, "
        f"p99 {latencies[98] * 1000:.1f} ms"
    )
    assert latencies[98] < P99_BOUND, [round(s * 1000) for s in latencies[-5:]]
    sessions = database_sessions()
    print(f"server threads: {web.threads()}; database sessions: {sessions}")
    assert sum(sessions.values()) < LONG_POLLS

    # A change wakes every one of them with the new table.
    service.table_command(table_id=table, command=cmd.StartDeal())
    assert wait_until(lambda: all(not poll.is_alive() for poll in waiting), 15), "not woken"
    answers = [poll.answer for poll in waiting]
    assert all(a is not None and a[0] == 200 and a[2]["version"] > current["version"] for a in answers), [
        (poll.answer and poll.answer[0], poll.error) for poll in waiting
    ]
