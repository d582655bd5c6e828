"""Faults under the real web service (as docker-compose.yml runs it): a
burst of keyed deposits while the database drops the server's connections, and while the server is
`kill -9`ed and restarted.

A client retries every request that was not answered 2xx with its same Idempotency-Key until it
is; each deposit must then land exactly once (the balance is the sum, one event per key) and
`verify_ledger` must pass. While the connections are cut, every request is still answered, 2xx or
503 with Retry-After: never a 500, never a reset.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from http_edge.idempotency import idempotency_tag
from http_edge.roles import CLUB_ADMIN, grant_role
from ledger.cashier import player_create
from ledger.models import Event
from ledger.selectors import player_balance, player_stream
from ledger.verify import verify_ledger
from tests.e2e.helpers import wait_until
from tests.e2e.web import Answer, Web

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-faults"),
    pytest.mark.django_db(transaction=True),
]

DEPOSITS = 60
CLIENTS = 8  # concurrent clients
MAX_RETRIES = 30
ADMIN_PASSWORD = "fault-admin-password"


class Cashier:
    """A club admin's client depositing to one player, each deposit under its own key."""

    def __init__(self, web: Web, prefix: str) -> None:
        admin = get_user_model().objects.create_user(username=f"{prefix}-admin", password=ADMIN_PASSWORD)
        grant_role(admin, CLUB_ADMIN)
        self.admin = admin.pk
        self.player = player_create(username=f"{prefix}-player", password="fault-player-password").pk
        self.web = web
        self.token = web.login(admin.username, ADMIN_PASSWORD)
        self.amounts = {f"{prefix}-{i}": 100 + i for i in range(DEPOSITS)}

    def deposit(self, key: str) -> Answer:
        return self.web.request(
            "POST",
            f"/api/v1/players/{self.player}/deposits",
            token=self.token,
            body={"amount": self.amounts[key]},
            headers={"Idempotency-Key": key},
        )

    def burst(self, during: Callable[[Callable[[], int]], None]) -> dict[str, Answer]:
        """Send every deposit from CLIENTS threads; `during(done)` runs meanwhile, `done()` counting
        the answered ones."""
        with ThreadPoolExecutor(CLIENTS) as pool:
            futures: dict[str, Future[Answer]] = {key: pool.submit(self.deposit, key) for key in self.amounts}
            during(lambda: sum(future.done() for future in futures.values()))
            return {key: future.result() for key, future in futures.items()}

    def retry_until_done(self, keys: list[str]) -> dict[str, Answer]:
        """Retry each key, as a client would, until it is answered 2xx; the final answers."""
        final = {}
        for key in keys:
            for _ in range(MAX_RETRIES):
                answer = self.deposit(key)
                if answer.status is not None and 200 <= answer.status < 300:
                    break
                time.sleep(min(float(answer.headers.get("Retry-After", 0.2)), 1.0))
            assert answer.status == 201, (key, answer, self.web.output()[-3000:])
            final[key] = answer
        return final

    def assert_each_landed_once(self) -> None:
        deposits = Event.objects.filter(stream=player_stream(self.player), type="DepositMade")
        tags = {idempotency_tag(caller_id=self.admin, key=key) for key in self.amounts}
        assert sorted(event.meta["idempotency"] for event in deposits) == sorted(tags)
        assert player_balance(player_id=self.player).balance == sum(self.amounts.values())
        report = verify_ledger()
        assert report.ok, report.to_json()


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Web]:
    server = Web(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def terminate_app_connections(*, wait_ms: int = 0) -> int:
    """Every connection to the test database but this process's own, as an operator or a failover
    would cut them (with `wait_ms`, waiting until each backend is gone); how many were terminated."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid, %s)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [wait_ms, connection.settings_dict["NAME"]],
        )
        return cursor.fetchone()[0]


def test_terminated_database_connections_mid_burst_are_503_and_retries_land_once(web: Web) -> None:
    cashier = Cashier(web, "cut")
    terminated = []

    def cut_connections(done: Callable[[], int]) -> None:
        for share in (0.2, 0.45, 0.7):
            assert wait_until(lambda share=share: done() >= DEPOSITS * share, 60)
            terminated.append(terminate_app_connections())

    first = cashier.burst(cut_connections)

    outcomes = sorted(answer.outcome for answer in first.values())
    assert set(outcomes) <= {"201", "503"}, (outcomes, web.output()[-3000:])
    assert sum(terminated) > 0
    for answer in first.values():
        if answer.status == 503:
            assert answer.headers["Content-Type"] == "application/problem+json"
            assert answer.body["code"] == "service_unavailable"
            assert int(answer.headers["Retry-After"]) > 0
    unavailable = [key for key, answer in first.items() if answer.status != 201]
    cashier.retry_until_done(unavailable)
    cashier.assert_each_landed_once()
    print(
        f"terminated {terminated} connections; first answers {len(first) - len(unavailable)} x 201, "
        f"{len(unavailable)} x 503"
    )


def test_kill_9_mid_burst_then_restart_every_key_lands_once(web: Web) -> None:
    cashier = Cashier(web, "kill")

    def kill_the_server(done: Callable[[], int]) -> None:
        assert wait_until(lambda: done() >= DEPOSITS // 3, 60)
        web.kill()

    first = cashier.burst(kill_the_server)
    web.start()
    final = cashier.retry_until_done(list(cashier.amounts))

    answered = {key: answer for key, answer in first.items() if answer.status == 201}
    assert len(answered) >= DEPOSITS // 3
    assert any(answer.status is None for answer in first.values())  # the kill cut some off
    assert {answer.status for answer in first.values()} <= {201, None}
    for key, answer in answered.items():  # acknowledged: replayed
        assert final[key].headers.get("Idempotent-Replayed") == "true"
        assert final[key].body == answer.body
    cashier.assert_each_landed_once()
    print(f"before the kill: {len(answered)} x 201, {DEPOSITS - len(answered)} cut off")


def test_after_terminated_connections_200_requests_get_no_503(web: Web) -> None:
    """The pool hands out no connection the database has dropped: every idle one is found dead
    before use (no query per request for that), and none leaks on the error path."""
    cashier = Cashier(web, "pool")

    def deposit(index: int) -> Answer:
        return web.request(
            "POST",
            f"/api/v1/players/{cashier.player}/deposits",
            token=cashier.token,
            body={"amount": 1 + index},
        )

    def me(_: int) -> Answer:
        return web.request("GET", "/api/v1/me", token=cashier.token)

    with ThreadPoolExecutor(CLIENTS) as pool:  # every worker's pool in use
        warm = list(pool.map(me, range(4 * CLIENTS)))
        assert {answer.status for answer in warm} == {200}
        assert terminate_app_connections(wait_ms=5000) > 0  # the fault is over: then the burst
        answers = list(pool.map(lambda i: deposit(i) if i % 2 else me(i), range(200)))
    outcomes = sorted({answer.outcome for answer in answers})
    assert outcomes == ["200", "201"], (outcomes, web.output()[-3000:])
    assert player_balance(player_id=cashier.player).balance == sum(1 + i for i in range(1, 200, 2))
