"""Property: any sequence of deposit/withdraw/move transfers keeps conservation and never drives an
account that may not go negative below zero; refused transfers change nothing."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.money import CASHIER, InsufficientFunds, Transfer, balance, check_conservation, player_account
from ledger.store import NewEvent, StreamWrite, append, stream_version
from ledger.verify import verify_ledger
from tests.ledger.conftest import unique

pytestmark = pytest.mark.django_db

PLAYERS = 3
operations = st.lists(
    st.tuples(
        st.sampled_from(["deposit", "withdraw", "move"]),
        st.integers(0, PLAYERS - 1),
        st.integers(0, PLAYERS - 1),
        st.integers(1, 500),
    ),
    min_size=1,
    max_size=15,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_random_transfers_conserve_chips_and_respect_the_debt_policy(ops: list) -> None:
    accounts = [player_account(unique("p")) for _ in range(PLAYERS)]
    model: defaultdict[str, int] = defaultdict(int)
    for kind, first, second, amount in ops:
        source, target = {
            "deposit": (CASHIER, accounts[first]),
            "withdraw": (accounts[first], CASHIER),
            "move": (accounts[first], accounts[second]),
        }[kind]
        if source == target:
            continue
        stream = f"player-{source if source != CASHIER else target}"
        event = NewEvent(kind, {"transfers": [Transfer(source, target, amount, kind).to_json()]})
        version = stream_version(stream)
        if source != CASHIER and model[source] < amount:
            with pytest.raises(InsufficientFunds):
                append([StreamWrite(stream, version, [event])])
            assert stream_version(stream) == version
            continue
        append([StreamWrite(stream, version, [event])])
        model[source] -= amount
        model[target] += amount
    assert [balance(account) for account in accounts] == [model[account] for account in accounts]
    assert all(balance(account) >= 0 for account in accounts)
    assert check_conservation() == []
    assert verify_ledger().ok
