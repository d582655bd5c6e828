"""Real concurrency on PostgreSQL: version clashes, appends to different streams that do not wait
for each other (no global lock), and readers of the whole log that never skip an event that
commits late (the watermark of ledger.store): with the watermark removed (`settled=False` in the
reader) the late-commit test fails every time.

Each thread uses its own database connection (Django gives one per thread) and closes it at the end.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from ledger.store import ConcurrencyError, NewEvent, StoredEvent, StreamWrite, append, read_all, read_stream
from tests.ledger.conftest import unique

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _in_threads(count: int, work: Callable[[int], None]) -> None:
    """Run work(0..count-1) in threads, each closing its own connection; re-raise the first error."""
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            work(index)
        except BaseException as exc:  # reported to the test thread below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]


def test_two_writers_with_the_same_expected_version_exactly_one_wins_each_version() -> None:
    stream, rounds = unique("clash"), 15
    barrier = threading.Barrier(2)
    wins: dict[int, list[int]] = defaultdict(list)
    clashes: list[tuple[int, int | None]] = []

    def contend(writer: int) -> None:
        for version in range(rounds):
            barrier.wait(timeout=10)
            try:
                append([StreamWrite(stream, version, [NewEvent("Claimed", {"writer": writer})])])
                wins[version].append(writer)
            except ConcurrencyError as exc:
                clashes.append((exc.expected, exc.actual))
            barrier.wait(timeout=10)

    _in_threads(2, contend)
    assert all(len(wins[version]) == 1 for version in range(rounds)), wins
    assert clashes == [(version, version + 1) for version in range(rounds)]
    events = read_stream(stream)
    assert [e.version for e in events] == list(range(1, rounds + 1))
    assert [e.data["writer"] for e in events] == [wins[v][0] for v in range(rounds)]


def test_reader_following_positions_sees_every_event_once_in_order_despite_late_commits() -> None:
    writers, appends_each = 20, 8
    done = threading.Event()
    seen: list[StoredEvent] = []

    def write(writer: int) -> None:
        rng = random.Random(writer)
        streams = [unique(f"w{writer}") for _ in range(3)]
        versions = dict.fromkeys(streams, 0)
        for index in range(appends_each):
            stream = rng.choice(streams)
            events = [
                NewEvent("Wrote", {"writer": writer, "i": index, "k": k}) for k in range(rng.randint(1, 3))
            ]
            with transaction.atomic():
                append([StreamWrite(stream, versions[stream], events)])
                if writer % 4 == 0:  # hold the transaction open after appending: commits late
                    time.sleep(rng.uniform(0.005, 0.03))
            versions[stream] += len(events)

    def follow(_: int) -> None:
        position = 0
        while True:
            finished = done.is_set()  # read once more after the writers are done
            batch = read_all(after=position, limit=50)
            seen.extend(batch)
            if batch:
                position = batch[-1].position
            elif finished:
                return
            else:
                time.sleep(0.001)

    reader = threading.Thread(target=lambda: _in_threads(1, follow))
    reader.start()
    _in_threads(writers, write)
    done.set()
    reader.join(timeout=60)

    everything = read_all(after=0, limit=10**9)  # the database is flushed between transactional tests
    assert len(everything) == len({e.position for e in everything}) > writers * appends_each
    assert [e.position for e in seen] == [e.position for e in everything]  # each once, in order
    by_stream: dict[str, list[int]] = defaultdict(list)
    for event in seen:
        by_stream[event.stream].append(event.version)
    assert all(versions == list(range(1, len(versions) + 1)) for versions in by_stream.values())
    assert {e.data["writer"] for e in seen} == set(range(writers))


def test_appends_to_other_streams_do_not_wait_for_an_open_transaction() -> None:
    held, release, other_done = threading.Event(), threading.Event(), threading.Event()
    first, second = unique("held"), unique("free")
    start = read_all(after=0, limit=10**9)
    after = start[-1].position if start else 0

    def hold(_: int) -> None:
        with transaction.atomic():
            append([StreamWrite(first, 0, [NewEvent("Held", {})])])
            held.set()
            assert release.wait(timeout=20)

    def write_other(_: int) -> None:
        assert held.wait(timeout=20)
        append([StreamWrite(second, 0, [NewEvent("Free", {})])])
        other_done.set()

    holder = threading.Thread(target=lambda: _in_threads(1, hold))
    holder.start()
    _in_threads(1, write_other)
    assert other_done.is_set()  # committed while the first is still open
    assert read_all(after=after) == []  # the log's readers wait at the watermark
    assert [e.type for e in read_stream(second)] == ["Free"]  # one stream's readers do not
    release.set()
    holder.join(timeout=30)
    assert [e.type for e in read_all(after=after)] == ["Held", "Free"]  # the older transaction first


def test_an_append_after_a_head_written_by_a_newer_transaction_is_a_clash() -> None:
    """A stream's versions stay in transaction order, so the log's order keeps each stream's."""
    stream, elsewhere = unique("guarded"), unique("early")
    wrote_early, head_written = threading.Event(), threading.Event()
    outcome: list[object] = []

    def older(_: int) -> None:
        with transaction.atomic():
            append([StreamWrite(elsewhere, 0, [NewEvent("Early", {})])])  # takes its transaction id
            wrote_early.set()
            assert head_written.wait(timeout=20)
            try:
                append([StreamWrite(stream, 1, [NewEvent("Late", {})])])
                outcome.append("appended")
            except ConcurrencyError as exc:
                outcome.append(exc)

    def newer(_: int) -> None:
        assert wrote_early.wait(timeout=20)
        append([StreamWrite(stream, 0, [NewEvent("First", {})])])
        head_written.set()

    thread = threading.Thread(target=lambda: _in_threads(1, older))
    thread.start()
    _in_threads(1, newer)
    thread.join(timeout=30)
    assert len(outcome) == 1
    assert isinstance(outcome[0], ConcurrencyError)
    assert [e.type for e in read_stream(stream)] == ["First"]
