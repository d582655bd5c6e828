"""The peer of bench/command_cost.py: pyeventsourcing's get + event + save on the same PostgreSQL
(a bench-only dependency: `pip install "eventsourcing[postgres]"`, not in the test extras).

A `Deal` aggregate takes a declare per command, as a table's deal does; its application keeps
the aggregates it saved in a cache and fast-forwards them from the log on `get` (the closest to
the tables service's cache + head check), and a new aggregate starts every DEAL_LENGTH commands.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

DEAL_LENGTH = 30


class Deal(Aggregate):
    def __init__(self) -> None:
        self.declares: list[tuple[str, str]] = []

    @event("Declared")
    def declare(self, player: str, choice: str) -> None:
        self.declares.append((player, choice))


class Club(Application[Any]):
    """A club of deals."""


def club(url: str) -> Club:
    parts = urlsplit(url)
    return Club(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parts.path.lstrip("/"),
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": parts.username or "postgres",
            "POSTGRES_PASSWORD": parts.password or "",
            "AGGREGATE_CACHE_MAXSIZE": "1000",
            "AGGREGATE_CACHE_FASTFORWARD": "y",
        }
    )


class Peer:
    """Runs get + declare + save for a while; counts them."""

    def __init__(self, url: str) -> None:
        self.app = club(url)
        self.deal_id = self._new_deal()
        self.in_deal = 0
        self.done = 0

    def _new_deal(self) -> Any:
        deal = Deal()
        self.app.save(deal)
        return deal.id

    def run(self, seconds: float) -> int:
        started, done = time.perf_counter(), 0
        while time.perf_counter() - started < seconds:
            if self.in_deal == DEAL_LENGTH:
                self.deal_id, self.in_deal = self._new_deal(), 0
            deal = self.app.repository.get(self.deal_id)
            deal.declare(player=str(done % 6), choice="in")
            self.app.save(deal)
            self.in_deal += 1
            done += 1
        self.done += done
        return done

    def close(self) -> None:
        self.app.close()
