"""Output shapes of the tournaments API, for the OpenAPI document (the detail is built by
tournaments.selectors as plain JSON; these describe every part of it)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ledger.names import player_names
from tables.schema.actions import player_id_field
from tables.schema.results import players_field
from tournaments.engine.config import CANCEL_FEES, CANCEL_SETTLEMENTS
from tournaments.selectors import STATUSES


class NamedTournamentSummaries(serializers.ListSerializer):
    """A page of tournaments, their winners named with one query for the page."""

    def to_representation(self, data: Any) -> Any:
        rows = super().to_representation(data)
        names = player_names(row["winner"] for row in rows if row["winner"])
        for row in rows:
            row["winner_name"] = names.get(row["winner"]) if row["winner"] else None
        return rows


class TournamentSummarySerializer(serializers.Serializer):
    """A tournament in a list (the TournamentView projection). Integers are declared here, not
    inferred from the model, so the schema is the same on every database."""

    tournament_id = serializers.UUIDField()
    name = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES)
    start_at = serializers.DateTimeField()
    buy_in = serializers.IntegerField(min_value=0)
    fee = serializers.IntegerField(min_value=0)
    entrants = serializers.IntegerField(min_value=0)
    remaining = serializers.IntegerField(min_value=0, help_text="Entrants still in.")
    level = serializers.IntegerField(min_value=0, help_text="The blind level now, 0 before the start.")
    winner = serializers.RegexField(
        r"^[0-9]+$", allow_blank=True, help_text='The winner\'s id; "" until then.'
    )
    winner_name = serializers.SerializerMethodField(help_text="The winner's display name, once there is one.")
    version = serializers.IntegerField(min_value=0)

    def get_winner_name(self, tournament: Any) -> str | None:
        winner = tournament["winner"] if isinstance(tournament, dict) else tournament.winner
        if isinstance(self.parent, NamedTournamentSummaries) or not winner:
            return None  # a page's are filled by NamedTournamentSummaries, with one query
        return player_names([winner]).get(winner)

    class Meta:
        list_serializer_class = NamedTournamentSummaries
        ref_name = "TournamentSummary"


class LevelConfigSerializer(serializers.Serializer):
    ante = serializers.IntegerField()
    minutes = serializers.IntegerField()

    class Meta:
        ref_name = "TournamentLevelConfig"


class TournamentConfigSerializer(serializers.Serializer):
    """Everything the creation recorded."""

    name = serializers.CharField()
    variant = serializers.CharField()
    options = serializers.DictField(child=serializers.JSONField(), help_text="The tables' options.")
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()
    starting_chips = serializers.IntegerField()
    seats_per_table = serializers.IntegerField()
    min_entrants = serializers.IntegerField()
    max_entrants = serializers.IntegerField()
    start_at = serializers.DateTimeField()
    levels = LevelConfigSerializer(many=True)
    late_registration_level = serializers.IntegerField()
    payouts = serializers.ListField(child=serializers.IntegerField(), help_text="Percentages by place.")
    pause_seconds = serializers.IntegerField()
    cancel_settlement = serializers.ChoiceField(choices=CANCEL_SETTLEMENTS)
    cancel_fees = serializers.ChoiceField(choices=CANCEL_FEES)

    class Meta:
        ref_name = "TournamentConfig"


class LevelSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    ante = serializers.IntegerField()
    next_at = serializers.DateTimeField(allow_null=True, help_text="When the next level starts; null: none.")
    seconds_to_next = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "TournamentLevel"


class TournamentSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = player_id_field()
    player_name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    chips = serializers.IntegerField()

    class Meta:
        ref_name = "TournamentSeat"


class TournamentTableSerializer(serializers.Serializer):
    table_id = serializers.UUIDField()
    name = serializers.CharField(allow_null=True, help_text="The table's name.")
    broken = serializers.BooleanField(help_text="Broken up: its players were moved to other tables.")
    closed = serializers.BooleanField(
        help_text="Closed: no more deals (a broken table, or the tournament's end)."
    )
    seats = TournamentSeatSerializer(many=True, help_text="Who sits there now, with their chips.")

    class Meta:
        ref_name = "TournamentTable"


class StandingSerializer(serializers.Serializer):
    player = player_id_field()
    player_name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    chips = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True, help_text="null while still playing.")
    places = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="[first, last] of a shared place."
    )
    status = serializers.ChoiceField(choices=["playing", "eliminated", "winner", "chopped"])
    table_id = serializers.UUIDField(allow_null=True, help_text="Where he sits; null once out.")
    prize = serializers.IntegerField(required=False)

    class Meta:
        ref_name = "TournamentStanding"


class TournamentResultSerializer(serializers.Serializer):
    player = player_id_field()
    player_name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    place = serializers.IntegerField()
    last = serializers.IntegerField(help_text="The last place of a shared place.")
    prize = serializers.IntegerField()
    chips = serializers.IntegerField(required=False, help_text="After a chip chop: his chips then.")

    class Meta:
        ref_name = "TournamentResult"


class PaymentSerializer(serializers.Serializer):
    player = player_id_field()
    player_name = serializers.CharField(allow_null=True, help_text="The player's display name.")
    amount = serializers.IntegerField()

    class Meta:
        ref_name = "TournamentPayment"


class SeatingSerializer(serializers.Serializer):
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Revealed at the start.")
    entrants = players_field(allow_null=True)
    order = players_field(allow_null=True)

    class Meta:
        ref_name = "TournamentSeating"


class CancellationSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["in_progress", "settled"])
    requested_at = serializers.DateTimeField()
    reason = serializers.CharField(allow_blank=True, allow_null=True)
    rule = serializers.ChoiceField(choices=CANCEL_SETTLEMENTS)
    fees = serializers.ChoiceField(choices=CANCEL_FEES)
    waiting_for = serializers.ListField(
        child=serializers.UUIDField(), help_text="Tables still finishing their deal."
    )
    settlement = serializers.ChoiceField(choices=CANCEL_SETTLEMENTS, allow_null=True)
    payments = PaymentSerializer(many=True)

    class Meta:
        ref_name = "TournamentCancellation"


class TournamentDetailSerializer(serializers.Serializer):
    tournament_id = serializers.UUIDField()
    name = serializers.CharField()
    version = serializers.IntegerField(help_text="The tournament stream's version (the ETag).")
    status = serializers.ChoiceField(
        choices=STATUSES,
        help_text="cancelling: cancelled while running, the tables finishing their deals (`cancellation`).",
    )
    config = TournamentConfigSerializer()
    entrants = players_field()
    prize_pool = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    level = LevelSerializer()
    tables = TournamentTableSerializer(many=True, help_text="Every table the tournament opened, in order.")
    standings = StandingSerializer(
        many=True, help_text="Players still in by chips, then the eliminated by place."
    )
    results = TournamentResultSerializer(
        many=True,
        help_text="At completion: every place; after a chip chop, the players still in with their `chips`.",
    )
    payouts = PaymentSerializer(
        many=True, help_text="The prize pool, every chip (a cancellation's refunds or chop included)."
    )
    winner = player_id_field(allow_null=True)
    winner_name = serializers.CharField(allow_null=True, help_text="The winner's display name.")
    seating = SeatingSerializer(help_text="The seating proof: docs/verify_deal.py --seating.")
    cancellation = CancellationSerializer(
        allow_null=True, help_text="A running tournament's cancellation; null if none."
    )
    names = serializers.DictField(
        child=serializers.CharField(),
        help_text="{player id: display name} for every player id in this document (entrants, "
        "standings, tables, results, payouts).",
    )

    class Meta:
        ref_name = "TournamentDetail"
