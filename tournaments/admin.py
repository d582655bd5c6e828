"""Django admin, read only: tournaments by name with their entrants (names, chips, places, table),
and how each tournament's sweeper ticks go, failing ones first. Tournaments change only through
the API's commands (create, register, start, cancel), which the services record as events."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from ledger.admin import ReadOnlyAdmin
from ledger.names import player_names
from tournaments.api.serializers import TournamentSummarySerializer
from tournaments.models import TournamentTickHealth, TournamentView
from tournaments.selectors import tournament_detail


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


STANDING_COLUMNS = ("player", "id", "chips", "place", "status", "table")
HIDDEN = ("tournament_id", "name", "winner", "version")  # columns the list leaves to the page


@admin.register(TournamentView)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", *(f for f in TournamentSummarySerializer().fields if f not in HIDDEN))
    list_filter = ("status", "variant")
    search_fields = ("name", "tournament_id")
    ordering = ("-start_at",)
    fields = ("tournament_id", *list_display, "entrants_by_name", "version", "created_at", "updated_at")
    readonly_fields = fields

    @admin.display(description="winner")
    def winner_name(self, obj: TournamentView) -> str:
        return player_names([obj.winner]).get(obj.winner, "") if obj.winner else ""

    @admin.display(description="entrants (standings)")
    def entrants_by_name(self, obj: TournamentView) -> str:
        detail = tournament_detail(tournament_id=str(obj.tournament_id), now=timezone.now())
        tables = {t["table_id"]: t["name"] for t in detail["tables"]}
        standings = {row["player"]: row for row in detail["standings"]}
        rows = []
        for player in dict.fromkeys([*detail["entrants"], *standings]):
            row = standings.get(player, {})
            place = row.get("place")
            rows.append(
                (
                    detail["names"].get(player, player),
                    player,
                    row.get("chips", "-"),
                    place if place is not None else "-",
                    row.get("status", "registered"),
                    tables.get(row.get("table_id") or "", "-"),
                )
            )
        cells = "".join("<td>{}</td>" for _ in STANDING_COLUMNS)
        return format_html(
            "<table><tr>{}</tr>{}</table>",
            format_html_join("", "<th>{}</th>", ((column,) for column in STANDING_COLUMNS)),
            format_html_join("", f"<tr>{cells}</tr>", rows),
        )
