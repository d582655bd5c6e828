"""questioning: Wolfie's Lou's "who would beat a pair?" (WL-04, WL-05, D-WL-02), by the server.

The "in" players' hands are ranked by ``ranking`` (standard five-card poker) without showing
them; only the holder of the best hand, the trump chooser, is named. An exact tie goes to the
tied player nearest the dealer's left. The ranking itself is recorded sealed in
`TrumpChooserNamed.ranking` (auditors see it once the deal is over, `visibility`). With fewer
than two "in" players nothing is asked (D-WL-01: nobody in, the pot carries; a lone "in" has
already taken it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tables.engine import RANKINGS
from tables.engine.decider import events as ev
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps.base import Ctx, StepKind, param, slot_of, with_slot
from tables.engine.decider.steps.showdown import hand_value


class QuestioningSlot(NamedTuple):
    """The trump chooser the questioning named (None: not asked)."""

    chooser: str | None = None


NAME = "questioning"


_EMPTY = QuestioningSlot()


def chooser_of(deal: DealState) -> str | None:
    """The player the questioning named to choose trump (WL-05), if any."""
    return slot_of(deal, NAME, _EMPTY).chooser


def run(ctx: Ctx[QuestioningParams]) -> list[ev.Event]:
    deal = ctx.deal
    players = deal.in_players()
    if len(players) < 2:
        return []
    values = [(hand_value(deal.hand_of(p), ctx.params.ranking), p) for p in players]
    best = max(value for value, _ in values)
    chooser = next(p for value, p in values if value == best)  # in order: the dealer's left first
    ranked = sorted(values, key=lambda vp: (vp[0], -players.index(vp[1])), reverse=True)
    return [
        ev.TrumpChooserNamed(
            deal_no=deal.deal_no,
            chooser=chooser,
            ranking=[{"player": p, "value": str(value), "category": value.category} for value, p in ranked],
        )
    ]


def start(deal: DealState, params: QuestioningParams) -> DealState:
    return with_slot(deal, NAME, _EMPTY)


def fold(state: TableState, e: ev.TrumpChooserNamed) -> TableState:
    deal = state.deal
    assert deal is not None
    return state._replace(deal=with_slot(deal, NAME, QuestioningSlot(chooser=e.chooser)))


@dataclass(frozen=True, slots=True)
class QuestioningParams:
    """The questioning step's parameters."""

    ranking: str = param("poker", choices=tuple(RANKINGS))


KIND = StepKind(
    name=NAME,
    params=QuestioningParams,
    run=run,
    start=start,
    folds={ev.TrumpChooserNamed: fold},
    slot=QuestioningSlot,
)
