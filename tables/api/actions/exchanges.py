"""The draw: discarding and taking cards from the stock (EXC-01/02; Italian poker, IT-12..16).

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
    "tables_exchanges_create",
    "Exchange cards (draw)",
    example={"deal_no": 4, "discards": ["7h"]},
    problems=(
        *TURN_PROBLEMS,
        "already_exchanged",
        "invalid_card",
        "invalid_discards",
        "invalid_split",
    ),
)
class ExchangesApi(ActionApi):
    """Your draw before the declare (table option exchange=draw, EXC-01/02): in turn from the
    dealer's left, discard up to the number your legal action's `max` allows and take as many
    cards from the stock; `[]` stands pat. The three-card pass to the left (exchange=pass_left,
    EXC-03) is a pass: POST /tables/{id}/passes. Italian poker's draw (IT-12..16): 0 to 4 cards, a
    four-card draw gets its fourth card after everyone else; the opener discarding any of his
    openers says so with `split_openers` (else 409 invalid_split)."""

    route = "exchanges"  # EXC-01/02, IT-12..16
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "draws": serializers.DictField(
            child=serializers.IntegerField(),
            allow_null=True,
            help_text=(
                "How many cards each player has drawn in the deal (public; EXC-01/02, JP-09, D-IT-05); null "
                "before any draw."
            ),
        ),
    }

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        discards = serializers.ListField(
            child=serializers.CharField(max_length=3),
            max_length=4,
            allow_empty=True,
            help_text="Cards of your hand to replace, e.g. ['7h', '2c']; [] stands pat.",
        )
        split_openers = serializers.BooleanField(
            required=False,
            default=False,
            help_text=("Italian poker: the opener discards cards of his openers (IT-16, D-IT-03)."),
        )

        class Meta:
            ref_name = "ExchangeInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("exchange", "POST /tables/{table_id}/exchanges: min to max of `choices`.")
        min = serializers.IntegerField()
        max = serializers.IntegerField(help_text="The most cards you may replace (EXC-01/02).")
        choices = cards_field(help_text="Your cards.")
        openers = cards_field(
            required=False,
            help_text="Italian poker, to the opener: his openers; discarding any needs split_openers "
            "(IT-16).",
        )

        class Meta:
            ref_name = "ExchangeAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Exchange:
        return cmd.Exchange(
            acting_player(request),
            data["deal_no"],
            list(data["discards"]),
            split_openers=data["split_openers"],
        )
