"""Concurrent withdrawals on PostgreSQL: however they interleave, the sum paid out never exceeds
the bankroll (expected-version check, bounded retries, the projector's guard behind them)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from ledger.cashier import cashier_deposit, cashier_withdraw, player_create
from ledger.errors import DomainError
from ledger.money import balance, check_conservation, player_account

BANKROLL = 1_000
WITHDRAWAL = 150
THREADS = 8  # 8 x 150 = 1200 > 1000: at most 6 can succeed


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_withdrawals_never_exceed_the_balance() -> None:
    player = player_create(username="racer", password="racer-password")
    cashier_deposit(player_id=player.pk, amount=BANKROLL)
    start = threading.Barrier(THREADS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def withdraw() -> None:
        try:
            start.wait(10)
            try:
                cashier_withdraw(player_id=player.pk, amount=WITHDRAWAL)
                outcome = "paid"
            except DomainError as refused:
                outcome = refused.code
            with lock:
                outcomes.append(outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=withdraw) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert len(outcomes) == THREADS
    assert set(outcomes) <= {"paid", "insufficient_funds", "concurrency_conflict"}
    paid = outcomes.count("paid") * WITHDRAWAL
    assert 0 < paid <= BANKROLL
    if "insufficient_funds" in outcomes:  # refused only once the bankroll truly could not pay
        assert paid == BANKROLL // WITHDRAWAL * WITHDRAWAL
    assert balance(player_account(player.pk)) == BANKROLL - paid
    assert check_conservation() == []
