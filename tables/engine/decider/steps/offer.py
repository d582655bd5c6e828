"""offer: Buddha's Folly's middle card (BF-02..04, D-BF-01).

The dealer turns the top card of the stock face up in the middle and offers it to the player on
his left. On his turn a player leaves the card, or takes it and puts one of his own cards face up
in its place; either way the offer passes to his left. The offering ends when the current middle
card has gone round without being taken (BF-04, D-BF-01: every player in turn, the dealer last,
declined it once). Interpretation: a card put in the middle is offered to every *other* player
(the one who put it there already chose it over the card he took), so the round that ends the
offering is of everyone while the first card is in the middle, and of everyone but its giver
after a take.

The middle card and every card put in its place are public (`MiddleCardTurned`, `OfferAnswered`);
the rest of each hand stays private. The card left in the middle at the end is out of play.
A turn not taken by its deadline leaves the card.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import (
    Ctx,
    NoParams,
    StepKind,
    deadline,
    held_card,
    next_cards,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class OfferSlot(NamedTuple):
    """The middle card (None before it is turned), the index in `order` of the next player to be
    offered it, how many have declined it in a row, who put it there (-1: the stock), and every
    take so far as (player, took, gave)."""

    middle: str | None = None
    next_at: int = 0
    declined: int = 0
    giver: int = -1
    swaps: tuple[tuple[str, str, str], ...] = ()


NAME = "offer"
TAKE, LEAVE = "take", "leave"


_EMPTY = OfferSlot()


def offer_of(deal: DealState) -> OfferSlot:
    return slot_of(deal, NAME, _EMPTY)


def _round(deal: DealState, slot: OfferSlot) -> int:
    """How many must decline the middle card in a row: everyone, or everyone but its giver."""
    return len(deal.order) - (1 if slot.giver >= 0 else 0)


def done(ctx: Ctx[NoParams]) -> bool:
    slot = offer_of(ctx.deal)
    return slot.middle is not None and slot.declined >= _round(ctx.deal, slot)


def run(ctx: Ctx[NoParams]) -> list[ev.Event]:
    deal, slot = ctx.deal, offer_of(ctx.deal)
    if slot.middle is None:
        return [ev.MiddleCardTurned(deal_no=deal.deal_no, card=next_cards(ctx, 1)[0])]  # BF-02
    if deal.awaiting:
        return []
    return [
        ev.OfferOpened(
            deal_no=deal.deal_no, player=deal.order[slot.next_at], card=slot.middle, deadline=deadline(ctx)
        )
    ]


def check_offer(ctx: Ctx[NoParams], c: cmd.Offer) -> str | None:
    """BF-03: the player's turn; take names a card of his hand (returned normalised), leave none."""
    deal = check_acting(ctx.state, c.player_id, c.deal_no)
    if c.player_id not in deal.awaiting:
        raise DomainError(
            "not_your_turn", f"it is not {c.player_id}'s turn to answer the offer", player=c.player_id
        )
    if c.action == LEAVE:
        if c.card is not None:
            raise DomainError("invalid_card", "leave gives no card", card=str(c.card))
        return None
    if c.action != TAKE:
        raise DomainError("invalid_choice", f"take or leave, not {c.action!r}", choices=[TAKE, LEAVE])
    if c.card is None:
        raise DomainError("invalid_card", "take names the card you put in the middle's place")
    return held_card(deal.hand_of(c.player_id), c.card)


def answer(ctx: Ctx[NoParams], c: cmd.Offer, gave: str | None) -> list[ev.Event]:
    middle = offer_of(ctx.deal).middle
    assert middle is not None
    return [ev.OfferAnswered(deal_no=c.deal_no, player=c.player_id, action=c.action, card=middle, gave=gave)]


def offers(ctx: Ctx[NoParams], player: str) -> list[dict[str, Any]]:
    deal, slot = ctx.deal, offer_of(ctx.deal)
    if player not in deal.awaiting or slot.middle is None:
        return []
    return [
        {
            "action": "offer",
            "choices": [TAKE, LEAVE],
            "card": slot.middle,
            "give": list(deal.hand_of(player)),
            **turn_fields(deal, ctx.now),
        }
    ]


def expire(ctx: Ctx[NoParams]) -> list[ev.Event]:
    """A turn not taken in time leaves the card."""
    deal, slot = ctx.deal, offer_of(ctx.deal)
    assert slot.middle is not None
    return [
        ev.OfferAnswered(deal_no=deal.deal_no, player=p, action=LEAVE, card=slot.middle, timed_out=True)
        for p in deal.awaiting
    ]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """The middle card, whose offer it is, how many declined it, and every exchange (public)."""
    slot = offer_of(deal)
    if slot.middle is None:
        return {"offer": None}
    step = state.current_step()
    turn = deal.awaiting[0] if step is not None and step.kind == NAME and deal.awaiting else None
    return {
        "offer": {
            "middle": slot.middle,
            "turn": turn,
            "declined": slot.declined,
            "exchanges": [{"player": p, "took": took, "gave": gave} for p, took, gave in slot.swaps],
        }
    }


def start(deal: DealState, params: NoParams) -> DealState:
    return with_slot(deal._replace(awaiting=(), deadline=None), NAME, _EMPTY)


def fold_turned(state: TableState, e: ev.MiddleCardTurned) -> TableState:
    deal = state.deal
    assert deal is not None
    slot = OfferSlot(middle=e.card)
    return state._replace(deal=with_slot(deal._replace(dealt=deal.dealt + 1), NAME, slot))


def fold_opened(state: TableState, e: ev.OfferOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_answered(state: TableState, e: ev.OfferAnswered) -> TableState:
    deal = state.deal
    assert deal is not None
    slot, i, n = offer_of(deal), deal.position(e.player), len(deal.order)
    moved = deal._replace(awaiting=(), deadline=None)
    if e.action == TAKE and e.gave is not None:
        hand = tuple(card for card in deal.hand_of(e.player) if card != e.gave)
        moved = moved._replace(hands=set_at(deal.hands, i, (*hand, e.card)))
        slot = slot._replace(
            middle=e.gave, declined=0, giver=i, swaps=(*slot.swaps, (e.player, e.card, e.gave))
        )
    else:
        slot = slot._replace(declined=slot.declined + 1)
    after = (i + 1) % n
    if after == slot.giver:  # a card is not offered back to its giver
        after = (after + 1) % n
    return state._replace(deal=with_slot(moved, NAME, slot._replace(next_at=after)))


def cards(params: NoParams, per_player: int) -> tuple[int, int]:
    """D-GEN-02: the middle card comes from the stock."""
    return 0, 1


KIND = StepKind(
    name=NAME,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.MiddleCardTurned: fold_turned, ev.OfferOpened: fold_opened, ev.OfferAnswered: fold_answered},
    commands={cmd.Offer: (check_offer, answer)},
    actions=("offer",),
    offers=offers,
    expire=expire,
    view=view,
    cards=cards,
    slot=OfferSlot,
)
