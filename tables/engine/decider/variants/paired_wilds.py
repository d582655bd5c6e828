"""Consecutive and Alternating Guts (CONS, ALT, D-CONS-01)."""

from __future__ import annotations

from tables.engine.decider.variants.model import PACK_SIZE, Stage, Variant, step
from tables.engine.decider.variants.options import _guts_options


def _paired_wilds(ranking: str) -> tuple[Stage, ...]:
    """CONS-01..05, ALT-01/02: five cards, a sequential declare (D-CONS-01), the best three of five
    with pair-made wilds (the ranking: EX-06, EX-07), the classic settlement (CZV-03)."""
    return (
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # CONS-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # D-CONS-01
                step("all_out", rule="$all_out"),
                step("showdown", ranking=ranking, all_out="$all_out"),  # CONS-02..04, ALT-02
                step("settle", rule="match_pot_each", all_out="$all_out"),  # CONS-01, G2-13
            ),
        ),
    )


CONSECUTIVE = Variant(
    name="consecutive",
    title="Consecutive Guts",
    rules="CONS, EX-06, D-CONS-01, G2, CAP, RES",
    stages=_paired_wilds("consecutive"),
    options=_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")),
    game_ends="lone_in_wins",
)  # CONS-05

ALTERNATING = Variant(
    name="alternating",
    title="Alternating Guts",
    rules="ALT, CONS, EX-07, D-CONS-01, G2, CAP, RES",
    stages=_paired_wilds("alternating"),
    options=_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")),
    game_ends="lone_in_wins",
)  # CONS-05 (ALT-01)
