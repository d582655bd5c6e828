"""Wolfie's Lou's choice of the trump (WL-05, WL-06, D-WL-05).

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from tables.api.views import TURN_PROBLEMS, ActionApi, acting_player, command_schema, live_deal_no
from tables.engine.decider import commands as cmd
from tables.engine.decider import vocabulary
from tables.schema.actions import TurnFields, action_field, player_id_field


@command_schema(
    "tables_trump_create",
    "Choose the trump",
    example={"deal_no": 4, "trump": "h"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_choice",
    ),
)
class TrumpApi(ActionApi):
    """Wolfie's Lou (WL-05, WL-06, D-WL-05): the holder of the best poker hand among the "in"
    players (named by the server's questioning, D-WL-02) names a suit, no_trump (the highest card
    wins) or reverse (twos highest, no suit)."""

    route = "trump"  # WL-06
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "trump": serializers.ChoiceField(
            choices=vocabulary.TRUMP_CHOICES,
            allow_null=True,
            help_text="Wolfie's Lou's trump once chosen: c, d, h, s, no_trump or reverse (WL-06).",
        ),
        "trump_chooser": player_id_field(
            allow_null=True,
            help_text='Who chooses trump: the best poker hand among the "in" players (WL-04/05, D-WL-02).',
        ),
    }

    class InputSerializer(serializers.Serializer):
        deal_no = live_deal_no()
        trump = serializers.ChoiceField(choices=["c", "d", "h", "s", "no_trump", "reverse"])

        class Meta:
            ref_name = "TrumpInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("trump", "POST /tables/{table_id}/trump with one of `choices` (WL-06).")
        choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.TRUMP_CHOICES))

        class Meta:
            ref_name = "TrumpAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.ChooseTrump:
        return cmd.ChooseTrump(acting_player(request), data["deal_no"], data["trump"])
