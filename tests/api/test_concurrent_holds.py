"""Holds racing withdrawals and table buy-ins on PostgreSQL: however they interleave, the chips
held plus the chips paid out never exceed the bankroll (the bankroll lock and the player stream's
version serialise them; the disputes projector's guard is behind them)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from http_edge.roles import CLUB_ADMIN, grant_role
from ledger.cashier import cashier_deposit, cashier_withdraw, player_create
from ledger.disputes.service import dispute_hold, dispute_open
from ledger.errors import DomainError
from ledger.money import balance, check_conservation, player_account
from ledger.selectors import held_on
from ledger.verify import verify_ledger
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.errors import DomainError as RulesError

BANKROLL = 1_000
AMOUNT = 300  # 3 holds, 3 withdrawals, 2 buy-ins of 300: at most 3 of the 8 fit


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_holds_withdrawals_and_buy_ins_never_overlap(settings: object) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
    player = player_create(username="contested", password="x")
    admin = get_user_model().objects.create_user(username="holder", password="x")
    grant_role(admin, CLUB_ADMIN)
    disputes = []
    for _ in range(3):
        position = cashier_deposit(player_id=player.pk, amount=1).event.position
        disputes.append(
            dispute_open(
                user=player,
                subject={"kind": "cashier", "position": position},
                reason="race",
                now=timezone.now(),
            ).dispute_id
        )
    cashier_withdraw(player_id=player.pk, amount=3)
    cashier_deposit(player_id=player.pk, amount=BANKROLL)
    tables = [service.table_open(variant="guts2", options={"ante": 5}).table_id for _ in range(2)]

    def hold(dispute_id: str) -> Callable[[], None]:
        return lambda: dispute_hold(
            user=admin, dispute_id=dispute_id, player_id=player.pk, amount=AMOUNT, now=timezone.now()
        )

    def buy_in(table_id: str) -> Callable[[], None]:
        return lambda: service.table_command(table_id=table_id, command=cmd.SitDown(str(player.pk), AMOUNT))

    actions = (
        [hold(d) for d in disputes]
        + [buy_in(t) for t in tables]
        + [lambda: cashier_withdraw(player_id=player.pk, amount=AMOUNT)] * 3
    )
    start = threading.Barrier(len(actions))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(action: Callable[[], None]) -> None:
        try:
            start.wait(10)
            try:
                action()
                outcome = "done"
            except (DomainError, RulesError) as refused:
                outcome = refused.code
            with lock:
                outcomes.append(outcome)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert len(outcomes) == len(actions)
    assert set(outcomes) <= {
        "done",
        "insufficient_funds",
        "funds_held",
        "hold_exceeds_balance",
        "concurrency_conflict",
    }
    account = player_account(player.pk)
    held, posted = held_on(account), balance(account)
    assert 0 <= held <= posted
    assert outcomes.count("done") <= BANKROLL // AMOUNT
    assert (BANKROLL - posted) + held == outcomes.count("done") * AMOUNT
    assert check_conservation() == []
    assert verify_ledger().ok
