"""Money as transfers: balances, statement entries, the debt policy, conservation."""

from __future__ import annotations

import pytest

from ledger.models import AccountEntry
from ledger.money import (
    CASHIER,
    InsufficientFunds,
    Transfer,
    balance,
    check_conservation,
    player_account,
    register_debt_policy,
    seat_account,
    unregister_debt_policy,
)
from ledger.store import NewEvent, StreamWrite, append, stream_version
from tests.ledger.conftest import append_one, deposit_event, unique, withdraw_event

pytestmark = pytest.mark.django_db


def test_deposit_and_withdrawal_move_balances_and_write_statement_lines() -> None:
    player = unique("p")
    stream = f"player-{player}"
    append_one(stream, deposit_event(player, 500))
    append_one(stream, withdraw_event(player, 120))
    assert balance(player_account(player)) == 380
    lines = list(
        AccountEntry.objects.filter(account=player_account(player))
        .order_by("position")
        .values_list("amount", "balance_after", "counterparty", "reason", "event_type", "stream")
    )
    assert lines == [
        (500, 500, CASHIER, "deposit", "DepositMade", stream),
        (-120, 380, CASHIER, "withdrawal", "WithdrawalMade", stream),
    ]
    assert check_conservation() == []


def test_several_transfers_in_one_event_get_running_balances() -> None:
    player, table = unique("p"), unique("t")
    seat = seat_account(table, player)
    moves = [
        Transfer(CASHIER, player_account(player), 100, "deposit"),
        Transfer(player_account(player), seat, 60, "buy-in"),
        Transfer(seat, player_account(player), 10, "change"),
    ]
    append([StreamWrite(unique("s"), 0, [NewEvent("Mixed", {"transfers": [m.to_json() for m in moves]})])])
    entries = list(
        AccountEntry.objects.filter(account=player_account(player))
        .order_by("id")
        .values_list("amount", "balance_after")
    )
    assert entries == [(100, 100), (-60, 40), (10, 50)]
    assert (balance(player_account(player)), balance(seat)) == (50, 50)


def test_insufficient_funds_rolls_back_the_whole_append() -> None:
    player = unique("p")
    stream = f"player-{player}"
    append_one(stream, deposit_event(player, 100))
    other = unique("other")
    with pytest.raises(InsufficientFunds) as caught:
        append(
            [
                StreamWrite(other, 0, [NewEvent("Unrelated", {})]),
                StreamWrite(stream, 1, [withdraw_event(player, 101)]),
            ]
        )
    error = caught.value
    assert (error.account, error.unit, error.balance, error.amount, error.code) == (
        player_account(player),
        "chips",
        100,
        101,
        "insufficient_funds",
    )
    assert (stream_version(stream), stream_version(other)) == (1, 0)
    assert balance(player_account(player)) == 100
    assert AccountEntry.objects.filter(account=player_account(player)).count() == 1


def test_intermediate_overdraft_within_one_event_is_refused() -> None:
    player = unique("p")
    moves = [
        Transfer(player_account(player), CASHIER, 10, "withdrawal"),
        Transfer(CASHIER, player_account(player), 10, "deposit"),
    ]
    with pytest.raises(InsufficientFunds):
        append([StreamWrite(unique("s"), 0, [NewEvent("X", {"transfers": [m.to_json() for m in moves]})])])


def test_units_never_mix() -> None:
    player = unique("p")
    tournament_chips = f"t:{unique('tour')}"
    append_one(f"player-{player}", deposit_event(player, 50))
    with pytest.raises(InsufficientFunds):
        append_one(f"player-{player}", withdraw_event(player, 10, unit=tournament_chips))
    append_one(f"player-{player}", deposit_event(player, 7, unit=tournament_chips))
    assert (balance(player_account(player)), balance(player_account(player), tournament_chips)) == (50, 7)
    assert balance(CASHIER, tournament_chips) == -7


def test_debt_policy_lets_chosen_accounts_go_negative() -> None:
    kind = unique("tab")  # a kind of account only this test knows
    trusted, other = f"{kind}:trusted", f"{kind}:other"
    register_debt_policy(kind, lambda account: account == trusted)
    try:
        append(
            [
                StreamWrite(
                    unique("s"),
                    0,
                    [
                        NewEvent(
                            "Paid",
                            {"transfers": [Transfer(trusted, "house", 30, "drinks on credit").to_json()]},
                        )
                    ],
                )
            ]
        )
        with pytest.raises(InsufficientFunds):
            append(
                [
                    StreamWrite(
                        unique("s"),
                        0,
                        [
                            NewEvent(
                                "Paid",
                                {"transfers": [Transfer(other, "house", 30, "drinks on credit").to_json()]},
                            )
                        ],
                    )
                ]
            )
    finally:
        unregister_debt_policy(kind)
    assert (balance(trusted), balance(other)) == (-30, 0)
    assert [p for p in check_conservation() if trusted in p]  # once the policy is gone, it is a problem
