"""Thirty Eight's escalation (T38-03/04, D-T38-01).

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
from tables.engine.decider import vocabulary
from tables.engine.decider.steps.escalation import Escalate
from tables.schema.actions import TurnFields, action_field, chips_by_choice, player_id_field


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


@command_schema(
    "tables_escalations_create",
    "Accept, raise or fold in the escalation",
    example={"deal_no": 4, "action": "double"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_choice",
        "level_too_low",
        "insufficient_stack",
    ),
)
class EscalationsApi(ActionApi):
    """Thirty Eight's escalation instead of betting (T38-03/04, D-T38-01): on your turn (clockwise
    among the "in" players from the dealer's left, round again after a raise) accept the pot's
    level, raise it (single, double, triple: times the pot; triple is the most) or fold and pay
    the highest level you had accepted. Your legal action `escalate` lists the choices and what
    each risks."""

    route = "escalations"  # T38-03
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "escalation": EscalationSerializer(
            allow_null=True,
            help_text="Thirty Eight's escalation once it has started (T38-03); null otherwise.",
        ),
    }

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        action = serializers.ChoiceField(
            choices=["single", "double", "triple", "fold"],
            help_text="A level at or above the pot's (accept, raise), or fold.",
        )

        class Meta:
            ref_name = "EscalationInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("escalate", "POST /tables/{table_id}/escalations with one of `choices`.")
        choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.ESCALATION_CHOICES))
        level = serializers.ChoiceField(
            choices=vocabulary.ESCALATION_LEVELS, help_text="The pot's level now."
        )
        accepted = serializers.ChoiceField(
            choices=vocabulary.ESCALATION_LEVELS, help_text="The highest level you accepted."
        )
        risks = chips_by_choice(
            "Chips each choice risks: a level, what losing there costs; fold, what you pay (T38-04)."
        )

        class Meta:
            ref_name = "EscalateAction"

    def command(self, request: Request, data: dict[str, Any]) -> Escalate:
        return Escalate(acting_player(request), data["deal_no"], data["action"])
