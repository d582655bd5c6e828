"""Serializers of the audit API: query input, and output shapes for the OpenAPI document.

The bodies are built by the audit modules as plain JSON (redacted already); output serializers
pin down their shape for clients. Free-form parts (an event's data, the engine's table view)
are JSON objects whose fields the event catalogue (DESIGN §5.2) and the table API describe.
"""

from __future__ import annotations

from rest_framework import serializers

from http_edge.api.fields import JsonObjectField, JsonObjectListField
from http_edge.api.input import MAX_POSITION, QueryIntegerField, QuerySerializer
from http_edge.api.paging import MAX_PAGE_SIZE, PageQuerySerializer
from tables.audit.feeds import DEFAULT_PAGE
from tables.engine.decider import vocabulary
from tables.schema.actions import player_id_field
from tables.schema.results import DealResultsField, players_field


class FeedQuerySerializer(QuerySerializer):
    after = QueryIntegerField(
        min_value=0,
        max_value=MAX_POSITION,
        default=0,
        help_text="Cursor: only events with a position above this one.",
    )
    limit = QueryIntegerField(
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        default=DEFAULT_PAGE,
        help_text=f"Events per page, 1 to {MAX_PAGE_SIZE} (default {DEFAULT_PAGE}).",
    )
    type = serializers.ListField(
        child=serializers.CharField(max_length=100),
        default=list,
        max_length=50,
        help_text="Event types to keep (repeatable: ?type=A&type=B).",
    )
    since = serializers.DateTimeField(required=False, help_text="Recorded at or after (ISO-8601).")
    until = serializers.DateTimeField(required=False, help_text="Recorded at or before (ISO-8601).")

    class Meta:
        ref_name = "FeedQuery"


class FeedEventSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Global log position: the feed cursor and SSE id.")
    stream = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    table_id = serializers.CharField(allow_null=True)
    deal_no = serializers.IntegerField(allow_null=True)
    data = JsonObjectField(
        help_text="The event's data, redacted for the reader: each secret "
        "key (`data.secret`) the reader may not see yet is null, and "
        "`data.salt` appears only with the values it seals."
    )
    meta = JsonObjectField(
        help_text="The event's meta as stored and hashed (actor, schema_version, idempotency key, ...)."
    )
    commitments = serializers.DictField(
        child=serializers.CharField(),
        help_text="{secret key: sha256(salt:key:canonical value)} for an "
        "event that seals secret facts ({} otherwise): the hash covers these instead of the values.",
    )
    prev_hash = serializers.CharField(
        allow_null=True,
        help_text="The previous event's hash in the stream "
        "(null only after a legacy event hidden from the reader).",
    )
    hash = serializers.CharField(
        allow_null=True,
        help_text="sha256 over the event's chain form (null only for a legacy event hidden from the reader).",
    )

    class Meta:
        ref_name = "FeedEvent"


class FeedPageSerializer(serializers.Serializer):
    results = FeedEventSerializer(many=True)
    cursor = serializers.IntegerField(help_text="Pass as `after` to continue (the last position seen).")
    has_more = serializers.BooleanField(help_text="More events match right now.")
    next = serializers.URLField(allow_null=True, help_text="The next page, null when none is waiting.")

    class Meta:
        ref_name = "FeedPage"


class StreamQuerySerializer(QuerySerializer):
    last_event_id = QueryIntegerField(
        min_value=0,
        max_value=MAX_POSITION,
        default=0,
        help_text="Resume after this position (the Last-Event-ID header wins).",
    )

    class Meta:
        ref_name = "StreamQuery"


class ReplayQuerySerializer(QuerySerializer):
    at = QueryIntegerField(
        min_value=1, max_value=MAX_POSITION, required=False, help_text="Only the step at this stream version."
    )

    class Meta:
        ref_name = "ReplayQuery"


class ReplayStepSerializer(serializers.Serializer):
    event = FeedEventSerializer()
    state = JsonObjectField(
        help_text="The table after this event as the reader may see it: "
        "pot, reserve, seats and stacks, the deal (cards, declares, "
        "whose turn)."
    )

    class Meta:
        ref_name = "ReplayStep"


class ReplaySerializer(serializers.Serializer):
    table_id = serializers.CharField()
    deal_no = serializers.IntegerField()
    finished = serializers.BooleanField()
    rules = JsonObjectField(help_text="Variant and options recorded for this table.")
    before = JsonObjectField(help_text="The table just before the deal started.")
    steps = ReplayStepSerializer(many=True)

    class Meta:
        ref_name = "Replay"


class DealtCardSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 is the top card of the deck, dealt first.")
    player = serializers.CharField()
    card = serializers.CharField(allow_null=True, help_text="The card dealt (null if hidden from you).")
    expected = serializers.CharField(allow_null=True, help_text="The card the seed puts there.")
    matches = serializers.BooleanField(allow_null=True)

    class Meta:
        ref_name = "DealtCard"


class CommittedLeafSerializer(serializers.Serializer):
    """One committed position opened: its card and salt hash to the leaf the path proves."""

    tree = serializers.IntegerField(
        help_text="0: the deck committed before the deal; g: the g-th reshuffled stock (D-GEN-02)."
    )
    position = serializers.IntegerField(help_text="The committed position in that tree.")
    card = serializers.CharField()
    salt = serializers.CharField(help_text="128 bits: sha256(salt || card) is the committed leaf.")
    path = serializers.ListField(
        child=serializers.CharField(), help_text="The RFC 9162 inclusion path of the leaf, sibling first."
    )


class OpeningSerializer(CommittedLeafSerializer):
    index = serializers.IntegerField(help_text="The dealing index: 0 is the first card dealt.")
    player = serializers.CharField(allow_null=True, help_text="Who it was dealt to (null: the stock).")

    class Meta:
        ref_name = "CardOpening"


class OutOfPlaySerializer(CommittedLeafSerializer):
    """A committed card outside a short pack (D-IT-01), never dealt: public."""

    class Meta:
        ref_name = "OutOfPlayOpening"


class ReshuffleProofSerializer(serializers.Serializer):
    generation = serializers.IntegerField()
    count = serializers.IntegerField()
    root = serializers.CharField(allow_null=True)
    first_index = serializers.IntegerField(help_text="The dealing index of its first slot.")

    class Meta:
        ref_name = "ReshuffleProof"


class EntropySerializer(serializers.Serializer):
    player = serializers.CharField()
    client_seed = serializers.CharField()

    class Meta:
        ref_name = "PlayerEntropy"


class ProofSerializer(serializers.Serializer):
    table_id = serializers.CharField()
    deal_no = serializers.IntegerField()
    deck_schema = serializers.IntegerField(
        help_text="1: the seed recipe (old deals, the seed is "
        "public); 2: per-card commitments opened selectively."
    )
    provable = serializers.BooleanField(help_text="False for stacked decks (tests and demos).")
    finished = serializers.BooleanField(
        required=False,
        help_text="False: the deal is being played (deck schema 2): the openings served so far, none "
        "of a card you may not see yet; auditors get every card only once it is over.",
    )
    stacked = serializers.BooleanField()
    ok = serializers.BooleanField(allow_null=True)
    commitment_ok = serializers.BooleanField(allow_null=True)
    commitment = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True)
    pack = serializers.ListField(child=serializers.CharField())
    deck = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="The recomputed deck, top first (auditors)."
    )
    reshuffles = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        required=False,
        help_text="The discards shuffled into the stock when it ran out (D-GEN-02), each batch as "
        "recorded; the deck continues with each batch shuffled by its sub-seed (auditors).",
    )
    reason = serializers.CharField(allow_null=True)
    dealt = DealtCardSerializer(many=True)
    # deck schema 2
    root = serializers.CharField(required=False, help_text="The Merkle root of the committed deck.")
    size = serializers.IntegerField(required=False)
    entropy = EntropySerializer(
        many=True, required=False, help_text="The players' seeds that keyed the permutation, in order."
    )
    player_entropy = serializers.BooleanField(
        required=False, help_text="False: no player contributed a seed, so the house alone fixed the order."
    )
    permutation_key = serializers.CharField(required=False)
    permutation = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="permutation[k]: the committed position dealt k-th.",
    )
    stocks = ReshuffleProofSerializer(
        many=True, required=False, help_text="Each reshuffled stock's committed tree (public)."
    )
    openings = OpeningSerializer(
        many=True,
        required=False,
        help_text="The cards you may see now, opened (auditors, once the deal is over: every position).",
    )
    out_of_play = OutOfPlaySerializer(
        many=True,
        required=False,
        help_text="A short pack's (D-IT-01): the committed cards outside it, opened to everyone from the "
        "deal's start; the k-th card dealt is at the k-th position of `permutation` not among them.",
    )

    class Meta:
        ref_name = "DealProof"


class BrokenEventSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    stream = serializers.CharField()
    version = serializers.IntegerField()
    problem = serializers.CharField()

    class Meta:
        ref_name = "BrokenEvent"


class VerifyReportSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    events = serializers.IntegerField()
    streams = serializers.IntegerField()
    transfers = serializers.IntegerField()
    broken_events = serializers.IntegerField()
    first_broken = BrokenEventSerializer(allow_null=True)
    conservation_problems = serializers.ListField(child=serializers.CharField())
    projection_problems = serializers.ListField(child=serializers.CharField())
    units = serializers.ListField(child=serializers.CharField())
    holds_pending = serializers.IntegerField(help_text="Dispute holds pending within their deadline.")
    hold_problems = serializers.ListField(child=serializers.CharField())
    checkpoints = serializers.IntegerField(help_text="Signed checkpoints checked against the replay.")
    checkpoint_problems = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "LedgerVerifyReport"


class StatementQuerySerializer(PageQuerySerializer):
    unit = serializers.CharField(max_length=100, required=False, help_text="Only lines in this unit.")

    class Meta:
        ref_name = "StatementQuery"


class StatementEventSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    stream = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()

    class Meta:
        ref_name = "AuditStatementEvent"


class DealRefSerializer(serializers.Serializer):
    table_id = serializers.CharField()
    deal_no = serializers.IntegerField()

    class Meta:
        ref_name = "DealRef"


class StatementLineSerializer(serializers.Serializer):
    amount = serializers.IntegerField(help_text="Signed: positive into the account.")
    balance_after = serializers.IntegerField()
    unit = serializers.CharField()
    counterparty = serializers.CharField()
    reason = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    event = StatementEventSerializer()
    table_id = serializers.CharField(allow_null=True)
    deal = DealRefSerializer(allow_null=True, help_text="The deal this transfer belongs to, if any.")
    dispute = JsonObjectField(
        allow_null=True,
        help_text=(
            "The dispute whose hold posting or correction this transfer is: its id, the URL and the "
            "disputed events it corrects (null for any other line)."
        ),
    )
    explanation = serializers.CharField()

    class Meta:
        ref_name = "AuditStatementLine"


class StatementPageSerializer(serializers.Serializer):
    account = serializers.CharField()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = StatementLineSerializer(many=True)
    holds = JsonObjectListField(
        help_text=(
            "The account's dispute holds (pending transfers: they move nothing until posted), each with "
            "its dispute, amount, status, deadline and an explanation."
        )
    )

    class Meta:
        ref_name = "AuditStatementPage"


# --- hand histories (tables.audit.export.deal_history) -------------------------------------------


class HistorySeatSerializer(serializers.Serializer):
    player = player_id_field()
    seat = serializers.IntegerField()
    stack = serializers.IntegerField()

    class Meta:
        ref_name = "HistorySeat"


class HistoryTableSerializer(serializers.Serializer):
    pot = serializers.IntegerField()
    reserve = serializers.IntegerField()
    seats = HistorySeatSerializer(many=True)

    class Meta:
        ref_name = "HistoryTable"


class HistoryHandSerializer(serializers.Serializer):
    player = player_id_field()
    cards = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="null: hidden from you."
    )
    face_up = serializers.ListField(child=serializers.CharField())
    card_count = serializers.IntegerField()
    declared = serializers.ChoiceField(choices=vocabulary.DECLARED, allow_null=True)
    forced = serializers.BooleanField(help_text="Forced in (G2-10).")
    timed_out = serializers.BooleanField()

    class Meta:
        ref_name = "HistoryHand"


class HistoryBetSerializer(serializers.Serializer):
    player = player_id_field()
    action = serializers.ChoiceField(choices=vocabulary.BET_CHOICES)
    amount = serializers.IntegerField()
    timed_out = serializers.BooleanField()
    all_in = serializers.BooleanField()
    stage = serializers.IntegerField(help_text="Italian poker: 1 before the draw, 2 after.")

    class Meta:
        ref_name = "HistoryBet"


class HistoryDrawSerializer(serializers.Serializer):
    player = player_id_field()
    count = serializers.IntegerField(help_text="Cards drawn (public; the cards are private).")
    deferred = serializers.BooleanField(help_text="A four-card draw's last card (IT-15).")
    split_openers = serializers.BooleanField()
    timed_out = serializers.BooleanField()

    class Meta:
        ref_name = "HistoryDraw"


class HistoryOfferAnswerSerializer(serializers.Serializer):
    player = player_id_field()
    action = serializers.ChoiceField(choices=vocabulary.OFFER_CHOICES)
    card = serializers.CharField(allow_null=True)
    gave = serializers.CharField(allow_null=True)
    timed_out = serializers.BooleanField(allow_null=True)

    class Meta:
        ref_name = "HistoryOfferAnswer"


class HistoryOffersSerializer(serializers.Serializer):
    middle = serializers.CharField()
    answers = HistoryOfferAnswerSerializer(many=True)

    class Meta:
        ref_name = "HistoryOffers"


class HistoryTrumpSerializer(serializers.Serializer):
    chooser = player_id_field()
    trump = serializers.ChoiceField(choices=vocabulary.TRUMP_CHOICES, allow_null=True)
    timed_out = serializers.BooleanField()

    class Meta:
        ref_name = "HistoryTrump"


class HistoryTrickCardSerializer(serializers.Serializer):
    player = player_id_field()
    card = serializers.CharField()

    class Meta:
        ref_name = "HistoryTrickCard"


class HistoryTrickSerializer(serializers.Serializer):
    trick = serializers.IntegerField()
    winner = player_id_field()
    cards = HistoryTrickCardSerializer(many=True)

    class Meta:
        ref_name = "HistoryTrick"


class HandHistorySerializer(serializers.Serializer):
    """One deal's hand history as you may see it (the canonical JSON of docs/verify_deal.py)."""

    format = serializers.CharField(help_text='"guts-deal-history/2".')
    table_id = serializers.UUIDField()
    deal_no = serializers.IntegerField()
    game_no = serializers.IntegerField()
    finished = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    variant = serializers.CharField()
    options = serializers.DictField(child=serializers.JSONField())
    players = serializers.DictField(child=serializers.CharField(), help_text="Each player's name, by id.")
    dealer = player_id_field()
    participants = players_field(help_text="Dealt in, from the dealer's left.")
    sat_out = players_field()
    before = HistoryTableSerializer(help_text="The table before the deal.")
    hands = HistoryHandSerializer(many=True)
    board = serializers.ListField(child=serializers.CharField())
    results = DealResultsField()
    betting = HistoryBetSerializer(many=True, help_text="Every betting action (D-BET), public.")
    draws = HistoryDrawSerializer(many=True, help_text="Every draw (EXC-01/02, JP-09, IT-12..16).")
    offers = HistoryOffersSerializer(required=False, help_text="Buddha's Folly (BF-02..04).")
    trump = HistoryTrumpSerializer(required=False, help_text="Wolfie's Lou (WL-05/06).")
    tricks = HistoryTrickSerializer(many=True, required=False, help_text="Wolfie's Lou (WL-07..09).")
    after = HistoryTableSerializer(help_text="The table after the deal (so far).")
    proof = ProofSerializer(allow_null=True, help_text="The fairness proof; null until the deal is over.")
    events = FeedEventSerializer(many=True, help_text="The deal's events as you may see them.")

    class Meta:
        ref_name = "HandHistory"


class TableHistorySerializer(serializers.Serializer):
    format = serializers.CharField(help_text='"guts-table-history/1".')
    table_id = serializers.UUIDField()
    deals = HandHistorySerializer(many=True)

    class Meta:
        ref_name = "TableHistory"
