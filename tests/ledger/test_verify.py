"""verify_ledger: untouched logs pass; a changed, removed or invalid event is named exactly."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from ledger.money import CASHIER, player_account
from ledger.store import NewEvent, StoredEvent, StreamWrite, append
from ledger.verify import verify_ledger
from tests.conftest import on_postgres
from tests.ledger.conftest import deposit_event, unique, withdraw_event

pytestmark = pytest.mark.django_db


def _money_history() -> tuple[str, list[StoredEvent]]:
    player = unique("p")
    stream = f"player-{player}"
    stored = append(
        [
            StreamWrite(
                stream,
                0,
                [deposit_event(player, 300), withdraw_event(player, 100), deposit_event(player, 50)],
            )
        ]
    )
    append([StreamWrite(unique("tbl"), 0, [NewEvent("TableOpened", {"variant": "guts2"})])])
    return player, stored


def _tamper(sql: str, params: list) -> None:
    """Change the log behind the store's back (on PostgreSQL the trigger must be disabled first)."""
    with connection.cursor() as cursor:
        if on_postgres():
            cursor.execute("ALTER TABLE ledger_event DISABLE TRIGGER ledger_event_no_update_delete")
        cursor.execute(sql, params)
        if on_postgres():
            cursor.execute("ALTER TABLE ledger_event ENABLE TRIGGER ledger_event_no_update_delete")


def test_an_untouched_log_verifies(capsys: pytest.CaptureFixture[str]) -> None:
    _money_history()
    report = verify_ledger()
    assert report.ok, report
    assert (report.events, report.streams, report.transfers, report.units) == (4, 2, 3, ["chips"])
    call_command("verify_ledger")
    assert "OK: 4 events in 2 streams, 3 transfers" in capsys.readouterr().out


def test_changed_amount_is_reported_at_the_right_event() -> None:
    player, stored = _money_history()
    target = stored[1]
    forged = {
        "transfers": [
            {
                "from": player_account(player),
                "to": CASHIER,
                "amount": 1,
                "unit": "chips",
                "reason": "withdrawal",
            }
        ]
    }
    _tamper("UPDATE ledger_event SET data = %s WHERE position = %s", [json.dumps(forged), target.position])
    report = verify_ledger()
    assert not report.ok
    bad = report.first_broken
    assert (bad.stream, bad.version, bad.position) == (target.stream, 2, target.position)
    assert "hash does not match" in bad.problem
    assert report.broken_events == 1  # the next event still chains to the stored hash
    assert any(player_account(player) in problem for problem in report.projection_problems)
    with pytest.raises(CommandError, match=rf"stream {target.stream} version 2 position {target.position}"):
        call_command("verify_ledger")


def test_removed_event_is_reported_at_its_successor() -> None:
    _, stored = _money_history()
    _tamper("DELETE FROM ledger_event WHERE position = %s", [stored[1].position])
    bad = verify_ledger().first_broken
    assert (bad.version, bad.position) == (3, stored[2].position)
    assert "follows version 1" in bad.problem


def test_rewritten_hash_is_caught_by_the_next_link() -> None:
    _, stored = _money_history()
    _tamper("UPDATE ledger_event SET hash = %s WHERE position = %s", ["f" * 64, stored[0].position])
    bad = verify_ledger().first_broken
    assert bad.position == stored[0].position


def test_stale_projection_is_reported_without_a_broken_event() -> None:
    player, _ = _money_history()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ledger_accountbalance SET balance = balance + 1 WHERE account = %s",
            [player_account(player)],
        )
    report = verify_ledger()
    assert report.first_broken is None
    assert report.projection_problems == [
        f"AccountBalance {player_account(player)} (chips) is 251, replay gives 250"
    ]
