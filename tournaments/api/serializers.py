"""Output shapes of the tournaments API, for the OpenAPI document (the detail is built by
tournaments.selectors as plain JSON)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ledger.names import player_names
from tournaments.models import TournamentView


class NamedTournamentSummaries(serializers.ListSerializer):
    """A page of tournaments, their winners named with one query for the page."""

    def to_representation(self, data: Any) -> Any:
        rows = super().to_representation(data)
        names = player_names(row["winner"] for row in rows if row["winner"])
        for row in rows:
            row["winner_name"] = names.get(row["winner"]) if row["winner"] else None
        return rows


class TournamentSummarySerializer(serializers.ModelSerializer):
    winner_name = serializers.SerializerMethodField(help_text="The winner's display name, once there is one.")

    def get_winner_name(self, tournament: Any) -> str | None:
        if isinstance(self.parent, NamedTournamentSummaries) or not tournament.winner:
            return None  # a page's are filled by NamedTournamentSummaries, with one query
        return player_names([tournament.winner]).get(tournament.winner)

    class Meta:
        list_serializer_class = NamedTournamentSummaries
        model = TournamentView
        fields = (
            "tournament_id",
            "name",
            "variant",
            "status",
            "start_at",
            "buy_in",
            "fee",
            "entrants",
            "remaining",
            "level",
            "winner",
            "winner_name",
            "version",
        )
        ref_name = "TournamentSummary"


class TournamentDetailSerializer(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    name = serializers.CharField()
    version = serializers.IntegerField(help_text="The tournament stream's version (the ETag).")
    status = serializers.ChoiceField(
        choices=["registering", "running", "cancelling", "complete", "cancelled"],
        help_text="cancelling: cancelled while running, the tables finishing their deals (`cancellation`).",
    )
    config = serializers.JSONField(
        help_text="Everything the creation recorded (variant, options, buy-in, fee, levels, payouts, ...)."
    )
    entrants = serializers.ListField(child=serializers.CharField())
    prize_pool = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    level = serializers.JSONField(help_text="{level, ante, next_at, seconds_to_next}")
    tables = serializers.JSONField(
        help_text="[{table_id, name, broken, seats: [{seat, player, player_name, chips}]}]"
    )
    standings = serializers.JSONField(
        help_text="[{player, chips, place, status, table_id, ...}]: "
        "players still in by chips, then the eliminated by place"
    )
    results = serializers.JSONField(
        help_text="At completion: [{player, place, last, prize}]; after a "
        "chip chop, the players still in with their `chips` too"
    )
    payouts = serializers.JSONField(
        help_text="[{player, amount}]: the prize pool, every chip (a cancellation's refunds or chop included)"
    )
    winner = serializers.CharField(allow_null=True)
    winner_name = serializers.CharField(allow_null=True, help_text="The winner's display name.")
    seating = serializers.JSONField(
        help_text="{commitment, seed, entrants, order}: docs/verify_deal.py --seating"
    )
    cancellation = serializers.JSONField(
        allow_null=True,
        help_text=(
            "A running tournament's cancellation, null if none: {status: in_progress | settled, "
            "requested_at, "
            "reason, rule: chip_chop | refund, fees: refund | keep, waiting_for: [tables still finishing "
            "their deal], settlement: refund | chip_chop | null, payments: [{player, amount}]}"
        ),
    )
    names = serializers.DictField(
        child=serializers.CharField(),
        help_text="{player id: display name} for every player id in this document (entrants, "
        "standings, tables, results, payouts).",
    )

    class Meta:
        ref_name = "TournamentDetail"
