"""exchange: the optional exchanges before the declare of two- and three-card Guts (EXC-01..03).

``rule`` (the table's ``exchange`` option):

- ``none``: no exchange (the Guts programs switch the step off, so it writes nothing);
- ``draw`` (EXC-01, EXC-02, Q-EXC-01): in turn from the dealer's left, each player discards none
  to ``max`` of his cards (two-card: one or both; three-card: up to three) and gets as many from
  the top of the stock. Discards are out of play. When the stock cannot serve a draw, the
  discards of the players served before (never cards in live hands, nor the drawer's own
  discards) are shuffled by the provable method into a new stock (D-GEN-02: `StockReshuffled`,
  `deck.reshuffle_seed`); `Variant.capacity` keeps one player's whole draw servable. A turn that
  times out stands pat.
- ``pass_left`` (EXC-03, Q-EXC-02): everyone passes one card face down to the player on his left,
  all chosen sealed before any is seen (the AO-06 pass window and its `PassCard`, `CardPassed`,
  `CardsExchanged`, with `PassOpened.direction` ``left``); a timed-out player passes his first card.

``who`` (``all``): who draws; ``in_players`` (JP-09): only the players "in" after the declare, in
turn from the dealer's left (with ``max`` 0 each may replace every card he holds, JP-09; a table
cap, JP-14, is ``max``).

Drawn, discarded and passed cards are secret to everyone but their holder (visibility); how many
cards a player draws is public.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.decider import events as ev
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import Ctx, Param, StepKind, deadline, deck_for, swap_passed

RULES = ("none", "draw", "pass_left")


def start(deal: DealState, params: Mapping[str, Any]) -> DealState:
    return deal._replace(exchanged=(), passing=False, passed=(), awaiting=(), deadline=None)


def drawers(deal: DealState, params: Mapping[str, Any]) -> tuple[str, ...]:
    """Who exchanges: everyone dealt in, or only the "in" players (JP-09)."""
    return deal.in_players() if params["who"] == "in_players" else deal.order


def done(ctx: Ctx) -> bool:
    deal = ctx.deal
    return ctx.params["rule"] == "none" or all(p in deal.exchanged for p in drawers(deal, ctx.params))


def run(ctx: Ctx) -> list[ev.Event]:
    """Open the next player's draw, or the sealed pass window; swap the passed cards (EXC-03)."""
    deal = ctx.deal
    if ctx.params["rule"] == "draw":
        if deal.awaiting:
            return []
        player = next(p for p in drawers(deal, ctx.params) if p not in deal.exchanged)
        return [ev.ExchangeOpened(deal_no=deal.deal_no, player=player, deadline=deadline(ctx),
                                  most=most_for(deal, player, ctx.params["max"]))]
    if not deal.passing:
        return [ev.PassOpened(deal_no=deal.deal_no, players=list(deal.order), deadline=deadline(ctx),
                              direction="left")]
    if None in deal.passed:
        return []
    return swap_passed(deal, -1)                     # order[i]'s left is order[i + 1]


def most_for(deal: DealState, player: str, limit: int) -> int:
    """How many cards `player` may replace: the step's `max` (0: all), at most what he holds."""
    held = len(deal.hand_of(player))
    return min(limit, held) if limit else held


def open_draw(state: TableState) -> int | None:
    """The most cards the awaited player may replace, if a draw turn is open (else None)."""
    deal, step = state.live, state.current_step()
    if deal is None or step is None or step.kind != "exchange" or not deal.awaiting:
        return None
    params = step.resolved(state.opts)
    if params["rule"] != "draw":
        return None
    return most_for(deal, deal.awaiting[0], params["max"])


def draw_events(state: TableState, player: str, discards: list[str], *,
                timed_out: bool = False) -> list[ev.Event]:
    """`player` discards `discards` and takes as many cards from the stock (D-GEN-02: reshuffling
    the earlier discards into a new stock first if it runs out)."""
    deal = state.live
    assert deal is not None
    deck = deck_for(state, deal)
    deck.deal(deal.dealt)
    wanted = len(discards)
    drawn = [str(card) for card in deck.deal(min(wanted, deck.remaining))]
    events: list[ev.Event] = []
    if len(drawn) < wanted:
        batch = list(deal.discards)
        deck.reshuffle(batch)
        events.append(ev.StockReshuffled(deal_no=deal.deal_no, generation=len(deck.reshuffles),
                                         count=len(batch), cards=batch))
        drawn += [str(card) for card in deck.deal(wanted - len(drawn))]
    kept = [card for card in deal.hand_of(player) if card not in discards]
    events.append(ev.CardsDrawn(deal_no=deal.deal_no, player=player, count=wanted,
                                discarded=list(discards), drawn=drawn, cards=[*kept, *drawn],
                                timed_out=timed_out))
    return events


def timeout_events(state: TableState) -> list[ev.Event]:
    """The awaited players' draw turn expired: each stands pat."""
    deal = state.live
    assert deal is not None
    return [event for player in deal.awaiting for event in draw_events(state, player, [], timed_out=True)]


def fold_opened(state: TableState, e: ev.ExchangeOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_drawn(state: TableState, e: ev.CardsDrawn) -> TableState:
    deal = state.live
    assert deal is not None
    awaiting = tuple(p for p in deal.awaiting if p != e.player)
    return state.with_deal(hands=set_at(deal.hands, deal.position(e.player), tuple(e.cards)),
                           dealt=deal.dealt + len(e.drawn), discards=(*deal.discards, *e.discarded),
                           exchanged=(*deal.exchanged, e.player), awaiting=awaiting,
                           deadline=deal.deadline if awaiting else None)


def fold_reshuffled(state: TableState, e: ev.StockReshuffled) -> TableState:
    deal = state.live
    assert deal is not None
    return state.with_deal(reshuffles=(*deal.reshuffles, tuple(e.cards)), discards=())


KIND = StepKind(
    name="exchange",
    schema={"rule": Param((str,), "none", choices=RULES), "max": Param((int,), 0),
            "who": Param((str,), "all", choices=("all", "in_players"))},                   # JP-09
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.ExchangeOpened: fold_opened, ev.CardsDrawn: fold_drawn,
           ev.StockReshuffled: fold_reshuffled},
)
