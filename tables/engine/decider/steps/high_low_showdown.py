"""high_low_showdown: the "in" players' hands compared on the side(s) each declared (Four-Three:
43-03..05, D-43-01).

Each "in" player has declared ``high``, ``low`` or ``both`` (the declare step before it, sealed and
simultaneous). ``high`` is the ranking of the High side (``poker``: the best five of his cards,
43-04) and ``low`` of the Low side (``low_a5``: ace-to-five, straights and flushes do not count,
no qualifier, D-43-01), each with ``wild`` ranks (none in Four-Three).

High players and Both players contend for the High half, Low and Both players for the Low half.
A Both player must win or tie both halves or wins nothing (D-43-01): he is then struck from both
sides and the sides are judged again without him (so the next best hand of a side he won takes
it). The winners of each side go to ``ShowdownHeld.sides`` ``{"high", "low", "both_failed"}``,
which the showdown's fold keeps as `DealState.sides`; the settlement rule ``high_low`` splits the
pot. Everyone
"in" shows. One "in" (no contest) or nobody: nothing is compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tables.engine import RANKINGS, showdown
from tables.engine.decider import events as ev
from tables.engine.decider.steps.base import Ctx, StepKind, param
from tables.engine.decider.steps.showdown import hand_value
from tables.engine.hand_value import HandValue

HIGH, LOW, BOTH = "high", "low", "both"  # 43-03
SIDES = (HIGH, LOW, BOTH)


def _best(players: Sequence[str], values: dict[str, HandValue]) -> list[str]:
    """The best hand(s) among `players` (ties share), in the order given."""
    if not players:
        return []
    result = showdown([values[p] for p in players])
    return [players[i] for i in result.winners]


def judge(
    declared: dict[str, str], high: dict[str, HandValue], low: dict[str, HandValue], order: Sequence[str]
) -> tuple[list[str], list[str], list[str]]:
    """(High winners, Low winners, Both players struck) by D-43-01: a Both player who does not win
    or tie both sides is struck from both and the sides are judged again, until every Both player
    left wins both. Striking a player never worsens another's standing, so this settles."""
    struck: list[str] = []
    while True:
        highs = [p for p in order if declared.get(p) in (HIGH, BOTH) and p not in struck]
        lows = [p for p in order if declared.get(p) in (LOW, BOTH) and p not in struck]
        high_winners, low_winners = _best(highs, high), _best(lows, low)
        failed = [
            p
            for p in order
            if declared.get(p) == BOTH and p not in struck and (p not in high_winners or p not in low_winners)
        ]
        if not failed:
            return high_winners, low_winners, struck
        struck += failed


def _hand(
    player: str, cards: Sequence[str], side: str, high: HandValue | None, low: HandValue | None
) -> dict[str, Any]:
    parts = {
        name: {"value": str(v), "category": v.category}
        for name, v in ((HIGH, high), (LOW, low))
        if v is not None
    }
    shown = high if high is not None else low
    assert shown is not None
    return {
        "player": player,
        "cards": list(cards),
        "declared": side,
        "value": " / ".join(f"{name}: {part['value']}" for name, part in parts.items()),
        "category": shown.category,
        **parts,
    }


def run(ctx: Ctx[HighLowShowdownParams]) -> list[ev.Event]:
    deal, params = ctx.deal, ctx.params
    in_players = tuple(p for p in deal.in_players() if p not in deal.folded)  # D-BET: not shown
    if len(in_players) < 2:  # G2-11 or all out: no contest
        reason = "uncontested" if in_players else "all_out"
        return [
            ev.ShowdownHeld(
                deal_no=deal.deal_no, reason=reason, hands=[], winners=list(in_players), losers=[]
            )
        ]
    wild = tuple(params.wild)
    declared = {p: str(deal.choice_of(p)) for p in in_players}
    high = {
        p: hand_value(deal.hand_of(p), params.high, wild=wild)
        for p in in_players
        if declared[p] in (HIGH, BOTH)
    }
    low = {
        p: hand_value(deal.hand_of(p), params.low, wild=wild)
        for p in in_players
        if declared[p] in (LOW, BOTH)
    }
    high_winners, low_winners, struck = judge(declared, high, low, in_players)
    winners = [p for p in in_players if p in high_winners or p in low_winners]
    hands = [_hand(p, deal.hand_of(p), declared[p], high.get(p), low.get(p)) for p in in_players]
    return [
        ev.ShowdownHeld(
            deal_no=deal.deal_no,
            reason="contested",
            hands=hands,
            winners=winners,
            losers=[p for p in in_players if p not in winners],
            sides={HIGH: high_winners, LOW: low_winners, "both_failed": struck},
        )
    ]


_NAMES = tuple(RANKINGS)


@dataclass(frozen=True, slots=True)
class HighLowShowdownParams:
    """The high low showdown step's parameters."""

    high: str = param("poker", choices=_NAMES)
    low: str = param("low_a5", choices=_NAMES)
    wild: tuple[int, ...] = ()


KIND = StepKind(
    name="high_low_showdown",
    params=HighLowShowdownParams,
    run=run,
)
