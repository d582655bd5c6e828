"""Table reads for the API: the personalised table view, table lists and deal histories.

Everything a caller sees goes through the engine's read side (`view.table_view`, the same
redaction rules as `view.redact_event`; DESIGN §2.6): a player sees his own cards, others' only
once shown; an auditor sees every hand of a finished deal; sealed declares are never stored in
the summaries before the reveal, so no history can leak them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from uuid import UUID

from django.db.models import Exists, OuterRef, QuerySet

from http_edge.roles import User, is_auditor, is_club_admin, is_player
from ledger.selectors import player_get
from tables.engine.decider.view import Viewer, redact_event, table_view
from tables.engine.decider.visibility import sees_cards
from tables.errors import UnknownTable
from tables.models import DealPlayer, DealSummary, TableView
from tables.naming import name_table_view, page_player_names, table_names, with_player_names
from tables.service import canonical_table_id
from tables.state import load_table

TABLE_STATUSES = ("open", "closed")


def viewer_of(user: User) -> Viewer:
    """The engine's Viewer for a request user: player id if a player; auditor > admin > player."""
    role = "auditor" if is_auditor(user) else "admin" if is_club_admin(user) else "player"
    return Viewer(player_id=str(user.pk) if is_player(user) else None, role=role)


@dataclass(frozen=True, slots=True)
class TableSight:
    """The table as one viewer sees it, at a stream version (the ETag)."""

    view: dict[str, Any]
    version: int


def view_at(*, state: Any, version: int, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """The engine's table view for `viewer`, with the version and the turn's deadline on top."""
    view = table_view(state, viewer, now)
    deal = view["deal"]
    view["version"] = version
    view["turn"] = deal["turn"] if deal is not None and not deal["over"] else []
    view["deadline"] = deal["deadline"] if deal is not None and not deal["over"] else None
    return view


def table_sight(*, state: Any, version: int, viewer: Viewer, now: datetime) -> TableSight:
    """`view_at`, with the names of the table and of every player in it (tables.naming)."""
    return TableSight(name_table_view(view_at(state=state, version=version, viewer=viewer, now=now)), version)


def table_get(*, table_id: object, viewer: Viewer, now: datetime) -> TableSight:
    """The current table for `viewer`, or UnknownTable."""
    loaded = load_table(canonical_table_id(table_id))
    if loaded.version == 0:
        raise UnknownTable(table_id)
    return table_sight(state=loaded.state, version=loaded.version, viewer=viewer, now=now)


def table_version(*, table_id: object) -> int | None:
    """The table's stream version from its projection (None: no such table); for If-None-Match."""
    return (
        TableView.objects.filter(table_id=canonical_table_id(table_id))
        .values_list("version", flat=True)
        .first()
    )


def table_list(
    *,
    status: str | None = None,
    variant: str | None = None,
    opened_on: date | None = None,
    table_id: UUID | None = None,
) -> QuerySet[TableView]:
    """Tables, newest first, optionally of one status, variant, opening day (UTC) or id."""
    tables = TableView.objects.order_by("-opened_at", "table_id")
    if status:
        tables = tables.filter(status=status)
    if variant:
        tables = tables.filter(variant=variant)
    if opened_on is not None:
        start = datetime.combine(opened_on, time.min, tzinfo=UTC)
        tables = tables.filter(opened_at__gte=start, opened_at__lt=start + timedelta(days=1))
    if table_id is not None:
        tables = tables.filter(table_id=table_id)
    return tables


def table_deals(*, table_id: object) -> QuerySet[DealSummary]:
    """A table's deals, newest first (UnknownTable if there is no such table)."""
    table = canonical_table_id(table_id)
    if not TableView.objects.filter(table_id=table).exists():
        raise UnknownTable(table_id)
    return DealSummary.objects.filter(table_id=table).order_by("-deal_no")


def player_deals(*, player_id: int) -> QuerySet[DealSummary]:
    """The deals a player was dealt into, newest first (UnknownPlayer if there is no such player,
    as for their balance)."""
    player_get(player_id=player_id)
    dealt_in = DealPlayer.objects.filter(
        player=str(player_id), table_id=OuterRef("table_id"), deal_no=OuterRef("deal_no")
    )
    return DealSummary.objects.filter(Exists(dealt_in)).order_by("-started_at", "-pk")


def deal_json(deal: DealSummary, viewer: Viewer) -> dict[str, Any]:
    """A deal summary as `viewer` may see it: hands and every stage's results redacted by the
    engine's one visibility rule (`sees_cards`, `redact_event`)."""
    hands = []
    for player in deal.participants:
        visible = sees_cards(viewer, player, shown=deal.shown, compared=deal.compared, over=deal.over)
        cards = deal.hands.get(player, [])
        hands.append(
            {
                "player": player,
                "cards": list(cards) if visible else None,
                "card_count": len(cards),
                "face_up": deal.face_up.get(player, []),
                "declared": deal.declares.get(player),
                "timed_out": player in deal.timed_out,
            }
        )
    results = [
        {**result, "data": redact_event(result["type"], result["data"], viewer, deal_over=deal.over)}
        for result in deal.results
    ]
    return {
        "table_id": str(deal.table_id),
        "deal_no": deal.deal_no,
        "game_no": deal.game_no,
        "dealer": deal.dealer,
        "participants": list(deal.participants),
        "hands": hands,
        "shown": list(deal.shown),
        "winners": list(deal.winners),
        "losers": list(deal.losers),
        "outcome": deal.outcome or None,
        "over": deal.over,
        "stacked": deal.stacked,
        "commitment": deal.commitment or None,
        "seed": deal.seed or None,
        "pot_before": deal.pot_before,
        "reserve_before": deal.reserve_before,
        "pot_after": deal.pot_after,
        "reserve_after": deal.reserve_after,
        "transfers": [*deal.antes, *deal.settlement],
        "board": list(deal.board),
        "results": results,
        "started_at": deal.started_at,
        "ended_at": deal.ended_at,
    }


def deals_json(deals: Iterable[DealSummary], viewer: Viewer) -> list[dict[str, Any]]:
    """A page of deals as `viewer` may see them (`deal_json`), each with its table's name and the
    names of its players (one query for the page's names, tables.naming)."""
    rows = [deal_json(deal, viewer) for deal in deals]
    tables = table_names(row["table_id"] for row in rows)
    names = page_player_names(rows)
    for row in rows:
        row["table_name"] = tables.get(row["table_id"])
        with_player_names(row, [row["hands"]], names)
    return rows
