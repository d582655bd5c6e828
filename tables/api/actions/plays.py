"""Wolfie's Lou's tricks (WL-07..09, D-WL-03/04).

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from tables.api.views import TURN_PROBLEMS, ActionApi, acting_player, command_schema, live_deal_no
from tables.engine.decider import commands as cmd
from tables.schema.actions import TurnFields, action_field, cards_field, player_id_field


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


@command_schema(
    "tables_plays_create",
    "Play a card to the trick",
    example={"deal_no": 4, "card": "Ah"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_card",
        "card_not_held",
        "must_play_trump",
    ),
)
class PlaysApi(ActionApi):
    """Wolfie's Lou's tricks (WL-07..09, D-WL-03/04): on your turn play a card of your hand; holding
    a trump you must play one (409 must_play_trump). Your legal action `play` lists exactly the
    cards the server accepts. The card is public at once."""

    route = "plays"  # WL-07..09
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "tricks": TricksSerializer(
            allow_null=True,
            help_text="Wolfie's Lou's tricks once the first card is played (WL-07..11); null otherwise.",
        ),
    }

    class InputSerializer(serializers.Serializer):
        deal_no = live_deal_no()
        card = serializers.CharField(max_length=3, help_text="A card of your hand, e.g. 'Ah' or '10d'.")

        class Meta:
            ref_name = "PlayInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("play", "POST /tables/{table_id}/plays with one of `choices`.")
        trick = serializers.IntegerField(help_text="The trick, 1..5 (WL-07).")
        choices = cards_field(help_text="Exactly the cards you may play (D-WL-04).")

        class Meta:
            ref_name = "PlayAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.PlayCard:
        return cmd.PlayCard(acting_player(request), data["deal_no"], data["card"])
