"""The legal actions of a table view as the OpenAPI document describes them: one schema per
action, each with exactly the fields the engine's offers carry (tables.engine.decider.view.
legal_actions and each step kind's `offers`), and the typed fields they are made of.

Here are the table's own actions (`TABLE_ACTIONS`: sitting down, topping up, dealing, leaving);
a step kind's action is described beside its command's view (tables.api.actions), which adds it
to `LEGAL_ACTIONS`, the members of the union (tables.api.serializers). The view is rendered as
the engine built it (tables.api.views.sight_response); these serializers only document it.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tables.engine.decider import vocabulary


def player_id_field(**kwargs: Any) -> serializers.RegexField:
    """A player id in JSON: the decimal string of the integer the paths take ("7" for /players/7)."""
    kwargs.setdefault("help_text", 'A player id, as a string ("7"); paths take the same id as a number.')
    return serializers.RegexField(r"^[0-9]+$", **kwargs)


def cards_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), **kwargs)


def chips_by_choice(help_text: str, **kwargs: Any) -> serializers.DictField:
    return serializers.DictField(child=serializers.IntegerField(), help_text=help_text, **kwargs)


def action_field(name: str, help_text: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name], help_text=help_text)


class TurnFields(serializers.Serializer):
    """What every action offered in a turn of the live deal carries."""

    deal_no = serializers.IntegerField(help_text="The live deal: send it with the command.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn times out (null: no timer)."
    )
    overdue = serializers.BooleanField(help_text="The deadline has passed; the timer is about to act.")


class SitDownActionSerializer(serializers.Serializer):
    action = action_field("sit_down", "POST /tables/{table_id}/seats with a buy_in in [min, max].")
    min = serializers.IntegerField(help_text="The smallest buy-in.")
    max = serializers.IntegerField(allow_null=True, help_text="The largest buy-in; null: no maximum.")

    class Meta:
        ref_name = "SitDownAction"


class TopUpActionSerializer(serializers.Serializer):
    action = action_field("top_up", "POST /tables/{table_id}/top-ups with an amount in [min, max].")
    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True, help_text="null: no maximum.")

    class Meta:
        ref_name = "TopUpAction"


class LeaveActionSerializer(serializers.Serializer):
    action = action_field("leave", "POST /tables/{table_id}/leave.")
    cash_out = serializers.IntegerField(help_text="The chips your bankroll gets back.")

    class Meta:
        ref_name = "LeaveAction"


class StartDealActionSerializer(serializers.Serializer):
    action = action_field("start_deal", "POST /tables/{table_id}/deals.")

    class Meta:
        ref_name = "StartDealAction"


class SitOutActionSerializer(serializers.Serializer):
    action = action_field("sit_out", "POST /tables/{table_id}/sit-out.")

    class Meta:
        ref_name = "SitOutAction"


class SitInActionSerializer(serializers.Serializer):
    action = action_field("sit_in", "POST /tables/{table_id}/sit-in.")

    class Meta:
        ref_name = "SitInAction"


TABLE_ACTIONS: dict[str, type[serializers.Serializer]] = {
    "sit_down": SitDownActionSerializer,
    "top_up": TopUpActionSerializer,
    "leave": LeaveActionSerializer,
    "start_deal": StartDealActionSerializer,
    "sit_out": SitOutActionSerializer,
    "sit_in": SitInActionSerializer,
}

LEGAL_ACTIONS: dict[str, type[serializers.Serializer]] = dict(TABLE_ACTIONS)
"""Every legal action's schema by its name: the table's own, then each step kind's, registered by
tables.api.actions as it loads its modules (with the URLconf). The union reads it when the schema
is generated or a view rendered through it, so every kind's edge is loaded by then."""


def action_of(schema: type[serializers.Serializer]) -> str:
    """The action a legal action's schema describes: the one value its `action` field takes."""
    field = schema().fields["action"]
    assert isinstance(field, serializers.ChoiceField)
    (name,) = field.choices
    return str(name)


def legal_action_add(schema: type[serializers.Serializer]) -> None:
    """Register a step kind's legal action (one schema per action name)."""
    name = action_of(schema)
    if LEGAL_ACTIONS.get(name, schema) is not schema:
        raise ValueError(f"two schemas describe the legal action {name!r}")
    LEGAL_ACTIONS[name] = schema


def legal_actions() -> dict[str, type[serializers.Serializer]]:
    """The registered schemas, once they are all there: one for each action of the closed set
    (`vocabulary.ACTIONS`, the table's own and the step kinds')."""
    missing = set(vocabulary.ACTIONS) - set(LEGAL_ACTIONS)
    assert not missing, f"no schema for the legal actions {sorted(missing)} (tables.api.actions)"
    return LEGAL_ACTIONS
