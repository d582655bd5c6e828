"""Append and read: versions, ranges, global order, validation, Python guards."""

from __future__ import annotations

import pytest

from ledger.accounts import InvalidTransfer
from ledger.hashing import GENESIS_HASH, InvalidEventData
from ledger.models import AppendOnlyError, Event
from ledger.money import CASHIER, balance, player_account
from ledger.store import (
    ConcurrencyError,
    InvalidAppend,
    NewEvent,
    StreamWrite,
    append,
    append_with_balances,
    read_all,
    read_stream,
    stream_version,
)
from tests.ledger.conftest import deposit_event, unique, withdraw_event

pytestmark = pytest.mark.django_db


def test_append_returns_stored_events_in_order_with_versions_and_chain() -> None:
    stream = unique("tbl")
    stored = append(
        [StreamWrite(stream, 0, [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})])], meta={"actor": "alice"}
    )
    assert [(e.stream, e.version, e.type, e.data) for e in stored] == [
        (stream, 1, "A", {"n": 1}),
        (stream, 2, "B", {"n": 2}),
    ]
    assert stored[0].position < stored[1].position
    assert stored[0].prev_hash == GENESIS_HASH
    assert stored[1].prev_hash == stored[0].hash
    assert stored[0].meta == {"actor": "alice", "schema_version": 1}
    assert stored[0].recorded_at.tzinfo is not None
    assert read_stream(stream) == stored
    assert stream_version(stream) == 2


def test_one_append_writes_several_streams_atomically() -> None:
    player, table = unique("player"), unique("tbl")
    append([StreamWrite(player, 0, [NewEvent("Opened", {})])])
    with pytest.raises(ConcurrencyError):
        append(
            [
                StreamWrite(table, 0, [NewEvent("Seated", {})]),
                StreamWrite(player, 0, [NewEvent("BoughtIn", {})]),
            ]
        )
    assert stream_version(table) == 0
    stored = append(
        [StreamWrite(table, 0, [NewEvent("Seated", {})]), StreamWrite(player, 1, [NewEvent("BoughtIn", {})])]
    )
    assert [(e.stream, e.version) for e in stored] == [(table, 1), (player, 2)]


def test_concurrency_error_names_stream_and_versions() -> None:
    stream = unique("player")
    append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    with pytest.raises(ConcurrencyError) as caught:
        append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == (stream, 0, 1)
    assert caught.value.code == "concurrency_conflict"
    with pytest.raises(ConcurrencyError):
        append([StreamWrite(stream, 5, [NewEvent("A", {})])])
    assert stream_version(stream) == 1


def test_empty_write_only_checks_the_version() -> None:
    stream = unique("player")
    append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    assert append([StreamWrite(stream, 1, [])]) == []
    with pytest.raises(ConcurrencyError):
        append([StreamWrite(stream, 0, [])])


def test_read_stream_ranges() -> None:
    stream = unique("tbl")
    append([StreamWrite(stream, 0, [NewEvent("E", {"i": i}) for i in range(1, 6)])])
    assert [e.version for e in read_stream(stream, from_version=2, to_version=4)] == [2, 3, 4]
    assert [e.version for e in read_stream(stream, from_version=4)] == [4, 5]
    assert read_stream(stream, from_version=6) == []
    assert read_stream(unique("nothing")) == []


def test_read_all_after_limit_and_types() -> None:
    stream = unique("feed")
    stored = append(
        [
            StreamWrite(
                stream, 0, [NewEvent("Kept", {"i": 1}), NewEvent("Other", {}), NewEvent("Kept", {"i": 2})]
            )
        ]
    )
    start = stored[0].position - 1
    assert read_all(after=start, limit=2) == stored[:2]
    assert read_all(after=stored[0].position) == stored[1:]
    assert read_all(after=start, types={"Kept"}) == [stored[0], stored[2]]
    assert read_all(after=start, types=[]) == []


def test_data_round_trips_unicode_nesting_and_big_ints() -> None:
    stream = unique("tbl")
    data = {"name": "Zoë 🂡", "nested": {"list": [1, None, True, "x"]}, "big": 10**14}
    append([StreamWrite(stream, 0, [NewEvent("E", data)])])
    assert read_stream(stream)[0].data == data


@pytest.mark.parametrize(
    "data",
    [
        {"amount": 1.5},
        {"nested": [{"x": float("nan")}]},
        {"tuple": (1, 2)},
        {1: "int key"},
        {"nul": "a\x00b"},
        {"set": {1}},
    ],
)
def test_non_json_data_is_rejected_before_anything_is_appended(data: dict) -> None:
    stream = unique("tbl")
    with pytest.raises(InvalidEventData):
        append([StreamWrite(stream, 0, [NewEvent("Ok", {}), NewEvent("Bad", data)])])
    assert stream_version(stream) == 0


def test_float_in_meta_is_rejected() -> None:
    with pytest.raises(InvalidEventData):
        append([StreamWrite(unique("s"), 0, [NewEvent("A", {})])], meta={"score": 0.5})


@pytest.mark.parametrize(
    "transfer",
    [
        {"from": "cashier", "to": "player:1", "amount": 0, "unit": "chips", "reason": "deposit"},
        {"from": "cashier", "to": "player:1", "amount": -5, "unit": "chips", "reason": "deposit"},
        {"from": "cashier", "to": "player:1", "amount": 10**15, "unit": "chips", "reason": "deposit"},
        {"from": "cashier", "to": "player:1", "amount": 2.0, "unit": "chips", "reason": "deposit"},
        {"from": "cashier", "to": "player:1", "amount": True, "unit": "chips", "reason": "deposit"},
        {"from": "player:1", "to": "player:1", "amount": 5, "unit": "chips", "reason": "loop"},
        {"from": "cashier", "to": "player:1", "amount": 5, "unit": "", "reason": "deposit"},
        {"from": "cashier", "amount": 5, "unit": "chips", "reason": "deposit"},
        {"from": "cashier", "to": "p" * 201, "amount": 5, "unit": "chips", "reason": "deposit"},
    ],
)
def test_invalid_transfers_are_rejected_before_anything_is_appended(transfer: dict) -> None:
    stream = unique("player")
    with pytest.raises((InvalidTransfer, InvalidEventData)):
        append([StreamWrite(stream, 0, [NewEvent("DepositMade", {"transfers": [transfer]})])])
    assert stream_version(stream) == 0


def test_transfers_must_be_a_list_of_objects() -> None:
    with pytest.raises(InvalidTransfer):
        append([StreamWrite(unique("p"), 0, [NewEvent("X", {"transfers": {"from": "a"}})])])


@pytest.mark.parametrize(
    "write",
    [
        StreamWrite("", 0, []),
        StreamWrite("s", -1, []),
        StreamWrite("s", True, []),
        StreamWrite("s", 0, [NewEvent("", {})]),
        StreamWrite("s", 0, [NewEvent("T", [])]),  # type: ignore[arg-type]
    ],
)
def test_malformed_writes_are_rejected(write: StreamWrite) -> None:
    with pytest.raises(InvalidAppend):
        append([write])


def test_a_stream_may_appear_only_once_per_append() -> None:
    stream = unique("s")
    with pytest.raises(InvalidAppend):
        append([StreamWrite(stream, 0, [NewEvent("A", {})]), StreamWrite(stream, 1, [NewEvent("B", {})])])


def test_append_joins_the_callers_transaction() -> None:
    from django.db import transaction

    stream = unique("s")

    def append_then_fail() -> None:
        with transaction.atomic():
            append([StreamWrite(stream, 0, [NewEvent("A", {})])])
            raise RuntimeError("the caller fails after appending")

    with pytest.raises(RuntimeError):
        append_then_fail()
    assert stream_version(stream) == 0


def test_a_failed_nested_append_leaves_the_callers_transaction_usable() -> None:
    from django.db import transaction

    stream = unique("s")
    with transaction.atomic():
        append([StreamWrite(stream, 0, [NewEvent("A", {})])])
        with pytest.raises(ConcurrencyError):
            append([StreamWrite(stream, 0, [NewEvent("B", {})])])
        append([StreamWrite(stream, 1, [NewEvent("C", {})])])
    assert [e.type for e in read_stream(stream)] == ["A", "C"]


def test_a_version_clash_without_a_savepoint_leaves_the_callers_transaction_usable() -> None:
    """The command services append with savepoint=False inside a caller's transaction (an
    Idempotency-Key request's) and retry a clash in it: the clash is found before anything is
    written, so it must not mark that transaction for rollback."""
    from django.db import connection, transaction

    stream = unique("s")
    with transaction.atomic():
        append([StreamWrite(stream, 0, [NewEvent("A", {})])], savepoint=False)
        with pytest.raises(ConcurrencyError):
            append([StreamWrite(stream, 0, [NewEvent("B", {})])], savepoint=False)
        assert not connection.needs_rollback
        append([StreamWrite(stream, 1, [NewEvent("C", {})])], savepoint=False)
    assert [e.type for e in read_stream(stream)] == ["A", "C"]


def test_append_with_balances_returns_the_balances_the_append_left() -> None:
    """What the balance projection computed in the append's transaction: every account moved."""
    alice, bob = unique("alice"), unique("bob")
    append([StreamWrite(unique("s"), 0, [deposit_event(alice, 70)])])
    appended = append_with_balances(
        [
            StreamWrite(
                unique("s"), 0, [deposit_event(alice, 30), deposit_event(bob, 5), withdraw_event(alice, 40)]
            )
        ]
    )
    assert [e.type for e in appended.events] == ["DepositMade", "DepositMade", "WithdrawalMade"]
    assert appended.balances[(player_account(alice), "chips")] == 60 == balance(player_account(alice))
    assert appended.balances[(player_account(bob), "chips")] == 5
    assert appended.balances[(CASHIER, "chips")] == balance(CASHIER)
    assert append_with_balances([StreamWrite(unique("s"), 0, [NewEvent("A", {})])]).balances == {}


def test_model_refuses_save_and_delete() -> None:
    stream = unique("s")
    append([StreamWrite(stream, 0, [NewEvent("A", {"n": 1})])])
    event = Event.objects.get(stream=stream)
    event.data = {"n": 2}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        Event(stream=stream, version=2, type="A", data={}, meta={}).save()


def test_queryset_refuses_update_and_delete() -> None:
    stream = unique("s")
    append([StreamWrite(stream, 0, [NewEvent("A", {"n": 1})])])
    events = Event.objects.filter(stream=stream)
    with pytest.raises(AppendOnlyError):
        events.update(data={"n": 2})
    with pytest.raises(AppendOnlyError):
        events.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.bulk_create([Event(stream=stream, version=2, type="A", data={}, meta={})])
    assert read_stream(stream)[0].data == {"n": 1}


def test_deposit_helper_builds_a_money_event() -> None:
    event = deposit_event("7", 100)
    assert event.data["transfers"][0] == {
        "from": "cashier",
        "to": "player:7",
        "amount": 100,
        "unit": "chips",
        "reason": "deposit",
    }
