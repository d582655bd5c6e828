"""Italian poker (IT, D-IT-01..05): five-card draw with openers and side pots."""

from __future__ import annotations

from typing import Any

from tables.engine.decider.variants.model import Option, Stage, Step, Variant, step
from tables.engine.decider.variants.options import _table_options

IT_PLAYERS = 10  # D-IT-05: 2 to 10


def _italian_round(multiple: int, **params: Any) -> Step:
    """D-IT-02: a poker betting round of everyone dealt in, all-ins and side pots allowed."""
    return step(
        "betting",
        who="all",
        unit="$bet_unit",
        multiple=multiple,
        limit="$limit",
        all_in=True,
        ranking="italian",
        **params,
    )


ITALIAN = Variant(
    name="italian",
    title="Italian poker",
    rules="IT, EX-10, EX-11, D-IT-01..05, D-GEN-01, D-GEN-02",
    deck="italian",  # D-IT-01, Table IT-A
    stages=(
        Stage(
            "first round",
            (
                step("ante", who="every_deal"),  # IT-05, IT-11
                step("deal", count=5, face="down"),  # IT-06
                _italian_round(1, opens="jacks"),  # IT-07..11, D-IT-02
            ),
        ),
        Stage(
            "draw",
            (
                step("draw", max=4),  # IT-12..16, D-IT-03
                _italian_round(2, first="opener"),  # IT-17, D-IT-02
                step("pots", ranking="italian", ties="$ties"),  # IT-18..40, D-IT-02..04
            ),
        ),
    ),
    options=(
        *_table_options(IT_PLAYERS),
        Option(
            "bet_unit",
            "int",
            0,
            "the bet and raise size of the first round, twice that in the "
            "second (under pot limit the least bet); 0 = the ante",
            "D-IT-02, Q-IT-07",
            minimum=0,
        ),
        Option(
            "limit",
            "choice",
            "fixed",
            "fixed limit (bets and raises of one unit, two in the "
            "second round, at most three raises a round) or pot limit (a bet from the round's "
            "unit, a raise by at least the last raise, up to the pot after calling)",
            "D-IT-02, Q-IT-07",
            choices=("fixed", "pot"),
        ),
        Option(
            "ties",
            "choice",
            "default",
            "how equal hands are separated: the suit rules of the "
            "source (default) or Fantini's kicker suit (fantini)",
            "IT-32..40, D-IT-04",
            choices=("default", "fantini"),
        ),
    ),
)
