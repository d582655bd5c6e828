"""Output shapes of the tables API (the engine builds the values; these describe and render them)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from tables.engine.decider import vocabulary
from tables.naming import name_table_summaries
from tables.schema.actions import legal_actions, player_id_field
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


class AuctionSerializer(serializers.Serializer):
    high_bid = serializers.IntegerField(help_text="The standing bid for the open hand, 0 = none.")
    high_bidder = player_id_field(allow_null=True, help_text="Who bid it; null: nobody yet.")

    class Meta:
        ref_name = "TableAuction"


class EscalationPlayerSerializer(serializers.Serializer):
    player = player_id_field()
    accepted = serializers.ChoiceField(
        choices=vocabulary.ESCALATION_LEVELS, allow_null=True, help_text="The highest level he accepted."
    )
    folded = serializers.BooleanField(help_text="Folded: pays his accepted level (T38-04).")

    class Meta:
        ref_name = "TableEscalationPlayer"


class EscalationSerializer(serializers.Serializer):
    level = serializers.ChoiceField(
        choices=vocabulary.ESCALATION_LEVELS, help_text="single | double | triple (T38-03)."
    )
    multiple = serializers.IntegerField(help_text="The level as a multiple of the pot.")
    value = serializers.IntegerField(allow_null=True, help_text="The pot at this level; null once settled.")
    players = EscalationPlayerSerializer(many=True)

    class Meta:
        ref_name = "TableEscalation"


class SidesSerializer(serializers.Serializer):
    high = players_field()
    low = players_field()

    class Meta:
        ref_name = "TableSides"


class PotSerializer(serializers.Serializer):
    """D-IT-02: one pot of a poker deal (0: the main pot, then the side pots)."""

    pot = serializers.IntegerField()
    account = serializers.CharField(
        required=False, help_text="Its account: the main pot `pot:<table>`, side pot n `sidepot:<table>:<n>`."
    )
    amount = serializers.IntegerField()
    before_betting = serializers.IntegerField(
        required=False, help_text="The main pot: its antes and any pot carried from a passed deal (IT-11)."
    )
    held = serializers.IntegerField(
        required=False,
        help_text="Chips its account holds now (an open round's bets are gathered at its end).",
    )
    contributors = players_field()
    contributions = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Each contributor's bets in this pot."
    )
    eligible = players_field()

    class Meta:
        ref_name = "TablePot"


class BettingSerializer(serializers.Serializer):
    """D-BET: the deal's betting, public."""

    total = serializers.IntegerField(help_text="Chips in the deal's bets account, apart from the pot.")
    stakes = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's stake in the current (or last) round."
    )
    bets = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's bets in this deal."
    )
    high = serializers.IntegerField(help_text="The highest stake of the round; 0 = no bet open.")
    raises = serializers.IntegerField(help_text="Raises made in the round (at most three).")
    unit = serializers.IntegerField(
        allow_null=True, help_text="The bet and raise size while the round is open."
    )
    folded = players_field()
    open = serializers.BooleanField(help_text="The betting round is under way.")
    opener = player_id_field(
        required=False, allow_null=True, help_text="Italian poker: who opened the first round (IT-07)."
    )
    passed = serializers.BooleanField(
        required=False,
        help_text="Italian poker: nobody opened, the deal is passed and the pot stays (IT-11).",
    )
    round = serializers.IntegerField(
        required=False, allow_null=True, help_text="Italian poker: the open round, 1 or 2 (IT-17)."
    )
    limit = serializers.ChoiceField(choices=vocabulary.BET_LIMITS, required=False, help_text="D-IT-02.")
    all_in = players_field(
        required=False,
        help_text="Italian poker: the players all in (D-IT-02).",
    )
    to_call = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Italian poker: while a round is open, what each player still betting must put in to call.",
    )
    pots = PotSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text=(
            "Italian poker: the main pot and the side pots as standard poker forms them from the stakes "
            "so far, each with its contributors and the players still in who may win it (D-IT-02)."
        ),
    )

    class Meta:
        ref_name = "TableBetting"


class OfferExchangeSerializer(serializers.Serializer):
    player = player_id_field()
    took = serializers.CharField(help_text="The middle card he took (public).")
    gave = serializers.CharField(help_text="The card of his he put face up in its place (public).")

    class Meta:
        ref_name = "TableOfferExchange"


class OfferSerializer(serializers.Serializer):
    """Buddha's Folly's middle card (BF-02..04, D-BF-01): public."""

    middle = serializers.CharField(help_text="The face-up card in the middle now.")
    turn = player_id_field(allow_null=True, help_text="Whose offer it is; null once the offering is over.")
    declined = serializers.IntegerField(help_text="How many players in a row left the middle card.")
    exchanges = OfferExchangeSerializer(many=True, help_text="Every take so far, in order.")

    class Meta:
        ref_name = "TableOffer"


class TrickCardSerializer(serializers.Serializer):
    player = player_id_field()
    card = serializers.CharField(help_text="Played to the trick: public at once.")

    class Meta:
        ref_name = "TableTrickCard"


class TrickSerializer(serializers.Serializer):
    trick = serializers.IntegerField(help_text="1..5 (WL-07).")
    winner = player_id_field(help_text="Who won it (WL-08, WL-09, D-WL-04); he leads the next.")
    cards = TrickCardSerializer(many=True, help_text="The cards in the order played.")

    class Meta:
        ref_name = "TableTrick"


class TricksSerializer(serializers.Serializer):
    """Wolfie's Lou's tricks (WL-07..11): public."""

    finished = TrickSerializer(many=True)
    current = TrickCardSerializer(many=True, help_text="The trick being played: its cards so far.")
    won = serializers.DictField(
        child=serializers.IntegerField(), help_text="Tricks won so far by each player of the tricks."
    )

    class Meta:
        ref_name = "TableTricks"


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
    auction = AuctionSerializer(
        allow_null=True, help_text="The open hand's auction while it runs (MCA-04, D-MC-04); null otherwise."
    )
    escalation = EscalationSerializer(
        allow_null=True, help_text="Thirty Eight's escalation once it has started (T38-03); null otherwise."
    )
    sides = SidesSerializer(
        allow_null=True,
        help_text="Four-Three: the High and the Low winners once shown (43-05, D-43-01); null otherwise.",
    )
    draws = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=(
            "How many cards each player has drawn in the deal (public; EXC-01/02, JP-09, D-IT-05); null "
            "before any draw."
        ),
    )
    betting = BettingSerializer(
        allow_null=True, help_text="The betting of the deal (D-BET); null in games without betting."
    )
    offer = OfferSerializer(
        allow_null=True,
        help_text="Buddha's Folly's middle card and its offers (BF-02..04); null in other games.",
    )
    trump = serializers.ChoiceField(
        choices=vocabulary.TRUMP_CHOICES,
        allow_null=True,
        help_text="Wolfie's Lou's trump once chosen: c, d, h, s, no_trump or reverse (WL-06).",
    )
    trump_chooser = player_id_field(
        allow_null=True,
        help_text='Who chooses trump: the best poker hand among the "in" players (WL-04/05, D-WL-02).',
    )
    tricks = TricksSerializer(
        allow_null=True,
        help_text="Wolfie's Lou's tricks once the first card is played (WL-07..11); null otherwise.",
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
