"""Django admin: how each tournament's sweeper ticks go, failing ones first, for staff (read only)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ledger.admin import ReadOnlyAdmin
from tournaments.models import TournamentTickHealth


class FailingFilter(admin.SimpleListFilter):
    title = "ticks"
    parameter_name = "failing"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "failing"), ("no", "ok")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(consecutive_failures__gt=0)
        if self.value() == "no":
            return queryset.filter(consecutive_failures=0)
        return queryset


@admin.register(TournamentTickHealth)
class TournamentTickHealthAdmin(ReadOnlyAdmin):
    list_display = (
        "tournament_id",
        "consecutive_failures",
        "failing_since",
        "last_error",
        "last_attempt_at",
        "last_success_at",
    )
    list_filter = (FailingFilter,)
    search_fields = ("tournament_id",)
    ordering = ("-consecutive_failures", "-last_attempt_at")
