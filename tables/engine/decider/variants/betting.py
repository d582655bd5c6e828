"""Games with a betting round (D-BET): Three to Five and Jacks and Piss."""

from __future__ import annotations

from tables.engine.decider.variants.model import PACK_SIZE, Option, Stage, Step, Variant, step
from tables.engine.decider.variants.options import ACE_LOW, BET_UNIT, GHOST, _guts_options


def _betting_and_showdown(showdown: Step) -> tuple[Step, ...]:
    """D-BET: the betting round, the showdown among those still in the betting, the pot matched
    at its pre-betting size (the bets are apart from it, JP-12, T25-04), the bets to the winner(s)."""
    return (
        step("betting", unit="$bet_unit"),  # JP-10, T25-03, D-BET
        showdown,  # JP-11, T25-04
        step("settle", rule="match_pot_each", all_out="$all_out"),  # JP-12, T25-04, G2-13
        step("award_bets"),  # D-BET
    )


THREE_TO_FIVE = Variant(
    name="three_to_five",
    title="Three to Five",
    rules="T25, D-BET, G2, CAP, RES, SIM",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # T25-03: classic Guts, G2-05
                step("deal", count=3, face="down"),  # T25-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # T25-03
                step("lone_in", rule="takes_pot"),  # G2-11: no more cards
                step("deal", count=2, face="down", to="in_players"),  # T25-02, Q-T25-01: face down
                *_betting_and_showdown(
                    step("showdown", ranking="poker", ace_low="$ace_low", all_out="$all_out")
                ),  # T25-05
            ),
        ),
    ),
    options=(*_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")), ACE_LOW, BET_UNIT),
)


JP_PLAYERS = (PACK_SIZE - 1 - 4) // 4  # four cards each, the piss card, one whole draw: 11
DRAW_MAX = Option(
    "draw_max",
    "int",
    0,
    'the most cards an "in" player may exchange; 0 = no limit (all four)',
    "JP-09, JP-14",
    minimum=0,
    maximum=4,
)

JACKS_AND_PISS = Variant(
    name="jacks_and_piss",
    title="Jacks and Piss",
    rules="JP, EX-04, EX-05, D-BET, G2, GH, CAP, RES, SIM, D-GEN-02, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule", ghost="$ghost"),  # classic Guts (CZV-03); GH-06
                step("deal", count=4, face="down", ghost="$ghost"),  # JP-01; the Kitty, JP-15
                step("deal", count=1, face="up", to="board"),  # JP-01, JP-04: the piss card
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # JP-06, JP-07
                step("lone_in", rule="takes_pot", ghost="$ghost"),  # JP-13
                step("exchange", rule="draw", max="$draw_max", who="in_players"),  # JP-02, JP-09, JP-14
                *_betting_and_showdown(
                    step(
                        "showdown",
                        ranking="poker",
                        wild=(11,),
                        board=True,
                        wild_board=True,
                        ace_low="$ace_low",
                        all_out="$all_out",
                        ghost="$ghost",
                    )
                ),  # JP-03..05, JP-11, GH-04
            ),
        ),
    ),
    options=(*_guts_options(JP_PLAYERS, all_out=("carry", "extra_ante")), ACE_LOW, BET_UNIT, DRAW_MAX, GHOST),
    game_ends="lone_in_wins",
)  # JP-13
