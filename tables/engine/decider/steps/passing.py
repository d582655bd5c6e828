"""The sealed pass window two kinds open (all_out's pass to the right, AO-06; exchange's pass to
the left, EXC-03): every player chooses one card of his hand, sealed, before any is seen. The
window's command, offer, timeout and phase, shared by both kinds (not a kind itself)."""

from __future__ import annotations

from typing import Any

from tables.engine.cards import CardError, parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_deal, check_open
from tables.engine.decider.state import DealState
from tables.engine.decider.steps.base import Check, Ctx, Handle, turn_fields


def check_pass(ctx: Ctx[Any], c: cmd.PassCard) -> str:
    """AO-06: the player is in the open pass window and holds the card; returns it normalised."""
    state, player = ctx.state, c.player_id
    check_open(state)
    check_deal(state, c.deal_no)
    deal = ctx.deal
    if not deal.passing or player not in deal.order:
        raise DomainError("not_your_turn", "no pass is open for this player", player=player)
    if deal.passed[deal.position(player)] is not None:
        raise DomainError("already_passed", f"{player} has passed a card", player=player)
    try:
        text = str(parse_card(c.card))
    except CardError:
        raise DomainError("invalid_card", f"not a card: {c.card!r}", card=c.card) from None
    if text not in deal.hand_of(player):
        raise DomainError("invalid_card", f"{text} is not in the player's hand", card=text)
    return text


def pass_card(ctx: Ctx[Any], c: cmd.PassCard, card: str) -> list[ev.Event]:
    return [ev.CardPassed(deal_no=c.deal_no, player=c.player_id, card=card, timed_out=False)]


ACTION = "pass"  # the legal action of the window, answered by PassCard
COMMANDS: dict[type, tuple[Check, Handle]] = {cmd.PassCard: (check_pass, pass_card)}


def timeout(ctx: Ctx[Any]) -> list[ev.Event]:
    """AO-06, EXC-03: whoever has not chosen passes his first card."""
    deal = ctx.deal
    return [
        ev.CardPassed(deal_no=deal.deal_no, player=p, timed_out=True, card=deal.hand_of(p)[0])
        for p in deal.awaiting
    ]


def offers(ctx: Ctx[Any], player: str, direction: str | None) -> list[dict[str, Any]]:
    """The pass action: the cards he may pass, and which way (left for EXC-03)."""
    deal = ctx.deal
    if not deal.passing or player not in deal.awaiting:
        return []
    action: dict[str, Any] = {
        "action": ACTION,
        "deal_no": deal.deal_no,
        "choices": list(deal.hand_of(player)),
        **turn_fields(deal, ctx.now),
    }
    if direction is not None:
        action["direction"] = direction
    return [action]


def phase(deal: DealState, kind: str) -> str:
    return "pass" if deal.passing else kind
