"""A deal's results as the OpenAPI document describes them: a union discriminated by `type`, one
schema per result event (tables.engine.decider.evolve.RESULTS), each `data` the event's fields as
the caller may see them (a secret the caller may not see yet is null: visibility.redact_event).

Rendered as the engine and the audit module built them; these serializers only document them. A
test holds `RESULTS` to the engine's list.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from tables.engine.decider import vocabulary
from tables.schema.actions import cards_field, player_id_field


def players_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=player_id_field(), **kwargs)


# "from" is a Python keyword, hence the type() call.
ResultTransferSerializer = type(
    "ResultTransferSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "A chip movement between two accounts (DESIGN §2.4).",
        "from": serializers.CharField(help_text="The account paying."),
        "to": serializers.CharField(help_text="The account paid."),
        "amount": serializers.IntegerField(),
        "unit": serializers.CharField(required=False, help_text='"chips", or "t:<tournament>".'),
        "reason": serializers.CharField(),
        "Meta": type("Meta", (), {"ref_name": "ResultTransfer"}),
    },
)


def _transfers() -> Any:
    return ResultTransferSerializer(many=True)


class ShownHandSerializer(serializers.Serializer):
    player = player_id_field()
    cards = cards_field()
    value = serializers.CharField(help_text='The hand\'s value in words, e.g. "pair of aces".')
    category = serializers.CharField(help_text='Its category, e.g. "pair".')

    class Meta:
        ref_name = "ShownHand"


class ShownGhostSerializer(serializers.Serializer):
    cards = cards_field()
    value = serializers.CharField()
    category = serializers.CharField()
    won = serializers.BooleanField()

    class Meta:
        ref_name = "ShownGhost"


class ShowdownSidesSerializer(serializers.Serializer):
    high = players_field()
    low = players_field()
    both_failed = players_field(required=False)

    class Meta:
        ref_name = "ShowdownSides"


class AntesPostedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    due = serializers.BooleanField(help_text="False: the pot carries and nobody antes (G2-05).")
    ante = serializers.IntegerField()
    paid = players_field()
    sat_out = players_field(help_text="Seated, not dealt in (D-GEN-06).")
    exempt = players_field(required=False, allow_null=True, help_text="Excused (SL-04, D-AO-02).")
    transfers = _transfers()

    class Meta:
        ref_name = "AntesPostedData"


class ShowdownHeldSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["contested", "uncontested", "all_out"])
    hands = ShownHandSerializer(
        many=True, allow_null=True, help_text="The hands shown with their values; null: hidden from you."
    )
    winners = players_field()
    losers = players_field()
    private = serializers.BooleanField(
        required=False, help_text="A private comparison (357-09): hands only for the players compared."
    )
    worst = players_field(required=False, allow_null=True, help_text="Survivor: the worst hand(s) (SV-02).")
    ghost = ShownGhostSerializer(required=False, allow_null=True, help_text="The ghost hand (GH-03..05).")
    sides = ShowdownSidesSerializer(required=False, allow_null=True, help_text="43-05, D-43-01.")

    class Meta:
        ref_name = "ShowdownHeldData"


class DeckComparedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    player = player_id_field()
    cards = cards_field()
    deck_cards = cards_field()
    player_value = serializers.CharField()
    deck_value = serializers.CharField()
    winner = serializers.ChoiceField(choices=["player", "deck"], help_text="Ties go to the deck.")

    class Meta:
        ref_name = "DeckComparedData"


class PotSettledSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=vocabulary.OUTCOMES)
    winners = players_field()
    matchers = players_field()
    pot = serializers.IntegerField(help_text="The pot after the settlement.")
    reserve = serializers.IntegerField()
    ante_exempt = players_field(required=False, allow_null=True)
    transfers = _transfers()

    class Meta:
        ref_name = "PotSettledData"


class LegAwardedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    stage = serializers.IntegerField()
    player = player_id_field()
    legs = serializers.IntegerField(help_text="His legs now (357-04).")

    class Meta:
        ref_name = "LegAwardedData"


class PotAwardedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    player = player_id_field()
    legs = serializers.IntegerField()
    transfers = _transfers()

    class Meta:
        ref_name = "PotAwardedData"


class BetsAwardedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    winners = players_field()
    amount = serializers.IntegerField()
    transfers = _transfers()

    class Meta:
        ref_name = "BetsAwardedData"


class NobodyOpenedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    pot = serializers.IntegerField()

    class Meta:
        ref_name = "NobodyOpenedData"


class AwardedPotSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="0: the main pot, then the side pots.")
    amount = serializers.IntegerField()
    contributors = players_field()
    eligible = players_field()
    winners = players_field()
    shares = serializers.DictField(child=serializers.IntegerField(), help_text="Chips won, by player.")

    class Meta:
        ref_name = "AwardedPot"


class ReturnedBetSerializer(serializers.Serializer):
    player = player_id_field()
    amount = serializers.IntegerField()

    class Meta:
        ref_name = "ReturnedBet"


class PotsAwardedSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=["contested", "uncontested"])
    pots = AwardedPotSerializer(many=True)
    returned = ReturnedBetSerializer(allow_null=True, help_text="An uncalled bet back to its bettor.")
    transfers = _transfers()

    class Meta:
        ref_name = "PotsAwardedData"


class OpenersShownSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    player = player_id_field()
    openers = cards_field()
    split = serializers.BooleanField(help_text="He split his openers in the draw (IT-16).")

    class Meta:
        ref_name = "OpenersShownData"


class GatheredPotSerializer(serializers.Serializer):
    pot = serializers.IntegerField(help_text="0: the main pot, then the side pots.")
    account = serializers.CharField(help_text='Its account: "pot:<table>" or "sidepot:<table>:<n>".')
    amount = serializers.IntegerField(help_text="The chips it holds so far.")
    contributors = players_field()
    eligible = players_field()
    contributions = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each contributor's bets in this pot."
    )

    class Meta:
        ref_name = "GatheredPot"


class BetsGatheredSerializer(serializers.Serializer):
    deal_no = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The betting round over: 1 before the draw, 2 after.")
    pots = GatheredPotSerializer(many=True, help_text="Every pot as formed so far (D-IT-02).")
    transfers = _transfers()

    class Meta:
        ref_name = "BetsGatheredData"


RESULT_DATA: dict[str, type[serializers.Serializer]] = {
    "AntesPosted": AntesPostedSerializer,
    "ShowdownHeld": ShowdownHeldSerializer,
    "DeckCompared": DeckComparedSerializer,
    "PotSettled": PotSettledSerializer,
    "LegAwarded": LegAwardedSerializer,
    "PotAwarded": PotAwardedSerializer,
    "BetsAwarded": BetsAwardedSerializer,
    "NobodyOpened": NobodyOpenedSerializer,
    "PotsAwarded": PotsAwardedSerializer,
    "OpenersShown": OpenersShownSerializer,
    "BetsGathered": BetsGatheredSerializer,
}


def _result(event_type: str, data: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """{stage, type, data} of one result event."""
    fields = {
        "stage": serializers.IntegerField(help_text="The program's stage it happened in (1-based)."),
        "type": serializers.ChoiceField(choices=[event_type]),
        "data": data(),
        "Meta": type("Meta", (), {"ref_name": f"{event_type}Result"}),
        "__doc__": f"A {event_type} event of the deal, as you may see it.",
    }
    return type(f"{event_type}ResultSerializer", (serializers.Serializer,), fields)


RESULTS: dict[str, type[serializers.Serializer]] = {
    event_type: _result(event_type, data) for event_type, data in RESULT_DATA.items()
}

DEAL_RESULTS = PolymorphicProxySerializer(
    component_name="DealResult", serializers=RESULTS, resource_type_field_name="type", many=True
)


@extend_schema_field(DEAL_RESULTS)
class DealResultsField(serializers.ListField):
    """A deal's results, rendered as the engine built them (each item a JSON object), documented
    as the union above."""

    child = serializers.DictField()
