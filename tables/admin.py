"""Django admin: read-only windows on the table projections.

Hole cards never appear here (DESIGN §2.6): DealSummary is shown without `hands` (only the shown
players are listed) and TableSnapshot, which holds live hands and seeds, is not registered.
"""
from __future__ import annotations

from django.contrib import admin

from ledger.admin import ReadOnlyAdmin
from tables.models import DealSummary, SeatView, TableView


@admin.register(TableView)
class TableViewAdmin(ReadOnlyAdmin):
    list_display = ("table_id", "variant", "status", "deal_no", "phase", "pot", "reserve", "seated",
                    "deadline", "version", "updated_at")
    list_filter = ("status", "variant", "phase")
    search_fields = ("table_id",)


@admin.register(SeatView)
class SeatViewAdmin(ReadOnlyAdmin):
    list_display = ("table_id", "seat", "player", "stack", "status")
    list_filter = ("status",)
    search_fields = ("table_id", "player")


@admin.register(DealSummary)
class DealSummaryAdmin(ReadOnlyAdmin):
    list_display = ("table_id", "deal_no", "dealer", "outcome", "pot_before", "pot_after", "reserve_after",
                    "over", "started_at")
    list_filter = ("over", "outcome")
    search_fields = ("table_id",)
    exclude = ("hands",)           # hole cards: only through the redacting selectors
