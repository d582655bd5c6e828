"""Where am I: a signed-in user's tables (`GET /me/seats`) and the parts of his live picture.

A seat entry is read from the table view itself (`selectors.table_get`: the engine's `table_view`
for this viewer), so its legal actions, whose turn and deadlines are exactly what
`GET /tables/{id}` says, under the same visibility rule (DESIGN §2.6); the projections only say
which tables to read (SeatView: where the player sits; TableView: open tables only).

The user's live stream (`GET /me/stream`) sends every part of his picture: these seats and the
views of his tables, and whatever other apps add with `register_me_part` in their AppConfig.ready
(the tournaments app adds his tournaments: tables import nothing of tournaments).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from http_edge.roles import User, player_id_of
from ledger.selectors import player_stream
from tables.errors import UnknownTable
from tables.live import Snapshot, View
from tables.models import SeatView, TableView
from tables.selectors import table_get, viewer_of
from tables.state import table_stream

SEATED = ("seated", "sitting_out")


def my_table_ids(user: User) -> list[str]:
    """The open tables the user sits at (sitting out included), oldest table first."""
    player = player_id_of(user)
    if player is None:
        return []
    tables = SeatView.objects.filter(player=str(player), status__in=SEATED).values_list("table_id", flat=True)
    return [
        str(table)
        for table in TableView.objects.filter(table_id__in=list(tables), status="open")
        .order_by("opened_at", "table_id")
        .values_list("table_id", flat=True)
    ]


def my_table_views(user: User, now: datetime, tables: list[str] | None = None) -> list[dict[str, Any]]:
    """The view of each of the user's tables (`tables`, default `my_table_ids`), as
    `GET /tables/{id}` shows it to him."""
    viewer = viewer_of(user)
    views = []
    for table in my_table_ids(user) if tables is None else tables:
        try:
            views.append(table_get(table_id=table, viewer=viewer, now=now).view)
        except UnknownTable:  # the projection saw a table whose events rolled back: skip it
            continue
    return views


def seat_entry(view: dict[str, Any], player: str) -> dict[str, Any]:
    """One of my tables, from its view for me: my seat and stack, whose turn, my deadline (the
    earliest deadline among my legal actions, else the turn's if the turn is mine), my actions."""
    seat = next(s for s in view["seats"] if s["player"] == player)
    my_turn = player in view["turn"]
    deadlines = sorted(a["deadline"] for a in view["legal_actions"] if a.get("deadline"))
    my_deadline = deadlines[0] if deadlines else view["deadline"] if my_turn else None
    names = view.get("names") or {}
    return {
        "table_id": view["table_id"],
        "name": view.get("name"),
        "version": view["version"],
        "variant": view["variant"],
        "tournament_id": view["tournament_id"],
        "tournament_name": view.get("tournament_name"),
        "unit": view["unit"],
        "seat": seat["seat"],
        "stack": seat["stack"],
        "sitting_out": seat["sitting_out"],
        "phase": view["phase"],
        "deal_no": view["deal_no"],
        "pot": view["pot"],
        "turn": list(view["turn"]),
        "my_turn": my_turn,
        "deadline": view["deadline"],
        "my_deadline": my_deadline,
        "legal_actions": view["legal_actions"],
        "names": {p: names[p] for p in view["turn"] if p in names},
    }


def seats_of_views(user: User, views: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """My seat entries from my tables' views: the tables where I must act first (soonest deadline
    first), then the others in the order of the views."""
    player = player_id_of(user)
    if player is None:
        return []
    entries = [
        seat_entry(view, str(player))
        for view in views
        if any(s["player"] == str(player) for s in view["seats"])
    ]
    waiting = sorted(
        (e for e in entries if e["my_turn"] or e["my_deadline"]), key=lambda e: e["my_deadline"] or "~"
    )
    return waiting + [e for e in entries if e not in waiting]


def seats_body(user: User, views: list[dict[str, Any]]) -> dict[str, Any]:
    """`GET /me/seats`: my seat entries from my tables' views (`my_table_views`)."""
    seats = seats_of_views(user, views)
    return {"count": len(seats), "results": seats}


def my_streams(user: User, tables: list[str]) -> list[str]:
    """The streams whose events may change the user's seats: his bankroll's (a sit-down or a
    cash-out writes it) and those of his `tables`."""
    player = player_id_of(user)
    own = [player_stream(player)] if player is not None else []
    return own + [table_stream(table) for table in tables]


# --- the parts of the live picture other apps add -------------------------------------------------


@dataclass(frozen=True, slots=True)
class MePart:
    """One more part of the user's live stream: its SSE event name, the streams whose events may
    change it (for the wake-ups), and its body (the same as the GET endpoint that serves it)."""

    event: str
    streams: Callable[[User], list[str]]
    body: Callable[[User, datetime], Any]


_parts: dict[str, MePart] = {}


def register_me_part(part: MePart) -> None:
    """Add a part (idempotent by event name; called from AppConfig.ready)."""
    _parts[part.event] = part


def me_parts() -> list[MePart]:
    return list(_parts.values())


def me_snapshot(user: User, now: datetime) -> Snapshot:
    """Everything the user's stream shows: his seats, each of his tables, the registered parts."""
    tables = my_table_ids(user)
    views = my_table_views(user, now, tables)
    watched = set(my_streams(user, tables))
    shown = [View("seats", "seats", seats_body(user, views))]
    shown += [View("table", f"table:{view['table_id']}", view) for view in views]
    for part in me_parts():
        watched.update(part.streams(user))
        shown.append(View(part.event, part.event, part.body(user, now)))
    return Snapshot(frozenset(watched), shown)
