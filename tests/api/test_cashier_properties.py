"""Property: any sequence of deposits and withdrawals through the cashier services conserves chips,
never takes a bankroll below zero, and refuses exactly the overdrawing withdrawals."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.cashier import cashier_deposit, cashier_withdraw, player_create
from ledger.errors import InvalidInput, Overdraft
from ledger.money import balance, check_conservation, player_account
from ledger.store import stream_version

_usernames = itertools.count(1)

operations = st.lists(
    st.tuples(st.sampled_from(["deposit", "withdraw"]), st.integers(min_value=1, max_value=2_000)),
    max_size=12,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_cashier_sequences_conserve_chips_and_never_overdraw(ops: list[tuple[str, int]]) -> None:
    # Each example gets a fresh player, so examples do not depend on each other.
    player = player_create(username=f"prop{next(_usernames)}", password="prop-password")
    account, stream = player_account(player.pk), f"player-{player.pk}"
    expected = 0
    for kind, amount in ops:
        if kind == "deposit":
            cashier_deposit(player_id=player.pk, amount=amount)
            expected += amount
        elif amount > expected:
            _assert_refused_without_append(player.pk, amount, stream)
        else:
            cashier_withdraw(player_id=player.pk, amount=amount)
            expected -= amount
        assert balance(account) == expected >= 0
        assert check_conservation() == []


def _assert_refused_without_append(player_id: int, amount: int, stream: str) -> None:
    version = stream_version(stream)
    with pytest.raises(Overdraft) as refused:
        cashier_withdraw(player_id=player_id, amount=amount)
    assert refused.value.code == "insufficient_funds"
    assert stream_version(stream) == version


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, -5, True, 2.0, "7", 10**12 + 1])
def test_services_refuse_bad_amounts(amount: Any) -> None:
    player = player_create(username=f"prop{next(_usernames)}", password="prop-password")
    for service in (cashier_deposit, cashier_withdraw):
        with pytest.raises(InvalidInput) as refused:
            service(player_id=player.pk, amount=amount)
        assert refused.value.code == "invalid_input"
    assert stream_version(f"player-{player.pk}") == 1
