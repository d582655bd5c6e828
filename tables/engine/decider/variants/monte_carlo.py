"""Monte Carlo and Survivor Guts (MC, SUR)."""

from __future__ import annotations

from tables.engine.decider import ghost
from tables.engine.decider.variants.model import Option, Stage, Variant, step
from tables.engine.decider.variants.options import ACE_LOW, _table_options

MC_PLAYERS = 10  # MC-01, PLAYERS_001


def _monte_carlo_options() -> tuple[Option, ...]:
    return (
        *_table_options(MC_PLAYERS),
        Option(
            "replenish_cap",
            "int",
            50,
            "most the losers replenish together, in antes; the winner "
            "still takes the whole pot (CAP_PAY_LIMIT_ONLY); 0 = the whole pot",
            "MC-13, CAP-01, CAP-02, D-CAP",
            minimum=0,
        ),
        Option(
            "pot_limit",
            "int",
            0,
            "an additional limit on the pot, in chips; 0 = none",
            "MCA-03, CAP-01",
            minimum=0,
        ),
        Option(
            "cap_rule",
            "choice",
            "pay_limit_only",
            "pot above pot_limit: losers pay at most pot_limit, or the excess waits in a reserve",
            "MCA-03, CAP-01, D-CAP, RES-01..03",
            choices=("pay_limit_only", "reserve"),
        ),
        Option(
            "all_out",
            "choice",
            "carry",
            "every player out: the pot carries (MC-15); the best "
            "hand replenishes it (MCA-01); each passes a card right and declares again (MCA-06); "
            "one more card each and a new declare (MCA-07)",
            "MC-15, MCA-01, MCA-06, MCA-07, AO-01, AO-05..07, D-AO",
            choices=("carry", "best_matches", "pass_right", "extra_card"),
        ),
        Option(
            "lone_in",
            "choice",
            "takes_pot",
            'a lone "in" player takes the pot (MC-11), or '
            "must beat the deck's top two cards, else replenishes it (MCA-02, Q-MC-03 (a))",
            "MC-11, MCA-02, Q-MC-03",
            choices=("takes_pot", "vs_deck"),
        ),
        Option(
            "open_hand",
            "choice",
            ghost.NONE,
            "an extra hand dealt face up: face_up, every "
            '"in" player must beat it (a tie loses), and when none does nobody takes the pot '
            'and the "in" players replenish it; auction, before the declare the players bid in '
            "turn for it and the high bidder pays his bid into the pot and swaps hands with it",
            "MCA-05, Q-MC-05, GH-04, GH-05, D-GH-02, MCA-04, D-MC-04",
            choices=(ghost.NONE, ghost.FACE_UP, ghost.AUCTION),
        ),
        ACE_LOW,
    )


def _monte_carlo(settle_rule: str, *, worst: bool) -> tuple[Stage, ...]:
    ranking = "guts3_sf_high"  # MC-02, 3C-06
    return (
        Stage(
            "deal",
            (
                step("ante", who="every_deal"),  # MC-09, MC-14, D-MC-01
                step("deal", count=3, face="down", ghost="$open_hand"),  # MC-01, MC-09, MCA-04/05
                step("auction", rule="$open_hand"),  # MCA-04, D-MC-04
                step("declare", mode="simultaneous"),  # MC-10, SIM-01
                step("all_out", rule="$all_out"),  # MCA-06, MCA-07
                step(
                    "lone_in",
                    rule="$lone_in",
                    count=2,
                    ranking=ranking,
                    wild=(),
                    ace_low="$ace_low",
                    loser_skips_ante=True,
                    ghost="$open_hand",
                ),  # MC-11, MCA-02, D-MC-01
                step(
                    "showdown",
                    ranking=ranking,
                    best=3,
                    all_out="$all_out",
                    ace_low="$ace_low",
                    worst=worst,
                    ghost="$open_hand",
                ),  # MC-02..04, MCA-01, MCA-05
                step("settle", rule=settle_rule, all_out="$all_out"),  # MC-12/13, SV-02/03, MC-15
            ),
        ),
    )


MONTE_CARLO = Variant(
    name="monte_carlo",
    title="Monte Carlo Guts",
    rules="MC, MCA, SIM, CAP, D-MC-01, D-MC-04, D-CAP",
    stages=_monte_carlo("losers_share", worst=False),
    options=_monte_carlo_options(),
    game_ends="round_over",
    new_players_wait=True,
    min_buy_in_antes=100,
)

SURVIVOR = Variant(
    name="survivor",
    title="Survivor Guts",
    rules="SV, MC, MCA, SIM, CAP, D-MC-01, D-MC-04, D-CAP",
    stages=_monte_carlo("worst_replenishes", worst=True),
    options=_monte_carlo_options(),
    game_ends="round_over",
    new_players_wait=True,
    min_buy_in_antes=100,
)
