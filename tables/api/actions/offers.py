"""Buddha's Folly's offer of the middle card (BF-02..04, D-BF-01).

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from tables.api.views import TURN_PROBLEMS, ActionApi, acting_player, command_schema, live_deal_no
from tables.engine.decider import commands as cmd
from tables.engine.decider import vocabulary
from tables.schema.actions import TurnFields, action_field, cards_field, player_id_field


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


@command_schema(
    "tables_offers_create",
    "Take or leave the middle card",
    example={"deal_no": 4, "action": "take", "card": "7c"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_choice",
        "invalid_card",
        "card_not_held",
    ),
)
class OffersApi(ActionApi):
    """Buddha's Folly's offer (BF-02..04, D-BF-01): on your turn leave the face-up middle card, or
    take it and name one of your cards to put face up in its place. The offer goes on to your
    left; it ends when the middle card has gone round untaken."""

    route = "offers"  # BF-02..04
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "offer": OfferSerializer(
            allow_null=True,
            help_text="Buddha's Folly's middle card and its offers (BF-02..04); null in other games.",
        ),
    }

    class InputSerializer(serializers.Serializer):
        deal_no = live_deal_no()
        action = serializers.ChoiceField(choices=["take", "leave"])
        card = serializers.CharField(
            max_length=3,
            required=False,
            allow_null=True,
            help_text="take: a card of your hand to put in the middle card's place; leave: absent.",
        )

        class Meta:
            ref_name = "OfferInput"

    class LegalActionSerializer(TurnFields):
        action = action_field(
            "offer", "POST /tables/{table_id}/offers: take (naming a card of `give`) or leave."
        )
        choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.OFFER_CHOICES))
        card = serializers.CharField(help_text="The middle card offered (BF-02).")
        give = cards_field(help_text="The cards you may put in its place if you take it.")

        class Meta:
            ref_name = "OfferAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Offer:
        return cmd.Offer(acting_player(request), data["deal_no"], data["action"], data.get("card"))
