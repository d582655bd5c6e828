"""The legal actions of a table view as the OpenAPI document describes them: a union discriminated
by `action`, one schema per action, each with exactly the fields the engine's offers carry
(tables.engine.decider.view.legal_actions and each step kind's `offers`).

The view is rendered as the engine built it (tables.api.views.sight_response); these serializers
only document it. `LEGAL_ACTIONS` maps every action the engine can offer to its schema; a test
holds it to `vocabulary.ACTIONS`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
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


def _action(name: str, help_text: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=[name], help_text=help_text)


class _TurnFields(serializers.Serializer):
    """What every action offered in a turn of the live deal carries."""

    deal_no = serializers.IntegerField(help_text="The live deal: send it with the command.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn times out (null: no timer)."
    )
    overdue = serializers.BooleanField(help_text="The deadline has passed; the timer is about to act.")


class SitDownActionSerializer(serializers.Serializer):
    action = _action("sit_down", "POST /tables/{table_id}/seats with a buy_in in [min, max].")
    min = serializers.IntegerField(help_text="The smallest buy-in.")
    max = serializers.IntegerField(allow_null=True, help_text="The largest buy-in; null: no maximum.")

    class Meta:
        ref_name = "SitDownAction"


class TopUpActionSerializer(serializers.Serializer):
    action = _action("top_up", "POST /tables/{table_id}/top-ups with an amount in [min, max].")
    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True, help_text="null: no maximum.")

    class Meta:
        ref_name = "TopUpAction"


class LeaveActionSerializer(serializers.Serializer):
    action = _action("leave", "POST /tables/{table_id}/leave.")
    cash_out = serializers.IntegerField(help_text="The chips your bankroll gets back.")

    class Meta:
        ref_name = "LeaveAction"


class StartDealActionSerializer(serializers.Serializer):
    action = _action("start_deal", "POST /tables/{table_id}/deals.")

    class Meta:
        ref_name = "StartDealAction"


class SitOutActionSerializer(serializers.Serializer):
    action = _action("sit_out", "POST /tables/{table_id}/sit-out.")

    class Meta:
        ref_name = "SitOutAction"


class SitInActionSerializer(serializers.Serializer):
    action = _action("sit_in", "POST /tables/{table_id}/sit-in.")

    class Meta:
        ref_name = "SitInAction"


class DeclareActionSerializer(_TurnFields):
    action = _action("declare", "POST /tables/{table_id}/declares with one of `choices`.")
    stage = serializers.IntegerField(help_text="The open declare's stage (1-based).")
    choices = serializers.ListField(
        child=serializers.ChoiceField(choices=vocabulary.DECLARE_CHOICES),
        help_text="in | out; Four-Three's second declare: high | low | both (43-03).",
    )
    in_cost = serializers.IntegerField(help_text="The most declaring in can cost.")

    class Meta:
        ref_name = "DeclareAction"


class PassActionSerializer(_TurnFields):
    action = _action("pass", "POST /tables/{table_id}/passes with one of `choices`.")
    choices = cards_field(help_text="Your cards: the one to pass.")
    direction = serializers.ChoiceField(
        choices=["left"], required=False, help_text="left (EXC-03); absent: to your right (AO-06)."
    )

    class Meta:
        ref_name = "PassAction"


class BidActionSerializer(_TurnFields):
    action = _action("bid", "POST /tables/{table_id}/bids: an amount in [min, max], or none to pass.")
    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True, help_text="null: no maximum (allow_debt).")
    high_bid = serializers.IntegerField(help_text="The standing bid (MCA-04), 0 = none.")
    high_bidder = player_id_field(allow_null=True, help_text="Who bid it; null: nobody yet.")

    class Meta:
        ref_name = "BidAction"


class ExchangeActionSerializer(_TurnFields):
    action = _action("exchange", "POST /tables/{table_id}/exchanges: min to max of `choices`.")
    min = serializers.IntegerField()
    max = serializers.IntegerField(help_text="The most cards you may replace (EXC-01/02).")
    choices = cards_field(help_text="Your cards.")
    openers = cards_field(
        required=False,
        help_text="Italian poker, to the opener: his openers; discarding any needs split_openers (IT-16).",
    )

    class Meta:
        ref_name = "ExchangeAction"


class EscalateActionSerializer(_TurnFields):
    action = _action("escalate", "POST /tables/{table_id}/escalations with one of `choices`.")
    choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.ESCALATION_CHOICES))
    level = serializers.ChoiceField(choices=vocabulary.ESCALATION_LEVELS, help_text="The pot's level now.")
    accepted = serializers.ChoiceField(
        choices=vocabulary.ESCALATION_LEVELS, help_text="The highest level you accepted."
    )
    risks = chips_by_choice(
        "Chips each choice risks: a level, what losing there costs; fold, what you pay (T38-04)."
    )

    class Meta:
        ref_name = "EscalateAction"


class BetActionSerializer(_TurnFields):
    action = _action("bet", "POST /tables/{table_id}/bets with one of `choices` (D-BET).")
    choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.BET_CHOICES))
    amounts = chips_by_choice("The chips each choice moves (under pot limit: the least).")
    to_call = serializers.IntegerField(help_text="Chips to match the highest stake.")
    unit = serializers.IntegerField(help_text="The bet and raise size (bet_unit).")
    raises_left = serializers.IntegerField(help_text="Raises left in the round.")
    most = chips_by_choice(
        "Italian poker: the most chips each choice may move (pot limit, or all in for less, D-IT-02).",
        required=False,
    )
    limit = serializers.ChoiceField(choices=vocabulary.BET_LIMITS, required=False, help_text="D-IT-02.")

    class Meta:
        ref_name = "BetAction"


class OfferActionSerializer(_TurnFields):
    action = _action("offer", "POST /tables/{table_id}/offers: take (naming a card of `give`) or leave.")
    choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.OFFER_CHOICES))
    card = serializers.CharField(help_text="The middle card offered (BF-02).")
    give = cards_field(help_text="The cards you may put in its place if you take it.")

    class Meta:
        ref_name = "OfferAction"


class TrumpActionSerializer(_TurnFields):
    action = _action("trump", "POST /tables/{table_id}/trump with one of `choices` (WL-06).")
    choices = serializers.ListField(child=serializers.ChoiceField(choices=vocabulary.TRUMP_CHOICES))

    class Meta:
        ref_name = "TrumpAction"


class PlayActionSerializer(_TurnFields):
    action = _action("play", "POST /tables/{table_id}/plays with one of `choices`.")
    trick = serializers.IntegerField(help_text="The trick, 1..5 (WL-07).")
    choices = cards_field(help_text="Exactly the cards you may play (D-WL-04).")

    class Meta:
        ref_name = "PlayAction"


LEGAL_ACTIONS: dict[str, type[serializers.Serializer]] = {
    "sit_down": SitDownActionSerializer,
    "top_up": TopUpActionSerializer,
    "leave": LeaveActionSerializer,
    "start_deal": StartDealActionSerializer,
    "sit_out": SitOutActionSerializer,
    "sit_in": SitInActionSerializer,
    "declare": DeclareActionSerializer,
    "pass": PassActionSerializer,
    "bid": BidActionSerializer,
    "exchange": ExchangeActionSerializer,
    "escalate": EscalateActionSerializer,
    "bet": BetActionSerializer,
    "offer": OfferActionSerializer,
    "trump": TrumpActionSerializer,
    "play": PlayActionSerializer,
}

LEGAL_ACTION_UNION = PolymorphicProxySerializer(
    component_name="TableLegalAction",
    serializers=LEGAL_ACTIONS,
    resource_type_field_name="action",
    many=True,
)
