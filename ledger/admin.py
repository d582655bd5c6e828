"""Django admin: read-only windows on the event log and the balance projections.

Events are append-only facts and projections are derived from them, so nobody (superusers
included) may add, change or delete any of these rows through the admin. Changelists filter only on
their declared `list_filter` (guts_backend.admin_filters): a lookup on `data` would be an oracle for
a live deal's hidden cards.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from guts_backend.admin_filters import DeclaredFiltersOnly
from ledger.models import AccountBalance, AccountEntry, Event


class ReadOnlyAdmin(DeclaredFiltersOnly, admin.ModelAdmin):
    """View only: no add, change or delete permission for anyone, no bulk actions, and no filters
    but the declared ones."""

    actions = None

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("position", "stream", "version", "type", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream", "type", "=position")
    ordering = ("position",)
    show_full_result_count = False  # the log grows without bound; skip the second COUNT(*)


@admin.register(AccountBalance)
class AccountBalanceAdmin(ReadOnlyAdmin):
    list_display = ("account", "unit", "balance")
    list_filter = ("unit",)
    search_fields = ("account",)
    ordering = ("account", "unit")


@admin.register(AccountEntry)
class AccountEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "position",
        "account",
        "unit",
        "amount",
        "balance_after",
        "counterparty",
        "reason",
        "event_type",
        "stream",
    )
    list_filter = ("unit", "event_type")
    search_fields = ("account", "stream")
    ordering = ("position", "account")
