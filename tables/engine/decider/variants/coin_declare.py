"""Buddha's Folly (BF, D-BF-01) and Wolfie's Lou (WL, EX-09, D-WL-01..06)."""

from __future__ import annotations

from tables.engine.decider.variants.model import PACK_SIZE, Option, Stage, Variant, step
from tables.engine.decider.variants.options import ACE_LOW, _guts_options

_NOT_COIN = frozenset({"declare_mode", "dealer_forced_in"})


def _coin_declare_options(max_seats: int, all_out: tuple[str, ...]) -> tuple[Option, ...]:
    """Classic Guts options (CZV-03) under the Coin Declare (Q-CZV-01: simultaneous, so no declare
    mode and no dealer forced in)."""
    return tuple(o for o in _guts_options(max_seats, all_out=all_out) if o.name not in _NOT_COIN)


BUDDHAS_FOLLY = Variant(
    name="buddhas_folly",
    title="Buddha's Folly",
    rules="BF, D-BF-01, G2, CAP, RES, SIM, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # BF-01
                step("offer"),  # BF-02..04, D-BF-01
                step("declare", mode="simultaneous"),  # BF-05, SIM-04
                step("all_out", rule="$all_out"),
                step("showdown", ranking="poker", ace_low="$ace_low", all_out="$all_out"),  # BF-06, D-BF-01
                step("settle", rule="match_pot_each", all_out="$all_out"),  # BF-06, G2-13
            ),
        ),
    ),
    options=(*_coin_declare_options((PACK_SIZE - 1) // 5, ("carry", "extra_ante")), ACE_LOW),
    game_ends="lone_in_wins",
)  # BF-07

NO_TRICK_DOUBLE = Option(
    "no_trick_double",
    "bool",
    False,
    "a player who wins no trick at all matches double the pot",
    "WL-12, D-WL-06",
)

WOLFIES_LOU = Variant(
    name="wolfies_lou",
    title="Wolfie's Lou",
    rules="WL, EX-09, D-WL-01..06, G2, CAP, RES, SIM, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # WL-01
                step("exchange", rule="draw", max=2),  # WL-02
                step("declare", mode="simultaneous"),  # WL-03, SIM-04
                step("all_out", rule="$all_out"),  # D-WL-01: the pot carries
                step("lone_in", rule="takes_pot"),  # D-WL-01: no tricks
                step("questioning", ranking="poker"),  # WL-04, WL-05, D-WL-02
                step("trump"),  # WL-06, D-WL-05
                step("tricks", no_trick_double="$no_trick_double"),  # WL-07..09, D-WL-03/04
                step("settle", rule="tricks", all_out="$all_out"),  # WL-10..12, D-WL-06
            ),
        ),
    ),
    options=tuple(
        o
        for o in (*_coin_declare_options((PACK_SIZE - 2) // 5, ("carry",)), NO_TRICK_DOUBLE)
        if o.name != "ties"
    ),
    game_ends="lone_in_wins",
)
