"""The tournament's "next deal" task delivered several times at once (Celery redelivery, the
sweeper racing the ETA task): exactly one deal starts, the others append nothing."""

from __future__ import annotations

import uuid

import pytest

from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.state import table_stream
from tests.tables.test_concurrency_postgres import all_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_duplicate_next_deal_tasks_at_once_start_one_deal() -> None:
    table = service.table_open(
        variant="guts2", options={"ante": 10}, tournament_id=str(uuid.uuid4())
    ).table_id
    for player in "abcd":
        service.tournament_command(table_id=table, command=cmd.SeatEntrant(player, 500))
    answers = all_at_once([lambda: service.start_next_deal(table_id=table, after_deal_no=0)] * 4)
    assert answers == ["ok"] * 4
    events = read_stream(table_stream(table))
    assert [e.type for e in events].count("DealStarted") == 1
    assert [e.version for e in events] == list(range(1, len(events) + 1))
