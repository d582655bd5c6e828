"""Projections: inline with appends, checkpoints, rebuild equals live (for every registered one)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from django.core.management import call_command

from ledger.models import AccountBalance, AccountEntry
from ledger.money import (
    CASHIER,
    Transfer,
    check_conservation,
    player_account,
    register_debt_policy,
    seat_account,
    unregister_debt_policy,
)
from ledger.projections import (
    EventProjector,
    checkpoint,
    rebuild_all,
    register_projector,
    unregister_projector,
)
from ledger.store import NewEvent, StoredEvent, StreamWrite, append
from tests.ledger.conftest import append_one, deposit_event, unique, withdraw_event

pytestmark = pytest.mark.django_db


class TypeCounter(EventProjector):
    """An in-memory projector of another 'app': counts events per type."""

    name = "tests.type_counter"
    handles = frozenset({"Counted"})

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def apply(self, event: StoredEvent, *, live: bool) -> None:
        self.counts[event.stream] += 1

    def reset(self) -> None:
        self.counts.clear()


@pytest.fixture
def counter() -> Iterator[TypeCounter]:
    projector = register_projector(TypeCounter())
    yield projector
    unregister_projector(projector.name)


def _snapshot() -> tuple[list, list]:
    balances = sorted(AccountBalance.objects.values_list("account", "unit", "balance"))
    entries = sorted(
        AccountEntry.objects.values_list(
            "account",
            "unit",
            "position",
            "stream",
            "event_type",
            "recorded_at",
            "amount",
            "balance_after",
            "counterparty",
            "reason",
        )
    )
    return balances, entries


def _play_some_money() -> None:
    players = [unique("p") for _ in range(3)]
    table = unique("t")
    for index, player in enumerate(players):
        append_one(f"player-{player}", deposit_event(player, 100 * (index + 1)))
    seats = [Transfer(player_account(p), seat_account(table, p), 50, "buy-in").to_json() for p in players]
    append(
        [
            StreamWrite(
                f"game-{table}", 0, [NewEvent("PlayersSeated", {"transfers": seats}), NewEvent("Counted", {})]
            )
        ]
    )
    append_one(f"player-{players[2]}", withdraw_event(players[2], 70))


def test_projectors_run_inline_and_keep_checkpoints(counter: TypeCounter) -> None:
    stream = unique("s")
    stored = append(
        [StreamWrite(stream, 0, [NewEvent("Counted", {}), NewEvent("Counted", {}), NewEvent("Ignored", {})])]
    )
    assert counter.counts[stream] == 2
    assert checkpoint(counter.name) == stored[1].position  # the last event it applied
    player = unique("p")
    money = append([StreamWrite(f"player-{player}", 0, [deposit_event(player, 5)])])
    assert checkpoint("ledger.balances") == money[0].position
    assert checkpoint(counter.name) == stored[1].position


def test_rebuild_equals_live(counter: TypeCounter) -> None:
    _play_some_money()
    live = _snapshot()
    live_counts = dict(counter.counts)
    report = rebuild_all(batch_size=2)
    assert _snapshot() == live
    assert checkpoint("ledger.balances") == checkpoint(counter.name) > 0
    assert dict(counter.counts) == live_counts
    assert report.events >= 5
    assert set(report.projectors) >= {"ledger.balances", counter.name}
    assert check_conservation() == []


def test_rebuild_command_shows_progress_and_rate(capsys: pytest.CaptureFixture[str]) -> None:
    _play_some_money()
    live = _snapshot()
    call_command("rebuild_projections", "--batch-size", "2")
    captured = capsys.readouterr()
    assert _snapshot() == live
    assert "100.0%" in captured.err
    assert "events/s" in captured.out


def test_rebuild_applies_history_even_if_policy_would_refuse_it_now() -> None:
    kind = unique("tab")
    account = f"{kind}:1"
    register_debt_policy(kind, lambda name: name == account)
    try:
        append_one(
            unique("bar"),
            NewEvent("TabOpened", {"transfers": [Transfer(account, CASHIER, 9, "on credit").to_json()]}),
        )
    finally:
        unregister_debt_policy(kind)
    rebuild_all()
    assert AccountBalance.objects.get(account=account).balance == -9
