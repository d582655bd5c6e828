"""Monte Carlo's auction of the open hand (MCA-04, D-MC-04).

The command at the HTTP edge (its view, body and route) and the legal action that offers it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from http_edge.api.input import ChipAmountField
from tables.api.views import (
    TURN_PROBLEMS,
    ActionApi,
    SeededInput,
    acting_player,
    command_schema,
    live_deal_no,
)
from tables.engine.decider import commands as cmd
from tables.schema.actions import TurnFields, action_field, player_id_field


class AuctionSerializer(serializers.Serializer):
    high_bid = serializers.IntegerField(help_text="The standing bid for the open hand, 0 = none.")
    high_bidder = player_id_field(allow_null=True, help_text="Who bid it; null: nobody yet.")

    class Meta:
        ref_name = "TableAuction"


@command_schema(
    "tables_bids_create",
    "Bid for the open hand, or pass",
    example={"deal_no": 4, "amount": 20},
    problems=(
        *TURN_PROBLEMS,
        "bid_too_low",
        "invalid_amount",
        "insufficient_stack",
    ),
)
class BidsApi(ActionApi):
    """Monte Carlo's open-hand auction (open_hand=auction, MCA-04, D-MC-04): on your turn bid more
    than the standing bid, or pass (no amount). When everyone else has passed after a bid, the
    high bidder pays it into the pot and swaps hands with the open hand."""

    route = "bids"  # MCA-04
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "auction": AuctionSerializer(
            allow_null=True,
            help_text="The open hand's auction while it runs (MCA-04, D-MC-04); null otherwise.",
        ),
    }

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        amount = ChipAmountField(
            min_value=1,
            max_value=2**31 - 1,
            required=False,
            allow_null=True,
            help_text="Chips bid (JSON integer); absent or null to pass.",
        )

        class Meta:
            ref_name = "BidInput"

    class LegalActionSerializer(TurnFields):
        action = action_field(
            "bid", "POST /tables/{table_id}/bids: an amount in [min, max], or none to pass."
        )
        min = serializers.IntegerField()
        max = serializers.IntegerField(allow_null=True, help_text="null: no maximum (allow_debt).")
        high_bid = serializers.IntegerField(help_text="The standing bid (MCA-04), 0 = none.")
        high_bidder = player_id_field(allow_null=True, help_text="Who bid it; null: nobody yet.")

        class Meta:
            ref_name = "BidAction"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Bid:
        return cmd.Bid(acting_player(request), data["deal_no"], data.get("amount"))
