"""Django admin: read-only windows on the table projections, tables and players by name.

Hole cards never appear here (DESIGN §2.6): DealSummary is shown without `hands` (only the shown
players are listed), TableSnapshot, which holds live hands and seeds, is not registered, and the
event log (registered by the ledger) is shown through the same redaction as the audit feed.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin

from ledger.admin import EventAdmin, ReadOnlyAdmin
from ledger.models import Event
from ledger.names import player_names
from tables.audit.feeds import feed_json, stored_event
from tables.engine.decider.view import Viewer
from tables.models import DealSummary, SeatView, TableView
from tables.naming import table_names


@admin.register(TableView)
class TableViewAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "table_id",
        "variant",
        "status",
        "deal_no",
        "phase",
        "pot",
        "reserve",
        "seated",
        "deadline",
        "version",
        "updated_at",
    )
    list_filter = ("status", "variant", "phase")
    search_fields = ("name", "table_id")


class NamedTableMixin:
    """Columns naming a row's table and player (tables.naming; a lookup per row, cached)."""

    @admin.display(description="table")
    def table_name(self, obj: Any) -> str:
        return table_names([obj.table_id]).get(str(obj.table_id), "")

    @admin.display(description="player name")
    def player_name(self, obj: Any) -> str:
        return player_names([obj.player]).get(obj.player, "")

    @admin.display(description="dealer")
    def dealer_name(self, obj: Any) -> str:
        return f"{player_names([obj.dealer]).get(obj.dealer, '')} (#{obj.dealer})"


@admin.register(SeatView)
class SeatViewAdmin(NamedTableMixin, ReadOnlyAdmin):
    list_display = ("table_name", "table_id", "seat", "player", "player_name", "stack", "status")
    list_filter = ("status",)
    search_fields = ("table_id", "player")


@admin.register(DealSummary)
class DealSummaryAdmin(NamedTableMixin, ReadOnlyAdmin):
    list_display = (
        "table_name",
        "table_id",
        "deal_no",
        "dealer_name",
        "outcome",
        "pot_before",
        "pot_after",
        "reserve_after",
        "over",
        "started_at",
    )
    list_filter = ("over", "outcome")
    search_fields = ("table_id",)
    exclude = ("hands", "results")  # hole cards, private comparisons: only through the redacting selectors


admin.site.unregister(Event)


@admin.register(Event)
class RedactedEventAdmin(EventAdmin):
    """The event log as an auditor sees it (DESIGN §2.6: the admin is a read path too): a live
    deal's hidden cards, sealed declares and the deck seed never appear; finished deals in full."""

    fields = ("position", "stream", "version", "type", "recorded_at", "meta", "as_auditor_sees_it")
    readonly_fields = fields

    @admin.display(description="event (redacted as for an auditor)")
    def as_auditor_sees_it(self, obj: Event) -> str:
        seen = feed_json([stored_event(obj)], Viewer(None, "auditor"))[0]
        return json.dumps(seen, indent=2, sort_keys=True, default=str)
