"""trump: Wolfie's Lou's trump choice (WL-05, WL-06, D-WL-05).

The player the questioning named (`questioning.chooser_of`) names a suit (``c``, ``d``, ``h``,
``s``), ``no_trump`` (the highest card wins) or ``reverse`` (cards rank in reverse, twos highest;
reverse names no suit, D-WL-05). Said aloud: public. Nothing to choose without a chooser (fewer
than two "in" players, D-WL-01). A turn not taken by its deadline chooses ``no_trump`` (the
plain game, which favours no suit the chooser may hold: an interpretation).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tables.engine.cards import SUITS
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import questioning
from tables.engine.decider.steps.base import (
    Ctx,
    NoParams,
    StepKind,
    deadline,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class TrumpSlot(NamedTuple):
    """The trump chosen (None: not yet, or no tricks in this deal)."""

    trump: str | None = None


NAME = "trump"
NO_TRUMP, REVERSE = "no_trump", "reverse"
CHOICES = (*SUITS, NO_TRUMP, REVERSE)  # WL-06 (a), (b), (c)
ON_TIMEOUT = NO_TRUMP


_EMPTY = TrumpSlot()


def trump_of(deal: DealState) -> str | None:
    """The deal's trump: a suit letter, no_trump or reverse (None before it is chosen)."""
    return slot_of(deal, NAME, _EMPTY).trump


def done(ctx: Ctx[NoParams]) -> bool:
    return questioning.chooser_of(ctx.deal) is None or trump_of(ctx.deal) is not None


def run(ctx: Ctx[NoParams]) -> list[ev.Event]:
    deal = ctx.deal
    chooser = questioning.chooser_of(deal)
    if deal.awaiting or chooser is None:
        return []
    return [ev.TrumpOpened(deal_no=deal.deal_no, player=chooser, deadline=deadline(ctx))]


def check_trump(ctx: Ctx[NoParams], c: cmd.ChooseTrump) -> str:
    deal = check_acting(ctx.state, c.player_id, c.deal_no)
    if c.player_id not in deal.awaiting:
        raise DomainError(
            "not_your_turn", f"it is not {c.player_id}'s turn to choose trump", player=c.player_id
        )
    if c.trump not in CHOICES:
        raise DomainError(
            "invalid_choice", f"trump is one of {list(CHOICES)}, not {c.trump!r}", choices=list(CHOICES)
        )
    return c.trump


def choose(ctx: Ctx[NoParams], c: cmd.ChooseTrump, trump: str) -> list[ev.Event]:
    return [ev.TrumpChosen(deal_no=c.deal_no, player=c.player_id, trump=trump)]


def offers(ctx: Ctx[NoParams], player: str) -> list[dict[str, Any]]:
    deal = ctx.deal
    if player not in deal.awaiting:
        return []
    return [{"action": "trump", "choices": list(CHOICES), **turn_fields(deal, ctx.now)}]


def expire(ctx: Ctx[NoParams]) -> list[ev.Event]:
    deal = ctx.deal
    return [
        ev.TrumpChosen(deal_no=deal.deal_no, player=p, trump=ON_TIMEOUT, timed_out=True)
        for p in deal.awaiting
    ]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """Who chooses trump and what he chose (public)."""
    chooser = questioning.chooser_of(deal)
    return {"trump": trump_of(deal), "trump_chooser": chooser}


def start(deal: DealState, params: NoParams) -> DealState:
    return with_slot(deal._replace(awaiting=(), deadline=None), NAME, _EMPTY)


def fold_opened(state: TableState, e: ev.TrumpOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_chosen(state: TableState, e: ev.TrumpChosen) -> TableState:
    deal = state.deal
    assert deal is not None
    moved = deal._replace(awaiting=(), deadline=None)
    return state._replace(deal=with_slot(moved, NAME, TrumpSlot(trump=e.trump)))


KIND = StepKind(
    name=NAME,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.TrumpOpened: fold_opened, ev.TrumpChosen: fold_chosen},
    commands={cmd.ChooseTrump: (check_trump, choose)},
    actions=("trump",),
    offers=offers,
    expire=expire,
    view=view,
    slot=TrumpSlot,
)
