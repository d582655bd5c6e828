"""One lock order for every row a command's transaction locks (PostgreSQL): a transaction that
appends several times (a tournament's, an Idempotency-Key request's) never deadlocks with a
single command, however their appends interleave (DESIGN §2.3)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from ledger.cashier import cashier_deposit, player_create
from ledger.money import check_conservation
from tables import service
from tables.engine.decider import commands as cmd

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _funded(name: str, chips: int) -> int:
    player = player_create(username=name, password="pw-not-used").pk
    cashier_deposit(player_id=player, amount=chips)
    return player


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[BaseException]]:
    failures: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # reported by the test, not swallowed
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, failures


def test_table_open_then_deposit_in_one_transaction_does_not_deadlock_with_a_sit_down() -> None:
    """The soak's deadlock, exactly: one transaction opens a table (its projection's rows), waits,
    then deposits (the balances' rows); meanwhile a SitDown at another table moves chips (both)."""
    depositor = _funded("lock-order-a", 100)
    sitter = _funded("lock-order-b", 1000)
    table = service.table_open(variant="guts2", options={"ante": 10, "min_buy_in": 100}).table_id

    def long_transaction() -> None:
        with transaction.atomic():
            service.table_open(variant="guts2", options={"ante": 10})
            time.sleep(0.5)
            cashier_deposit(player_id=depositor, amount=5)

    first, first_failures = _in_thread(long_transaction)
    time.sleep(0.2)  # inside the sleep: the table is open, the deposit not yet
    second, second_failures = _in_thread(
        lambda: service.table_command(table_id=table, command=cmd.SitDown(str(sitter), 500))
    )
    first.join(10)
    second.join(10)
    assert first_failures == []
    assert second_failures == []
    assert check_conservation() == []
