"""The tables projector: TableView, SeatView, DealSummary/DealPlayer rows and state snapshots.

It projects the decider's own states, inline in the append transaction (DESIGN §2.5), so the
rows can never disagree with what `decide` sees. When the append is a command's (the runner says
so, `ledger.streams.decided_for`), the decided events and the state after them are used as they
are: nothing is parsed or folded again. Otherwise (a rebuild, a direct append, or a batch whose
rows need a state in its middle, e.g. a deal boundary before its last event) it folds the
stored events with `evolve`, from the state before the batch (`tables.state`: the cache when it
provably holds that version, else snapshot + tail), and puts the state after it in the cache, so
the service's next load costs one query. At every deal boundary it writes a `TableSnapshot`.

Bankroll and stack balances are not here: the ledger's balance projector moves them with every
transfer. `register_tables_projections()` (called from the app's ready()) registers the projector
and the seat debt policy for `allow_debt` tables (D-GEN-06).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from psycopg.types.json import Jsonb

from ledger import dbapi
from ledger.money import register_debt_policy
from ledger.projections import Projector, register_projector
from ledger.store import StoredEvent
from ledger.streams import Decided, decided_for
from tables.engine.decider import events as ev
from tables.engine.decider.evolve import evolve
from tables.engine.decider.program import parse_iso
from tables.engine.decider.snapshot import state_to_json
from tables.engine.decider.state import DealState, Seat, TableState
from tables.engine.decider.view import phase
from tables.models import DealPlayer, DealSummary, SeatView, TableSnapshot, TableView
from tables.state import Loaded, cache, state_before, table_id_of

SNAPSHOT_AFTER = frozenset({ev.DEAL_ENDED, ev.GAME_ENDED, ev.TABLE_CLOSED})  # deal boundaries


@dataclass
class _DealRow:
    """What one batch learnt about one deal."""

    created: dict[str, Any] | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    deal: DealState | None = None
    before: DealState | None = None  # the deal as its row already holds it (same deal_no)


class TablesProjector(Projector):
    name = "tables.views"
    models = (TableView, SeatView, DealSummary, DealPlayer, TableSnapshot)
    stream_prefix = "table-"
    joins_message = True  # one statement through dbapi.execute; reads only before the append

    def wants(self, event: StoredEvent) -> bool:
        return event.stream.startswith(self.stream_prefix)

    def reset(self) -> None:
        super().reset()
        cache.clear()

    def apply_batch(self, events: Sequence[StoredEvent], *, live: bool) -> None:
        by_table: dict[str, list[StoredEvent]] = {}
        for event in events:
            by_table.setdefault(table_id_of(event.stream), []).append(event)
        for table_id, table_events in by_table.items():
            self._apply_table(table_id, table_events)

    def _apply_table(self, table_id: str, events: list[StoredEvent]) -> None:
        decided = decided_for(events)
        if decided is not None and _project_decided(table_id, events, decided):
            return
        typed = decided.events if decided is not None else [ev.parse(e.type, e.data) for e in events]
        before = decided.before.state if decided is not None else state_before(table_id, events[0])
        state = before
        deals: dict[int, _DealRow] = {}
        players: list[dict[str, Any]] = []
        opened_at: datetime | None = None
        name = ""
        seated: list[Seat] = list(before.seats)  # everyone seated at some point of the batch
        snapshots: list[dict[str, Any]] = []  # one per deal boundary, also when rebuilding
        for event, event_typed in zip(events, typed, strict=True):
            previous, state = state, evolve(state, event_typed)
            if event.type in SNAPSHOT_AFTER:
                snapshots.append(
                    {"table_id": table_id, "version": event.version, "state": state_to_json(state)}
                )
            if isinstance(event_typed, ev.TableOpened):
                opened_at, name = event.recorded_at, event_typed.name
            elif isinstance(event_typed, ev.PlayerSeated | ev.EntrantSeated | ev.EntrantMovedIn):
                seated.extend(s for s in state.seats if s.player == event_typed.player)
            deal_no = getattr(event_typed, "deal_no", None)
            if deal_no is None or isinstance(event_typed, ev.FAIR_EVENTS):  # the next deal's deck, seeds
                continue
            row = deals.setdefault(deal_no, _DealRow(before=_same_deal(before, deal_no)))
            _note_deal_event(row, event_typed, event.recorded_at, previous, players, table_id)
            if state.deal is not None and state.deal.deal_no == deal_no:
                row.deal = state.deal
        _write(table_id, events, before, state, deals, players, opened_at, seated, snapshots, name)


def _project_decided(table_id: str, events: list[StoredEvent], decided: Decided) -> bool:
    """Project a command's append from its decided events and the states before and after them,
    without folding; False (nothing written) when a row needs a state from the middle of the
    batch: a deal started after its first event, a deal boundary before its last, a deal other
    than the final state's, a player seated and gone within it."""
    before: TableState = decided.before.state
    after: TableState = decided.state
    last = len(events) - 1
    deals: dict[int, _DealRow] = {}
    players: list[dict[str, Any]] = []
    opened_at: datetime | None = None
    name = ""
    seated: list[Seat] = list(before.seats)
    snapshots: list[dict[str, Any]] = []
    seats = {s.player: s for s in after.seats}
    for index, (event, typed) in enumerate(zip(events, decided.events, strict=True)):
        if event.type in SNAPSHOT_AFTER:
            if index != last:
                return False
            snapshots.append({"table_id": table_id, "version": event.version, "state": state_to_json(after)})
        if isinstance(typed, ev.TableOpened):
            opened_at, name = event.recorded_at, typed.name
        elif isinstance(typed, ev.PlayerSeated | ev.EntrantSeated | ev.EntrantMovedIn):
            if typed.player not in seats:
                return False
            seated.append(seats[typed.player])
        deal_no = getattr(typed, "deal_no", None)
        if deal_no is None or isinstance(typed, ev.FAIR_EVENTS):  # the next deal's deck, seeds
            continue
        if (
            after.deal is None
            or after.deal.deal_no != deal_no
            or (isinstance(typed, ev.DealStarted) and index != 0)
        ):
            return False
        row = deals.setdefault(deal_no, _DealRow(deal=after.deal, before=_same_deal(before, deal_no)))
        _note_deal_event(row, typed, event.recorded_at, before, players, table_id)
    _write(table_id, events, before, after, deals, players, opened_at, seated, snapshots, name)
    return True


def _write(
    table_id: str,
    events: list[StoredEvent],
    before: TableState,
    state: TableState,
    deals: dict[int, _DealRow],
    players: list[dict[str, Any]],
    opened_at: datetime | None,
    seated: list[Seat],
    snapshots: list[dict[str, Any]],
    name: str = "",
) -> None:
    """Every row a batch changes, in one statement; the state after it into the cache."""
    last = events[-1]
    writes = Writes()
    _write_table_view(
        writes, table_id, state, last, opened_at, options_changed=state.options != before.options, name=name
    )
    _write_seats(writes, table_id, before.seats, seated, state.seats)
    _write_deals(writes, table_id, deals, players)
    if snapshots:
        writes.insert(TableSnapshot, snapshots, ignore_conflicts=True)
    writes.flush()
    cache.put(table_id, Loaded(state, last.version, last.hash))


def _same_deal(state: TableState, deal_no: int) -> DealState | None:
    return state.deal if state.deal is not None and state.deal.deal_no == deal_no else None


def _note_deal_event(
    row: _DealRow,
    event: ev.Event,
    recorded_at: datetime,
    previous: TableState,
    players: list[dict[str, Any]],
    table_id: str,
) -> None:
    match event:
        case ev.DealStarted():
            row.created = {
                "pot_before": previous.pot,
                "reserve_before": previous.reserve,
                "started_at": recorded_at,
            }
            players.extend(
                {"player": p, "table_id": table_id, "deal_no": event.deal_no, "started_at": recorded_at}
                for p in event.participants
            )
        case ev.PotSettled():
            row.fields.update(pot_after=event.pot, reserve_after=event.reserve)
        case ev.PotAwarded():
            row.fields.update(pot_after=0, reserve_after=0)
        case ev.DealEnded():
            row.fields.update(ended_at=recorded_at, seed=event.seed or "")


def _deal_fields(deal: DealState) -> dict[str, Any]:
    """The summary fields that follow from the deal's state (sealed declares stay out): every
    stage's results, not only the last."""
    declares = {} if deal.sealed else {p: c for p, c in zip(deal.order, deal.choices, strict=True) if c}
    results = list(deal.results)
    return {
        "game_no": deal.game_no,
        "dealer": deal.dealer,
        "participants": list(deal.order),
        "stacked": deal.stacked,
        "commitment": deal.commitment or "",
        "declares": declares,
        "timed_out": list(deal.timed_out),
        "hands": {p: list(h) for p, h in zip(deal.order, deal.hands, strict=True)},
        "shown": list(deal.shown),
        "winners": list(deal.winners),
        "losers": list(deal.losers),
        "outcome": deal.outcome or "",
        "over": deal.over,
        "results": results,
        "compared": list(deal.compared),
        "board": list(deal.board),
        "face_up": {p: list(u) for p, u in zip(deal.order, deal.up, strict=True) if u},
        "antes": [t for r in results if r["type"] == ev.ANTES_POSTED for t in r["data"]["transfers"]],
        "settlement": [
            t
            for r in results
            if r["type"] in (ev.POT_SETTLED, ev.POT_AWARDED, ev.BETS_AWARDED, ev.POTS_AWARDED)
            for t in r["data"].get("transfers", ())
        ],
    }


def _write_table_view(
    writes: Writes,
    table_id: str,
    state: TableState,
    last: StoredEvent,
    opened_at: datetime | None,
    *,
    options_changed: bool = False,
    name: str = "",
) -> None:
    live = state.live
    values = {
        "status": state.status,
        "deal_no": state.deal_no,
        "game_no": state.game_no,
        "phase": phase(state),
        "pot": state.pot,
        "reserve": state.reserve,
        "dealer": state.deal.dealer if state.deal is not None else "",
        "turn": list(live.awaiting) if live is not None else [],
        "deadline": parse_iso(live.deadline) if live is not None and live.deadline else None,
        "seated": len(state.seats),
        "version": last.version,
        "updated_at": last.recorded_at,
    }
    if opened_at is not None:  # what never changes is written once
        writes.insert(
            TableView,
            [
                {
                    "table_id": table_id,
                    "opened_at": opened_at,
                    "variant": state.variant,
                    "options": dict(state.options),
                    "stacked": state.stacked_decks is not None,
                    "tournament_id": state.tournament_id,
                    "unit": state.unit,
                    "name": name,
                    **values,
                }
            ],
        )
    else:
        if options_changed:  # a tournament's ante level: the options now in force
            values["options"] = dict(state.options)
        writes.update(TableView, {"table_id": table_id}, values)


def _write_seats(
    writes: Writes, table_id: str, before: tuple[Seat, ...], seated: list[Seat], after: tuple[Seat, ...]
) -> None:
    """Upsert the seats that changed; anyone seated during the batch and gone now has left."""
    if before == after and len(seated) == len(before):
        return
    now = {s.player for s in after}
    rows = [
        {
            "table_id": table_id,
            "player": s.player,
            "seat": s.seat,
            "stack": s.stack,
            "legs": s.legs,
            "status": "sitting_out" if s.sitting_out else "seated",
        }
        for s in after
        if s not in before
    ]
    rows += [
        {"table_id": table_id, "player": s.player, "seat": s.seat, "stack": 0, "legs": 0, "status": "left"}
        for s in {s.player: s for s in seated}.values()
        if s.player not in now
    ]
    if rows:
        writes.insert(
            SeatView, rows, conflict=("table_id", "player"), update=("seat", "stack", "legs", "status")
        )


def _write_deals(
    writes: Writes, table_id: str, deals: dict[int, _DealRow], players: list[dict[str, Any]]
) -> None:
    """A deal's row is written whole when it starts; after that only the fields that changed
    (a declare changes one or two, not the hands and every stage's results again)."""
    created = []
    for deal_no, row in deals.items():
        fields = _deal_fields(row.deal) if row.deal is not None else {}
        if row.created is not None:
            created.append({"table_id": table_id, "deal_no": deal_no, **row.created, **fields, **row.fields})
            continue
        if row.before is not None and fields:
            held = _deal_fields(row.before)
            fields = {name: value for name, value in fields.items() if held.get(name) != value}
        fields.update(row.fields)
        if fields:
            writes.update(DealSummary, {"table_id": table_id, "deal_no": deal_no}, fields)
    if created:
        writes.insert(DealSummary, created)
    if players:
        writes.insert(DealPlayer, players)


class Writes:
    """The row writes of one batch. On PostgreSQL they go to the server as ONE statement (each a
    data-modifying CTE), so a command's projection costs one round trip; elsewhere one statement
    each. Values pass through each field's get_db_prep_value, as the ORM would send them."""

    CHUNK = 200  # rows per INSERT (bound-parameter limits)

    def __init__(self) -> None:
        self.statements: list[tuple[str, list[Any]]] = []
        self.conn = connections[DEFAULT_DB_ALIAS]  # resolve the thread-local proxy once

    def insert(
        self,
        model: type[models.Model],
        rows: list[dict[str, Any]],
        *,
        conflict: tuple[str, ...] = (),
        update: tuple[str, ...] = (),
        ignore_conflicts: bool = False,
    ) -> None:
        """INSERT rows (missing fields take their model defaults); upsert on `conflict`."""
        defaults = _defaults(model)
        full = [{**defaults, **row} for row in rows]
        names = list(full[0])
        columns = ", ".join(_column(model, n) for n in names)
        suffix = ""
        if update:
            suffix = (
                f" ON CONFLICT ({', '.join(_column(model, n) for n in conflict)}) DO UPDATE SET "
                + ", ".join(f"{_column(model, n)} = excluded.{_column(model, n)}" for n in update)
            )
        elif ignore_conflicts:
            suffix = " ON CONFLICT DO NOTHING"
        row_sql = "(" + ", ".join(["%s"] * len(names)) + ")"
        for start in range(0, len(full), self.CHUNK):
            chunk = full[start : start + self.CHUNK]
            params = [self._prep(model, n, row[n]) for row in chunk for n in names]
            self.statements.append(
                (
                    f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES "
                    f"{', '.join([row_sql] * len(chunk))}{suffix}",
                    params,
                )
            )

    def update(self, model: type[models.Model], where: dict[str, Any], values: dict[str, Any]) -> None:
        sets = ", ".join(f"{_column(model, n)} = %s" for n in values)
        cond = " AND ".join(f"{_column(model, n)} = %s" for n in where)
        params = [self._prep(model, n, v) for n, v in (*values.items(), *where.items())]
        self.statements.append((f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {cond}", params))

    def flush(self) -> None:
        if not self.statements:
            return
        if dbapi.on_postgres():
            sql = "WITH " + ", ".join(f"w{i} AS ({s})" for i, (s, _) in enumerate(self.statements))
            params = [p for _, ps in self.statements for p in ps]
            dbapi.execute(sql + " SELECT 1", params)  # or with the append's one message
        else:
            with connection.cursor() as cursor:
                for sql, params in self.statements:
                    cursor.execute(sql, params)
        self.statements = []

    def _prep(self, model: type[models.Model], name: str, value: Any) -> Any:
        if dbapi.is_collecting():  # literals of a one-message append: only JSON needs a wrapper
            return Jsonb(value) if _is_json(model, name) and value is not None else value
        return model._meta.get_field(name).get_db_prep_save(value, self.conn)


@functools.cache
def _is_json(model: type[models.Model], name: str) -> bool:
    return isinstance(model._meta.get_field(name), models.JSONField)


@functools.cache
def _quote(name: str) -> str:
    return f'"{name}"'  # the quoting of both PostgreSQL and SQLite


@functools.cache
def _column(model: type[models.Model], name: str) -> str:
    return _quote(model._meta.get_field(name).column)


def _defaults(model: type[models.Model]) -> dict[str, Any]:
    return {
        f.name: f.get_default()
        for f in model._meta.concrete_fields
        if not (f.primary_key and isinstance(f, models.AutoField | models.BigAutoField))
    }


def seat_may_owe(account: str) -> bool:
    """Debt policy for `seat:<table>:<player>`: only at tables with stack_policy allow_debt."""
    parts = account.split(":")
    if len(parts) != 3:
        return False
    cached = cache.get(parts[1])
    if cached is not None and cached.state.status != "new":
        return cached.state.opts["stack_policy"] == "allow_debt"
    try:
        options = TableView.objects.filter(table_id=parts[1]).values_list("options", flat=True).first()
    except ValidationError:  # not a table's seat (table ids are UUIDs)
        return False
    return bool(options) and options.get("stack_policy") == "allow_debt"


_registered = False


def register_tables_projections() -> None:
    global _registered
    if _registered:
        return
    register_projector(TablesProjector())
    register_debt_policy("seat", seat_may_owe)
    _registered = True
