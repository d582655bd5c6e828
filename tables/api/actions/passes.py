"""Passing a card: to the right when all were out (AO-06), to the left before the declare (EXC-03).

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from tables.api.views import (
    TURN_PROBLEMS,
    ActionApi,
    SeededInput,
    acting_player,
    command_schema,
    live_deal_no,
)
from tables.engine.decider import commands as cmd
from tables.schema.actions import TurnFields, action_field, cards_field


@command_schema(
    "tables_passes_create",
    "Pass a card",
    example={"deal_no": 4, "card": "Ks"},
    problems=(
        *TURN_PROBLEMS,
        "already_passed",
        "invalid_card",
    ),
)
class PassesApi(ActionApi):
    """Pass one card: to the player on your right (all_out=pass_right, AO-06: everyone was out), or
    to your left before the declare (exchange=pass_left, EXC-03); all choose sealed."""

    route = "passes"  # AO-06, EXC-03

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        card = serializers.CharField(max_length=3, help_text="A card in your hand, e.g. 'Ks' or '10d'.")

        class Meta:
            ref_name = "PassInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("pass", "POST /tables/{table_id}/passes with one of `choices`.")
        choices = cards_field(help_text="Your cards: the one to pass.")
        direction = serializers.ChoiceField(
            choices=["left"], required=False, help_text="left (EXC-03); absent: to your right (AO-06)."
        )

        class Meta:
            ref_name = "PassAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.PassCard:
        return cmd.PassCard(acting_player(request), data["deal_no"], data["card"])
