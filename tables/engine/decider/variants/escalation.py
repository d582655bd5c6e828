"""Thirty Eight (T38, D-T38-01) and Four-Three (43, D-43-01): the escalation and the
high/low/both declare."""

from __future__ import annotations

from tables.engine.decider.variants.model import PACK_SIZE, Option, Stage, Variant, step
from tables.engine.decider.variants.options import ACE_LOW, BET_UNIT, DECLARE_MODE, MAX_LOSS, _table_options

DEALER_FORCED_IN = Option(
    "dealer_forced_in",
    "bool",
    True,
    "dealer automatically in when all others are out (sequential declare only)",
    "G2-10, D-G2-05",
)
HIGH_LOW = ("high", "low", "both")  # 43-03


def _thirty_eight_options() -> tuple[Option, ...]:
    return (
        *_table_options(PACK_SIZE // 5),
        DECLARE_MODE,
        DEALER_FORCED_IN,
        MAX_LOSS,
        ACE_LOW,
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02, NSP-01..02",
            choices=("split", "no_split"),
        ),
    )


THIRTY_EIGHT = Variant(
    name="thirty_eight",
    title="Thirty Eight",
    rules="T38, T25, D-T38-01, G2, SIM",
    stages=(
        Stage(
            "three to five",
            (
                step("ante"),  # G2-05: on an empty pot
                step("deal", count=3, face="down"),  # T25-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # T25-03
                step("lone_in", rule="takes_pot"),  # G2-11
                step("deal", count=2, face="down", to="in_players"),  # T25-02
                step("escalation", levels=("single", "double", "triple")),  # T38-03/04, D-T38-01
                step("showdown", ranking="poker", wild=(3, 8), ace_low="$ace_low"),  # T25-05, T38-02/05
                step("settle", rule="match_escalated"),  # T38-04/05, D-T38-01
            ),
        ),
    ),
    options=_thirty_eight_options(),
)


FOUR_THREE_BETTING = Option(
    "betting",
    "bool",
    False,
    "a fixed-limit betting round (D-BET) after the "
    "three more cards, before the High/Low/Both declare; the pot is matched at "
    "its pre-betting size and the bets go to the winner(s)",
    "43-07, D-BET",
)

FOUR_THREE = Variant(
    name="four_three",
    title="Four-Three",
    rules="43, D-43-01, D-BET, G2, SIM",
    stages=(
        Stage(
            "four cards",
            (
                step("ante", who="every_deal"),  # 43-01, Q-CZV-01
                step("deal", count=4, face="down"),  # D-43-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # G2-08
                step("lone_in", rule="takes_pot"),  # G2-11
            ),
        ),
        Stage(
            "three more",
            (
                step("deal", count=3, face="down", to="in_players"),  # 43-02
                step("betting", when="betting", unit="$bet_unit"),  # 43-07, D-BET
                step(
                    "declare", mode="simultaneous", who="in_players", choices=HIGH_LOW, timeout="high"
                ),  # 43-03, D-43-01
                step("high_low_showdown", high="poker", low="low_a5"),  # 43-04, D-43-01
                step("settle", rule="high_low"),  # 43-05, 43-06, D-43-01
                step("award_bets", when="betting"),  # 43-07, D-BET
            ),
        ),
    ),
    options=(
        *_table_options(PACK_SIZE // 7),
        DECLARE_MODE,
        DEALER_FORCED_IN,
        MAX_LOSS,
        FOUR_THREE_BETTING,
        BET_UNIT,
    ),
)
