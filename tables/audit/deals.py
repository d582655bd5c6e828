"""One deal of a table, read from its stream: its events and the table state just before it.

Replay, the fairness proof and the hand history all start here. A deal's events run from its
DealStarted to its DealEnded (every one carries `deal_no`). The state before the deal comes from
`tables.state.load_table_at` (the latest snapshot at a deal boundary, then the events after it),
so the cost of reading deal 9,000 does not grow with the 8,999 before it.

Finding where deal N starts without an index on event data: deal numbers never decrease along a
stream, so a binary search over versions finds its DealStarted in about log2(events) indexed
reads of a few rows each.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from uuid import UUID

from guts_backend.problems import Problem, document_problem
from ledger.models import Event as EventRow
from ledger.store import StoredEvent, read_stream, stream_version
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import evolve
from tables.engine.decider.state import TableState, initial_state
from tables.service import unknown_table
from tables.state import load_table_at, table_stream

document_problem("unknown_deal", 404, "Table 0b7f3c9e-… has no deal 12.")
document_problem("deal_not_finished", 409, "Deal 12 is still being played; its seed is secret until it ends.")

PROBE_WINDOW = 8           # events read per binary-search probe (between-deal runs are short)
READ_CHUNK = 200           # events read at a time while collecting one deal
TABLE_CHUNK = 5000         # events read at a time while walking a whole table


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal's events in order (to DealEnded, or to now while it is live) and the state before."""

    table_id: str
    deal_no: int
    before: TableState
    events: tuple[StoredEvent, ...]
    over: bool


def check_table(table_id: UUID | str) -> int:
    """The table stream's version, or 404 `unknown_table` if the table never opened."""
    version = stream_version(table_stream(table_id))
    if version == 0:
        raise unknown_table(str(table_id))
    return version


def deal_load(*, table_id: UUID | str, deal_no: int) -> DealRecord:
    """Deal `deal_no` of the table (404 unknown_table / unknown_deal)."""
    head = check_table(table_id)
    stream = table_stream(table_id)
    start = deal_start_version(stream, deal_no, head)
    if start is None:
        raise Problem("unknown_deal", f"Table {table_id} has no deal {deal_no}.", status=404)
    events = _deal_events(stream, deal_no, start)
    before = load_table_at(str(table_id), start - 1).state
    return DealRecord(str(table_id), deal_no, before, events, events[-1].type == ev.DEAL_ENDED)


def deal_start_version(stream: str, deal_no: int, head: int) -> int | None:
    """The version of the stream's DealStarted for `deal_no`, None if there is none."""
    if deal_no < 1:
        return None
    low, high = 1, head + 1                 # find the first version whose deal number >= deal_no
    while low < high:
        middle = (low + high) // 2
        if _deal_number_at(stream, middle) >= deal_no:
            high = middle
        else:
            low = middle + 1
    if low > head:
        return None
    first = read_stream(stream, from_version=low, to_version=low)[0]
    if first.type != ev.DEAL_STARTED or first.data.get("deal_no") != deal_no:
        return None
    return low


def _deal_number_at(stream: str, version: int) -> int:
    """The number of the last deal started at or before `version` (0 before the first deal)."""
    while version > 0:
        low = max(1, version - PROBE_WINDOW + 1)
        rows = (EventRow.objects.filter(stream=stream, version__gte=low, version__lte=version)
                .order_by("-version").values_list("data", flat=True))
        for data in rows:
            if type(data.get("deal_no")) is int:
                return data["deal_no"]
        version = low - 1
    return 0


def _deal_events(stream: str, deal_no: int, start: int) -> tuple[StoredEvent, ...]:
    """From DealStarted to DealEnded of `deal_no` (or the stream's end while the deal is live),
    including table events that happen during the deal (a player sitting down)."""
    collected: list[StoredEvent] = []
    version = start
    while chunk := read_stream(stream, from_version=version, to_version=version + READ_CHUNK - 1):
        for event in chunk:
            collected.append(event)
            if event.type == ev.DEAL_ENDED and event.data.get("deal_no") == deal_no:
                return tuple(collected)
        version += READ_CHUNK
    return tuple(collected)


def table_deals(table_id: UUID | str) -> Iterator[DealRecord]:
    """Every deal of the table in order, in one pass over its stream (for whole-table exports)."""
    check_table(table_id)
    stream = table_stream(table_id)
    state = initial_state()
    current: list[StoredEvent] = []
    before: TableState | None = None
    version = 1
    while chunk := read_stream(stream, from_version=version, to_version=version + TABLE_CHUNK - 1):
        for event in chunk:
            if event.type == ev.DEAL_STARTED:
                before, current = state, []
            state = evolve(state, ev.Event(event.type, event.data))
            if before is not None:
                current.append(event)
            if event.type == ev.DEAL_ENDED:
                yield DealRecord(str(table_id), event.data["deal_no"], before, tuple(current), True)
                before = None
        version += TABLE_CHUNK
    if before is not None and current:
        yield DealRecord(str(table_id), current[0].data["deal_no"], before, tuple(current), False)
