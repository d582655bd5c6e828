"""Declaring in or out (and high, low or both, 43-03), in turn or sealed.

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from http_edge.api.input import JsonIntegerField
from tables.api.views import (
    TURN_PROBLEMS,
    ActionApi,
    SeededInput,
    acting_player,
    command_schema,
    live_deal_no,
)
from tables.engine.decider import commands as cmd
from tables.engine.decider import vocabulary
from tables.schema.actions import TurnFields, action_field


@command_schema(
    "tables_declares_create",
    "Declare",
    example={"deal_no": 4, "choice": "in"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_choice",
        "wrong_stage",
        "already_declared",
        "insufficient_stack",
    ),
)
class DeclaresApi(ActionApi):
    """Declare in or out in the live deal (in turn, or sealed in a simultaneous window). In games of
    several stages (Three-Five-Seven, Two plus One) `stage` may name the declare meant: a declare
    sent for a stage that has passed is refused with 409 wrong_stage instead of landing in the next."""

    route = "declares"

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        choice = serializers.ChoiceField(
            choices=["in", "out", "high", "low", "both"],
            help_text="in | out; Four-Three's second declare: high | low "
            "| both (43-03), as your legal action offers.",
        )
        stage = JsonIntegerField(
            min_value=1,
            max_value=99,
            required=False,
            help_text="The open declare's stage (1-based), if given.",
        )

        class Meta:
            ref_name = "DeclareInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("declare", "POST /tables/{table_id}/declares with one of `choices`.")
        stage = serializers.IntegerField(help_text="The open declare's stage (1-based).")
        choices = serializers.ListField(
            child=serializers.ChoiceField(choices=vocabulary.DECLARE_CHOICES),
            help_text="in | out; Four-Three's second declare: high | low | both (43-03).",
        )
        in_cost = serializers.IntegerField(help_text="The most declaring in can cost.")

        class Meta:
            ref_name = "DeclareAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Declare:
        return cmd.Declare(acting_player(request), data["deal_no"], data["choice"], data.get("stage"))
