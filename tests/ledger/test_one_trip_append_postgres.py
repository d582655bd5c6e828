"""The one-round-trip append on PostgreSQL: used when the head hashes are known, and never trusted
blindly (a wrong remembered hash or a moved head falls back to the general path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ledger import dbapi, store
from ledger.store import ConcurrencyError, NewEvent, StreamWrite, append, read_stream
from ledger.verify import verify_ledger
from tests.ledger.conftest import unique

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def one_trip_results(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many rows each call of the real ledger_append_known inserted (0: it declined)."""
    results: list[int] = []
    real: Callable[..., Any] = dbapi.append_known

    def counted(*args: Any) -> Any:
        inserted = real(*args)
        results.append(len(inserted))
        return inserted

    monkeypatch.setattr(dbapi, "append_known", counted)
    return results


def test_new_streams_and_remembered_heads_take_one_trip(
    one_trip_results: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    stream = unique("s")
    with django_capture_on_commit_callbacks(execute=True):
        first = append([StreamWrite(stream, 0, [NewEvent("A", {"n": 1})])])
    second = append([StreamWrite(stream, 1, [NewEvent("B", {"n": 2}), NewEvent("C", {})])])
    assert one_trip_results == [1, 2]
    assert second[0].prev_hash == first[0].hash
    assert read_stream(stream) == first + second
    assert verify_ledger().ok


def test_a_wrong_remembered_hash_falls_back_and_chains_correctly(one_trip_results: list[int]) -> None:
    stream = unique("s")
    first = append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    store._known_hashes[(stream, 1)] = "f" * 64
    try:
        second = append([StreamWrite(stream, 1, [NewEvent("B", {})])])
    finally:
        store._known_hashes.pop((stream, 1), None)
    assert one_trip_results == [1, 0]
    assert second[0].prev_hash == first[0].hash
    assert verify_ledger().ok


def test_a_moved_head_is_still_a_conflict(django_capture_on_commit_callbacks: Any) -> None:
    stream = unique("s")
    with django_capture_on_commit_callbacks(execute=True):
        append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    append([StreamWrite(stream, 1, [NewEvent("B", {})])])
    with pytest.raises(ConcurrencyError) as caught:
        append([StreamWrite(stream, 1, [NewEvent("C", {})])])
    assert (caught.value.expected, caught.value.actual) == (1, 2)


def test_a_rolled_back_append_is_not_remembered() -> None:
    stream = unique("s")
    with pytest.raises(ConcurrencyError):
        append([StreamWrite(stream, 0, [NewEvent("A", {})]), StreamWrite(unique("x"), 3, [])])
    assert (stream, 1) not in store._known_hashes
