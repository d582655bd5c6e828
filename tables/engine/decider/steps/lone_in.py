"""lone_in: what exactly one "in" player gets before any further card or showdown.

``rule``: ``takes_pot`` (G2-11, 422-08, D-TPO-01: he wins uncontested and the deal ends),
``earns_leg`` (357-03, 357-08, 357-16, 357-22: a leg, and play goes on), ``vs_deck`` (42X-03,
D-42X-04: his cards against the deck's next ``count`` cards by ``ranking`` with ``wild`` ranks and
``ace_low``; ties go to the deck; beating it takes the pot, losing matches it; the deal ends either
way; ``loser_skips_ante``: losing to the deck excuses him from the next deal's ante, D-MC-01).
MCA-02: two deck cards against a three-card preset are valued as pair or high card (Q-MC-03 (a),
`rankings.guts.evaluate_guts3_short`).
Nobody or several "in", or a ghost or open hand he must beat at the showdown (``ghost``, GH-04,
GH-07, MCA-05): nothing happens here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.engine import RANKINGS
from tables.engine.cards import parse_card
from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.money import Book, Round, affordable, loser_cost, terms_of
from tables.engine.decider.settlement import settle_match_pot_each
from tables.engine.decider.state import TableState, copy_with
from tables.engine.decider.steps.base import Ctx, StepKind, next_cards, param
from tables.engine.decider.steps.settle import settled_event
from tables.engine.decider.steps.showdown import hand_value
from tables.engine.hand_value import HandValue
from tables.engine.rankings.guts import GUTS3_ORDERS, evaluate_guts3_short

RULES = ("takes_pot", "earns_leg", "vs_deck")


def _lone(ctx: Ctx[LoneInParams]) -> str | None:
    players = ctx.deal.in_players()
    if len(players) != 1 or ghost.plays(ctx.params.ghost, 1):
        return None
    return players[0]


def run(ctx: Ctx[LoneInParams]) -> list[ev.Event]:
    player = _lone(ctx)
    if player is None:
        return []
    rule, deal, state = ctx.params.rule, ctx.deal, ctx.state
    if rule == "earns_leg":
        seat = state.seat_of(player)
        legs = (seat.legs if seat is not None else 0) + 1
        return [ev.LegAwarded(deal_no=deal.deal_no, stage=ctx.stage, player=player, legs=legs)]
    if rule == "takes_pot":
        return [settled_event(ctx.deal.deal_no, settle_match_pot_each(_round(ctx, (player,))))]
    return _versus_deck(ctx, player)


def _round(ctx: Ctx[LoneInParams], winners: tuple[str, ...] = ()) -> Round:
    state, deal = ctx.state, ctx.deal
    return Round(
        table=state.table_id,
        order=deal.order,
        choices=deal.choices,
        winners=winners,
        pot=state.pot,
        reserve=state.reserve,
        stacks={s.player: s.stack for s in state.seats},
        terms=terms_of(state.opts),
    )


def _versus_deck(ctx: Ctx[LoneInParams], player: str) -> list[ev.Event]:
    """42X-03, D-42X-04."""
    params, deal = ctx.params, ctx.deal
    cards = list(deal.hand_of(player))
    deck_cards = next_cards(ctx, params.count)
    options = {"ace_low": params.ace_low} if params.ace_low is not None else {}
    mine = hand_value(cards, params.ranking, wild=params.wild, options=options)
    theirs = _deck_value(deck_cards, params.ranking, params.wild, options)
    won = mine.beats(theirs)
    compared = ev.DeckCompared(
        deal_no=deal.deal_no,
        player=player,
        cards=cards,
        deck_cards=deck_cards,
        player_value=str(mine),
        deck_value=str(theirs),
        winner="player" if won else "deck",
    )
    r = _round(ctx)
    book = Book(r.table, r.pot)
    if won:
        book.to_seat(player, r.pot, "pot_won")
        result = book.close("beat_the_deck", (player,), (), r.reserve, r.terms)
    else:
        book.to_pot(player, affordable(loser_cost(r.pot, r.terms), r.stacks[player], r.terms), "pot_matched")
        exempt = (player,) if params.loser_skips_ante else ()
        result = book.close("deck_won", (), (player,), r.reserve, r.terms, exempt)
    return [compared, settled_event(deal.deal_no, result)]


def _deck_value(cards: list[str], ranking: str, wild: Sequence[int], options: Mapping[str, Any]) -> HandValue:
    """The deck cards' value; fewer than a three-card preset's hand: Q-MC-03 (a)."""
    if ranking in GUTS3_ORDERS and len(cards) < min(RANKINGS[ranking].hand_sizes) and not wild:
        return evaluate_guts3_short([parse_card(c) for c in cards], ranking)
    return hand_value(cards, ranking, wild=wild, options=options)


def cards(params: LoneInParams, per_player: int) -> tuple[int, int]:
    """D-GEN-02, 42X-03: the deck's cards a lone player is compared against."""
    return (0, params.count) if params.rule == "vs_deck" else (0, 0)


def ends_deal(ctx: Ctx[LoneInParams]) -> bool:
    return ctx.params.rule != "earns_leg" and _lone(ctx) is not None


def fold_leg(state: TableState, e: ev.LegAwarded) -> TableState:
    return state._replace(
        seats=tuple(copy_with(s, legs=e.legs) if s.player == e.player else s for s in state.seats)
    )


def fold_deck(state: TableState, e: ev.DeckCompared) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(
        shown=(e.player,),
        dealt=deal.dealt + len(e.deck_cards),
        winners=(e.player,) if e.winner == "player" else (),
    )


@dataclass(frozen=True, slots=True)
class LoneInParams:
    """The lone in step's parameters."""

    rule: str = param(choices=RULES)
    count: int = 4
    ranking: str = "four_card"
    wild: tuple[int, ...] = (2,)
    ace_low: bool | None = None
    loser_skips_ante: bool = False
    ghost: str = param(ghost.NONE, choices=ghost.RULES)


KIND = StepKind(
    name="lone_in",
    params=LoneInParams,
    run=run,
    ends_deal=ends_deal,
    folds={ev.LegAwarded: fold_leg, ev.DeckCompared: fold_deck},
    cards=cards,
)
