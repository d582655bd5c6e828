"""Output shapes of the tables API (the engine builds the values; these describe and render them)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from tables.engine.decider import vocabulary
from tables.naming import name_table_summaries
from tables.schema.actions import legal_actions, player_id_field
from tables.schema.deal_view import deal_view_fields
from tables.schema.results import DealResultsField, players_field


class SeatSerializer(serializers.Serializer):
    player = player_id_field(help_text="The player id (user id) as a string.")
    player_name = serializers.CharField(
        allow_null=True, help_text="The player's display name (null if no such player)."
    )
    seat = serializers.IntegerField(help_text="0-based; clockwise is increasing seat number.")
    stack = serializers.IntegerField()
    legs = serializers.IntegerField(
        help_text="Legs (tokens) of the current game (357-03); 0 in games without legs."
    )
    sitting_out = serializers.BooleanField(help_text="Keeps the seat; not dealt in.")
    timeouts = serializers.IntegerField(help_text="Consecutive declare timeouts.")
    waiting = serializers.BooleanField(
        help_text="Seated during a Monte Carlo or Survivor round: dealt in from the next round (MC-07)."
    )

    class Meta:
        ref_name = "TableSeat"


class DealPlayerSerializer(serializers.Serializer):
    player = player_id_field()
    player_name = serializers.CharField(
        allow_null=True, help_text="The player's display name (null if no such player)."
    )
    cards = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="Your own cards; others' only once shown to you (null otherwise).",
    )
    face_up = serializers.ListField(
        child=serializers.CharField(), help_text="The player's face-up cards: public (422-05)."
    )
    card_count = serializers.IntegerField()
    declared = serializers.ChoiceField(
        choices=vocabulary.DECLARED,
        allow_null=True,
        help_text='"in", "out" (Four-Three: "high", "low", "both"), "sealed" (declared, not yet '
        "revealed) or null.",
    )
    timed_out = serializers.BooleanField()
    forced_in = serializers.BooleanField()
    folded = serializers.BooleanField(
        help_text="Folded in the betting round (D-BET): not shown, still "
        "matches the pot at its pre-betting size."
    )

    class Meta:
        ref_name = "TableDealPlayer"


class GhostSerializer(serializers.Serializer):
    cards = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="Null until a showdown shows the ghost (GH-03); auditors see it once the deal is over.",
    )
    card_count = serializers.IntegerField()
    shown = serializers.BooleanField(help_text="The ghost took part in the showdown (GH-04, GH-08).")
    won = serializers.BooleanField(help_text='No "in" player beat it: each matched (GH-05, D-GH-02).')
    face_up = serializers.BooleanField(
        help_text="Monte Carlo's open hand to beat (MCA-05): dealt face up, its cards public at once."
    )

    class Meta:
        ref_name = "TableGhost"


class SidesSerializer(serializers.Serializer):
    high = players_field()
    low = players_field()

    class Meta:
        ref_name = "TableSides"


class DealSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    game_no = serializers.IntegerField()
    dealer = player_id_field()
    over = serializers.BooleanField()
    stage = serializers.IntegerField(
        allow_null=True, help_text="The program's stage, 1-based (Three-Five-Seven: 1, 2, 3)."
    )
    board = serializers.ListField(
        child=serializers.CharField(), help_text="Community cards, face up (423-02)."
    )
    mode = serializers.ChoiceField(
        choices=vocabulary.DECLARE_MODES,
        allow_null=True,
        help_text="sequential | simultaneous while declaring.",
    )
    turn = players_field()
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text=(
            "ISO-8601 UTC deadline of the open declare turn, window or pass; when it passes the timer "
            "applies the table's timeout effect (default: out)."
        ),
    )
    players = DealPlayerSerializer(many=True)
    ghost = GhostSerializer(
        allow_null=True, help_text="The ghost hand (option ghost, GH-01..08); null when none is dealt."
    )
    sides = SidesSerializer(
        allow_null=True,
        help_text="Four-Three: the High and the Low winners once shown (43-05, D-43-01); null otherwise.",
    )
    winners = players_field()
    outcome = serializers.ChoiceField(
        choices=vocabulary.OUTCOMES, allow_null=True, help_text="How the deal settled; null while played."
    )
    stacked = serializers.BooleanField()
    commitment = serializers.CharField(allow_null=True, help_text="sha256 of the deal's secret seed.")
    seed = serializers.CharField(allow_null=True, help_text="Revealed once the deal is over.")
    results = DealResultsField(
        help_text=(
            "Every stage's results so far, in order: {stage, type, data} for each AntesPosted, "
            "ShowdownHeld (the hands shown and their values), DeckCompared, PotSettled, LegAwarded, "
            "PotAwarded, BetsAwarded, NobodyOpened, PotsAwarded and OpenersShown, redacted for the caller "
            "(a private comparison's hands only for the players compared)."
        )
    )

    class Meta:
        ref_name = "TableDeal"

    def get_fields(self) -> dict[str, serializers.Field]:
        """The keys every deal has, then those its step kinds add (tables.schema.deal_view)."""
        return {**super().get_fields(), **deal_view_fields()}


LEGAL_ACTION_UNION = PolymorphicProxySerializer(
    component_name="TableLegalAction",
    serializers=legal_actions,
    resource_type_field_name="action",
    many=True,
)


class LegalActionField(serializers.Field):
    """One legal action, rendered by its own schema of the union, so what a test renders through
    TableOutputSerializer is what the OpenAPI document says (the API itself renders the engine's
    JSON as is, tables.api.views.sight_response)."""

    def to_representation(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(legal_actions()[value["action"]](value).data)


@extend_schema_field(LEGAL_ACTION_UNION)
class LegalActionsField(serializers.ListField):
    """The caller's legal actions, documented as the union of their schemas."""

    child = LegalActionField()


class OptionsField(serializers.DictField):
    """A table's options by name (see GET /variants for each variant's options and their schema)."""

    child = serializers.JSONField()


class TableOutputSerializer(serializers.Serializer):
    """The table as the caller may see it, with the caller's legal actions (DESIGN §2.9)."""

    table_id = serializers.UUIDField()
    name = serializers.CharField(help_text='The table\'s name, e.g. "Two-card Guts #3".')
    status = serializers.ChoiceField(choices=vocabulary.TABLE_STATUSES)
    variant = serializers.CharField()
    tournament_id = serializers.UUIDField(allow_null=True, help_text="The tournament whose table this is.")
    tournament_name = serializers.CharField(allow_null=True, help_text="Its tournament's name, if any.")
    unit = serializers.CharField(help_text='The chips played here: "chips" (cash) or "t:<tournament>".')
    options = OptionsField()
    pot = serializers.IntegerField()
    reserve = serializers.IntegerField()
    bets = serializers.IntegerField(help_text="The live deal's bets, apart from the pot (D-BET).")
    deal_no = serializers.IntegerField()
    game_no = serializers.IntegerField()
    dealer = player_id_field(allow_null=True)
    phase = serializers.ChoiceField(
        choices=vocabulary.PHASES,
        help_text="new | closed | between_deals | dealing | pass | the kind of the live deal's current step "
        "(declare, betting, draw, ...).",
    )
    turn = players_field(help_text="Whose turn is awaited.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="ISO-8601 UTC deadline of the open turn.")
    seats = SeatSerializer(many=True)
    deal = DealSerializer(allow_null=True)
    legal_actions = LegalActionsField()
    version = serializers.IntegerField(help_text="The table's stream version (also the ETag).")
    names = serializers.DictField(
        child=serializers.CharField(),
        help_text="{player id: display name} for every player id anywhere in this document "
        "(seats, turn, dealer, winners, results, ...).",
    )

    class Meta:
        ref_name = "Table"


class NamedTableSummaries(serializers.ListSerializer):
    """A page of tables, named with one lookup for the page (tables.naming)."""

    def to_representation(self, data: Any) -> Any:
        return name_table_summaries(super().to_representation(data))


class TableSummarySerializer(serializers.Serializer):
    """A table in a list (from the TableView projection)."""

    table_id = serializers.UUIDField()
    name = serializers.SerializerMethodField(help_text='The table\'s name, e.g. "Two-card Guts #3".')
    tournament_name = serializers.SerializerMethodField(
        help_text="Its tournament's name; null at a cash table."
    )
    names = serializers.SerializerMethodField(
        help_text="{player id: display name} for every player id in this row (dealer, turn)."
    )
    variant = serializers.CharField()
    tournament_id = serializers.UUIDField(allow_null=True, help_text="The tournament whose table this is.")
    unit = serializers.CharField(help_text='The chips played here: "chips" (cash) or "t:<tournament>".')
    options = OptionsField()
    stacked = serializers.BooleanField()
    status = serializers.ChoiceField(choices=vocabulary.TABLE_STATUSES)
    deal_no = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=vocabulary.PHASES)
    pot = serializers.IntegerField()
    reserve = serializers.IntegerField()
    dealer = serializers.RegexField(
        r"^[0-9]+$", allow_blank=True, help_text='The dealer\'s player id ("7"); "" before the first deal.'
    )
    turn = players_field(help_text="Whose turn is awaited.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="Deadline of the open turn or window.")
    seated = serializers.IntegerField()
    version = serializers.IntegerField()
    opened_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    class Meta:
        ref_name = "TableSummary"
        list_serializer_class = NamedTableSummaries

    def to_representation(self, instance: Any) -> Any:
        row = super().to_representation(instance)
        return row if isinstance(self.parent, NamedTableSummaries) else name_table_summaries([row])[0]

    def get_name(self, table: Any) -> str:
        return ""  # filled by name_table_summaries

    def get_tournament_name(self, table: Any) -> str | None:
        return None  # filled by name_table_summaries

    def get_names(self, table: Any) -> dict[str, str]:
        return {}  # filled by name_table_summaries


# "from" is a Python keyword, hence the type() call.
TransferSerializer = type(
    "TransferSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "A chip movement between two accounts (DESIGN §2.4).",
        "from": serializers.CharField(),
        "to": serializers.CharField(),
        "amount": serializers.IntegerField(),
        "unit": serializers.CharField(),
        "reason": serializers.CharField(),
        "Meta": type("Meta", (), {"ref_name": "Transfer"}),
    },
)


class DealHandSerializer(serializers.Serializer):
    player = player_id_field()
    player_name = serializers.CharField(
        allow_null=True, help_text="The player's display name (null if no such player)."
    )
    cards = serializers.ListField(child=serializers.CharField(), allow_null=True)
    face_up = serializers.ListField(child=serializers.CharField())
    card_count = serializers.IntegerField()
    declared = serializers.ChoiceField(choices=vocabulary.DECLARED, allow_null=True)
    timed_out = serializers.BooleanField()

    class Meta:
        ref_name = "DealHand"


class DealHistorySerializer(serializers.Serializer):
    """One deal of a history, redacted for the caller."""

    table_id = serializers.UUIDField()
    table_name = serializers.CharField(allow_null=True, help_text="The table's name.")
    deal_no = serializers.IntegerField()
    game_no = serializers.IntegerField()
    dealer = player_id_field()
    participants = players_field()
    hands = DealHandSerializer(many=True)
    shown = players_field()
    winners = players_field()
    losers = players_field()
    outcome = serializers.ChoiceField(choices=vocabulary.OUTCOMES, allow_null=True)
    over = serializers.BooleanField()
    stacked = serializers.BooleanField()
    commitment = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True)
    pot_before = serializers.IntegerField()
    reserve_before = serializers.IntegerField()
    pot_after = serializers.IntegerField(allow_null=True)
    reserve_after = serializers.IntegerField(allow_null=True)
    transfers = TransferSerializer(many=True)
    board = serializers.ListField(child=serializers.CharField(), help_text="Community cards (423-02).")
    results = DealResultsField(
        help_text=(
            "Every stage's results in order: {stage, type, data} for each result event (ShowdownHeld "
            "with the hands shown and their values, PotSettled, ...), redacted for the caller "
            "(a private comparison's hands only for the players compared, and auditors after the deal)."
        )
    )
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    names = serializers.DictField(
        child=serializers.CharField(),
        help_text="{player id: display name} for every player id anywhere in this document "
        "(seats, turn, dealer, winners, results, ...).",
    )

    class Meta:
        ref_name = "DealHistory"
