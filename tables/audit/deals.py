"""One deal of a table, read from its stream: its events and the table state just before it.

Replay, the fairness proof and the hand history all start here. A deal's events run from its
DealStarted to its DealEnded (every one carries `deal_no`). The state before the deal comes from
`tables.state.load_table_at` (the latest snapshot at a deal boundary, then the events after it),
so the cost of reading deal 9,000 does not grow with the 8,999 before it.

Finding where deal N starts without an index on event data: deal numbers grow by one along a
stream and deals are about the same size, so an interpolation search over versions finds its
DealStarted in one or two indexed reads of a small window (`deal_start_version`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from uuid import UUID

from ledger.models import Event as EventRow
from ledger.store import StoredEvent, read_stream, stream_version
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import evolve
from tables.engine.decider.state import TableState, initial_state
from tables.errors import UnknownDeal, UnknownTable
from tables.models import TableView
from tables.state import load_table_at, table_stream

SEARCH_SLACK_DEALS = 4  # the search window: the guessed deal, this many deals either side,
SEARCH_SLACK_EVENTS = 16  # and this many events more
MAX_SEARCHES = 64
READ_CHUNK = 64  # events read at a time while collecting one deal
TABLE_CHUNK = 5000  # events read at a time while walking a whole table


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal's events in order (to DealEnded, or to now while it is live) and the state before."""

    table_id: str
    deal_no: int
    before: TableState
    events: tuple[StoredEvent, ...]
    over: bool


def check_table(table_id: UUID | str) -> int:
    """The table stream's version, or UnknownTable if the table never opened."""
    version = stream_version(table_stream(table_id))
    if version == 0:
        raise UnknownTable(table_id)
    return version


def deal_load(*, table_id: UUID | str, deal_no: int) -> DealRecord:
    """Deal `deal_no` of the table (UnknownTable, UnknownDeal)."""
    head = TableView.objects.filter(table_id=table_id).values_list("version", "deal_no").first()
    if head is None:
        raise UnknownTable(table_id)
    stream = table_stream(table_id)
    start = deal_start_version(stream, deal_no, head_version=head[0], head_deal=head[1])
    if start is None:
        raise UnknownDeal(table_id, deal_no)
    events = _deal_events(stream, deal_no, start)
    before = load_table_at(str(table_id), start - 1).state
    return DealRecord(str(table_id), deal_no, before, events, events[-1].type == ev.DEAL_ENDED)


def deal_start_version(stream: str, deal_no: int, *, head_version: int, head_deal: int) -> int | None:
    """The version of the stream's DealStarted for `deal_no`, None if there is none.

    Interpolation search between two anchors (a version and the number of the last deal started
    at or before it): deals are numbered 1, 2, 3... along the stream and are about the same size,
    so one indexed read of the DealStarted events in a small window around the guess usually
    finds it; each miss moves an anchor past the window."""
    if not 1 <= deal_no <= head_deal:
        return None
    low, high = (0, 0), (head_version, head_deal)  # deal number at low < deal_no <= at high
    for _ in range(MAX_SEARCHES):
        if low[0] >= high[0]:
            return None
        first, last = _window(low, high, deal_no)
        starts = list(
            EventRow.objects.filter(
                stream=stream, type=ev.DEAL_STARTED, version__gte=first, version__lte=last
            )
            .order_by("version")
            .values_list("version", "data__deal_no")
        )
        found = [version for version, number in starts if number == deal_no]
        if found:
            return found[0]
        low, high = _narrowed(stream, low, high, starts, (first, last), deal_no)
    return None


def _window(low: tuple[int, int], high: tuple[int, int], deal_no: int) -> tuple[int, int]:
    per_deal = (high[0] - low[0]) / max(1, high[1] - low[1])
    guess = low[0] + per_deal * (deal_no - low[1] - 1)
    slack = SEARCH_SLACK_DEALS * per_deal + SEARCH_SLACK_EVENTS
    return max(low[0] + 1, int(guess - slack)), min(high[0], int(guess + per_deal + slack))


def _narrowed(
    stream: str,
    low: tuple[int, int],
    high: tuple[int, int],
    starts: list[tuple[int, int]],
    window: tuple[int, int],
    deal_no: int,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """New anchors after a window without deal `deal_no`'s start."""
    first, last = window
    below = [start for start in starts if start[1] < deal_no]
    above = [start for start in starts if start[1] > deal_no]
    if below and above:  # no such deal between its neighbours
        return low, low
    if above:
        return low, (above[0][0] - 1, above[0][1] - 1)
    if below:
        return (last, below[-1][1]), high
    number = _deal_number_at(stream, last)  # no deal started in the window: which side is it?
    return ((last, number), high) if number < deal_no else (low, (first - 1, number))


def _deal_number_at(stream: str, version: int) -> int:
    """The number of the last deal started at or before `version` (0 before the first deal)."""
    number = (
        EventRow.objects.filter(stream=stream, type=ev.DEAL_STARTED, version__lte=version)
        .order_by("-version")
        .values_list("data__deal_no", flat=True)
        .first()
    )
    return number or 0


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
            state = evolve(state, ev.parse(event.type, event.data))
            if before is not None:
                current.append(event)
            if event.type == ev.DEAL_ENDED:
                yield DealRecord(str(table_id), event.data["deal_no"], before, tuple(current), True)
                before = None
        version += TABLE_CHUNK
    if before is not None and current:
        yield DealRecord(str(table_id), current[0].data["deal_no"], before, tuple(current), False)
