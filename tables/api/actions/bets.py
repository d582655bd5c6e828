"""The betting round (D-BET; Italian poker, D-IT-02).

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
from tables.engine.decider import vocabulary
from tables.schema.actions import TurnFields, action_field, chips_by_choice, player_id_field
from tables.schema.results import players_field


class PotSerializer(serializers.Serializer):
    """D-IT-02: one pot of a poker deal (0: the main pot, then the side pots)."""

    pot = serializers.IntegerField()
    account = serializers.CharField(
        required=False, help_text="Its account: the main pot `pot:<table>`, side pot n `sidepot:<table>:<n>`."
    )
    amount = serializers.IntegerField()
    before_betting = serializers.IntegerField(
        required=False, help_text="The main pot: its antes and any pot carried from a passed deal (IT-11)."
    )
    held = serializers.IntegerField(
        required=False,
        help_text="Chips its account holds now (an open round's bets are gathered at its end).",
    )
    contributors = players_field()
    contributions = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Each contributor's bets in this pot."
    )
    eligible = players_field()

    class Meta:
        ref_name = "TablePot"


class BettingSerializer(serializers.Serializer):
    """D-BET: the deal's betting, public."""

    total = serializers.IntegerField(help_text="Chips in the deal's bets account, apart from the pot.")
    stakes = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's stake in the current (or last) round."
    )
    bets = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's bets in this deal."
    )
    high = serializers.IntegerField(help_text="The highest stake of the round; 0 = no bet open.")
    raises = serializers.IntegerField(help_text="Raises made in the round (at most three).")
    unit = serializers.IntegerField(
        allow_null=True, help_text="The bet and raise size while the round is open."
    )
    folded = players_field()
    open = serializers.BooleanField(help_text="The betting round is under way.")
    opener = player_id_field(
        required=False, allow_null=True, help_text="Italian poker: who opened the first round (IT-07)."
    )
    passed = serializers.BooleanField(
        required=False,
        help_text="Italian poker: nobody opened, the deal is passed and the pot stays (IT-11).",
    )
    round = serializers.IntegerField(
        required=False, allow_null=True, help_text="Italian poker: the open round, 1 or 2 (IT-17)."
    )
    limit = serializers.ChoiceField(choices=vocabulary.BET_LIMITS, required=False, help_text="D-IT-02.")
    all_in = players_field(
        required=False,
        help_text="Italian poker: the players all in (D-IT-02).",
    )
    to_call = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Italian poker: while a round is open, what each player still betting must put in to call.",
    )
    pots = PotSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text=(
            "Italian poker: the main pot and the side pots as standard poker forms them from the stakes "
            "so far, each with its contributors and the players still in who may win it (D-IT-02)."
        ),
    )

    class Meta:
        ref_name = "TableBetting"


@command_schema(
    "tables_bets_create",
    "Bet: check, bet, call, raise or fold",
    example={"deal_no": 4, "action": "raise"},
    problems=(
        *TURN_PROBLEMS,
        "invalid_choice",
        "bet_not_allowed",
        "raise_limit",
        "insufficient_stack",
        "invalid_amount",
        "cannot_open",
    ),
)
class BetsApi(ActionApi):
    """Your turn in the betting round (D-BET: Jacks and Piss, Three to Five): fixed limit, the size
    is the table's bet_unit (default the ante); with no bet open check, bet or fold; facing a bet
    call, raise (at most three raises a round) or fold. Your legal action `bet` lists the choices
    and the chips each moves (`amounts`). A folder forfeits his bets and still matches the pot at
    its size before the betting. Italian poker (D-IT-02): the first round is opened (`open`) only
    with jacks or better (else 409 cannot_open), everyone checking passes the deal (IT-11); under
    pot limit `amount` is any size from `amounts` to `most`; a call or bet the stack cannot cover
    is all in, with side pots."""

    route = "bets"  # D-BET
    deal_view = {  # the keys its kind adds to the deal view, as documented in TableDeal
        "betting": BettingSerializer(
            allow_null=True, help_text="The betting of the deal (D-BET); null in games without betting."
        ),
    }

    class InputSerializer(SeededInput):
        deal_no = live_deal_no()
        action = serializers.ChoiceField(choices=["check", "bet", "open", "call", "raise", "fold"])
        amount = ChipAmountField(
            min_value=0,
            max_value=2**31 - 1,
            required=False,
            allow_null=True,
            help_text="Optional: the chips the action moves (JSON integer), as your "
            "legal action's `amounts` says; another value is refused "
            "(400 invalid_amount).",
        )

        class Meta:
            ref_name = "BetInput"

    class LegalActionSerializer(TurnFields):
        action = action_field("bet", "POST /tables/{table_id}/bets with one of `choices` (D-BET).")
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

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Bet:
        return cmd.Bet(acting_player(request), data["deal_no"], data["action"], data.get("amount"))
