"""A tournament run by a real Celery worker and beat, Redis and PostgreSQL.

Nobody acts: the start-time task starts the tournament and seats everyone, the deal tasks start the
deals after the pause, the declare timers end them, and the after-commit hook of the table's
last command (in the worker) ticks the tournament, which checkpoints the deal and schedules the
next one. Deals keep coming by themselves.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ledger.store import read_stream
from tables.state import load_table
from tests.e2e.conftest import CeleryStack
from tests.e2e.helpers import players, wait_until
from tournaments import service
from tournaments.state import tournament_stream

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e-timers"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_password_hashing"),
]


def test_the_tournament_starts_on_time_and_deals_by_itself(timers: CeleryStack) -> None:
    start_at = timezone.now() + timedelta(seconds=2)
    fields = {
        "name": "Worker",
        "variant": "guts2",
        "options": {"declare_timeout": 1},
        "buy_in": 10,
        "starting_chips": 500,
        "seats_per_table": 6,
        "min_entrants": 3,
        "max_entrants": 3,
        "start_at": start_at.isoformat(),
        "levels": [{"ante": 5, "minutes": 60}],
        "payouts": [100],
        "pause_seconds": 1,
    }
    tid = service.tournament_create(fields=fields).tournament_id
    for player in players(3):
        service.tournament_register(tournament_id=tid, player_id=player)

    def processed() -> list[int]:
        return [e.data["deal_no"] for e in read_stream(tournament_stream(tid)) if e.type == "DealProcessed"]

    found = wait_until(lambda: len(processed()) >= 2, 40)
    assert found, [e.type for e in read_stream(tournament_stream(tid))]
    [started] = [e for e in read_stream(tournament_stream(tid)) if e.type == "TournamentStarted"]
    assert start_at <= started.recorded_at <= start_at + timedelta(seconds=6)  # ETA task (or the sweeper)
    assert processed()[:2] == [1, 2]  # each deal once, in order
    [table] = service.tournament_get(tournament_id=tid).state.tables
    assert load_table(table).state.deal_no >= 2
