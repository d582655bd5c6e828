"""The web service as docker-compose.yml runs it (`tests.e2e.servers.start_web`) on the test's own
database, for fault tests that kill it or cut its database connections, driven over HTTP like a
client would.

`kill()` is `kill -9` of the whole process group (master and workers); `start()` again serves it
anew (on a new port). Requests never raise for an HTTP status: an `Answer` carries the status, or
the connection error a client would have seen instead (a reset, a refused connection).
"""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from tests.e2e.conftest import worker_database_url
from tests.e2e.processes import celery_env, unique_queue
from tests.e2e.servers import WebServer, start_web


@dataclass(frozen=True)
class Answer:
    """What the client saw: an HTTP status with headers and body, or a connection error."""

    status: int | None
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    error: str | None = None

    @property
    def outcome(self) -> str:
        return str(self.status) if self.status is not None else f"error: {self.error}"


class Web:
    """The compose web service against the test database, restartable after a kill."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.env = celery_env(
            database_url=worker_database_url(), broker_url=settings.CELERY_BROKER_URL, queue=unique_queue()
        )
        self.server: WebServer | None = None

    def start(self) -> None:
        self.server = start_web(self.env, self.log_dir)

    def kill(self) -> None:
        """SIGKILL to master and workers at once, as a crashed host would."""
        if self.server is not None:
            self.server.process.kill()

    def stop(self) -> None:
        if self.server is not None:
            self.server.process.stop(grace=5)

    def output(self) -> str:
        return self.server.process.output() if self.server is not None else ""

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30.0,
    ) -> Answer:
        sent = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            sent["Authorization"] = f"Token {token}"
        assert self.server is not None, "start() the server first"
        connection = http.client.HTTPConnection(self.server.host, self.server.port, timeout=timeout)
        try:
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
            response = connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            return Answer(None, error=f"{type(error).__name__}: {error}")
        finally:
            connection.close()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return Answer(response.status, dict(response.getheaders()), parsed)

    def login(self, username: str, password: str) -> str:
        answer = self.request("POST", "/api/v1/auth/token", body={"username": username, "password": password})
        assert answer.status == 200, (answer, self.output()[-3000:])
        return answer.body["token"]
