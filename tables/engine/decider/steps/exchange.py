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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tables.engine.cards import CardError, parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider import fair
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps import passing
from tables.engine.decider.steps.base import (
    Ctx,
    StepKind,
    deadline,
    deck_for,
    param,
    slot_of,
    swap_passed,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class ExchangeSlot(NamedTuple):
    """How many cards each player has drawn in the deal, aligned with `order` (public: EXC-01/02,
    D-IT-05; the cards themselves are private)."""

    drew: tuple[int, ...] = ()


NAME = "exchange"
RULES = ("none", "draw", "pass_left")
_EMPTY = ExchangeSlot()


def start(deal: DealState, params: ExchangeParams) -> DealState:
    return deal._replace(exchanged=(), passing=False, passed=(), awaiting=(), deadline=None)


def drawers(deal: DealState, params: ExchangeParams) -> tuple[str, ...]:
    """Who exchanges: everyone dealt in, or only the "in" players (JP-09)."""
    return deal.in_players() if params.who == "in_players" else deal.order


def done(ctx: Ctx[ExchangeParams]) -> bool:
    deal = ctx.deal
    return ctx.params.rule == "none" or all(p in deal.exchanged for p in drawers(deal, ctx.params))


def run(ctx: Ctx[ExchangeParams]) -> list[ev.Event]:
    """Open the next player's draw, or the sealed pass window; swap the passed cards (EXC-03)."""
    deal = ctx.deal
    if ctx.params.rule == "draw":
        if deal.awaiting:
            return []
        player = next(p for p in drawers(deal, ctx.params) if p not in deal.exchanged)
        return [
            ev.ExchangeOpened(
                deal_no=deal.deal_no,
                player=player,
                deadline=deadline(ctx),
                most=most_for(deal, player, ctx.params.max),
            )
        ]
    if not deal.passing:
        return [
            ev.PassOpened(
                deal_no=deal.deal_no, players=list(deal.order), deadline=deadline(ctx), direction="left"
            )
        ]
    if None in deal.passed:
        return []
    return swap_passed(deal, -1)  # order[i]'s left is order[i + 1]


def most_for(deal: DealState, player: str, limit: int) -> int:
    """How many cards `player` may replace: the step's `max` (0: all), at most what he holds."""
    held = len(deal.hand_of(player))
    return min(limit, held) if limit else held


def open_draw(ctx: Ctx[ExchangeParams]) -> int | None:
    """The most cards the awaited player may replace, if a draw turn is open (else None)."""
    deal = ctx.deal
    if ctx.params.rule != "draw" or not deal.awaiting:
        return None
    return most_for(deal, deal.awaiting[0], ctx.params.max)


# --- the players' commands: Exchange (EXC-01/02) and, for pass_left, PassCard (EXC-03) -------------


def check_exchange(ctx: Ctx[ExchangeParams], c: cmd.Exchange) -> list[str]:
    """EXC-01/02: it is the player's draw and `discards` are distinct cards of his hand, at most
    as many as the draw allows; returns them normalised."""
    player = c.player_id
    deal = check_acting(ctx.state, player, c.deal_no)
    most = open_draw(ctx)
    if player in deal.exchanged and most is not None:
        raise DomainError("already_exchanged", f"{player} has exchanged", player=player)
    if most is None or player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to exchange", player=player)
    if not isinstance(c.discards, list | tuple):
        raise DomainError("invalid_discards", "discards is a list of cards")
    cards = [card_in_hand(deal.hand_of(player), card) for card in c.discards]
    if len(set(cards)) != len(cards) or len(cards) > most:
        raise DomainError(
            "invalid_discards", f"discard at most {most} different cards of your hand", most=most
        )
    return cards


def card_in_hand(hand: tuple[str, ...], card: Any) -> str:
    try:
        text = str(parse_card(card))
    except CardError:
        raise DomainError("invalid_card", f"not a card: {card!r}", card=str(card)) from None
    if text not in hand:
        raise DomainError("invalid_card", f"{text} is not in the player's hand", card=text)
    return text


def exchange(ctx: Ctx[ExchangeParams], c: cmd.Exchange, discards: list[str]) -> list[ev.Event]:
    """A draw is accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    return draw_events(ctx.state, c.player_id, discards, salts=ctx.salts)


def offers(ctx: Ctx[ExchangeParams], player: str) -> list[dict[str, Any]]:
    deal = ctx.deal
    if deal.passing:
        return passing.offers(ctx, player, "left")  # EXC-03
    most = open_draw(ctx)
    if most is None or player not in deal.awaiting or player in deal.exchanged:
        return []
    return [
        {
            "action": "exchange",
            "deal_no": deal.deal_no,
            "min": 0,
            "max": most,
            "choices": list(deal.hand_of(player)),
            **turn_fields(deal, ctx.now),
        }
    ]


def expire(ctx: Ctx[ExchangeParams]) -> list[ev.Event]:
    """A pass not chosen in time passes the first card (EXC-03); a draw not made stands pat."""
    return passing.timeout(ctx) if ctx.deal.passing else timeout_events(ctx.state)


def phase(deal: DealState) -> str:
    return passing.phase(deal, NAME)


def cards(params: ExchangeParams, per_player: int) -> tuple[int, int]:
    """D-GEN-02: one player's whole draw must be servable (max 0: all he holds)."""
    return (0, params.max or per_player) if params.rule == "draw" else (0, 0)


def draw_events(
    state: TableState, player: str, discards: list[str], *, timed_out: bool = False, salts: Sequence[str] = ()
) -> list[ev.Event]:
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
        events.append(fair.stock_reshuffled(deal, deck, batch, salts))
        drawn += [str(card) for card in deck.deal(wanted - len(drawn))]
    kept = [card for card in deal.hand_of(player) if card not in discards]
    events.append(
        ev.CardsDrawn(
            deal_no=deal.deal_no,
            player=player,
            count=wanted,
            discarded=list(discards),
            drawn=drawn,
            cards=[*kept, *drawn],
            timed_out=timed_out,
        )
    )
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
    i = deal.position(e.player)
    drew = slot_of(deal, NAME, _EMPTY).drew or (0,) * len(deal.order)
    if not e.deferred:  # IT-15: the fourth card was counted with the draw
        drew = set_at(drew, i, drew[i] + e.count)
    moved = deal._replace(
        hands=set_at(deal.hands, i, tuple(e.cards)),
        dealt=deal.dealt + len(e.drawn),
        discards=(*deal.discards, *e.discarded),
        exchanged=(*deal.exchanged, e.player),
        awaiting=awaiting,
        deadline=deal.deadline if awaiting else None,
    )
    return state._replace(deal=with_slot(moved, NAME, ExchangeSlot(drew=drew)))


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """How many cards each player drew (public, D-IT-05); None when nobody has drawn."""
    drew = slot_of(deal, NAME, _EMPTY).drew
    return {"draws": dict(zip(deal.order, drew, strict=True)) if drew else None}


def fold_reshuffled(state: TableState, e: ev.StockReshuffled) -> TableState:
    deal = state.live
    assert deal is not None
    return state.with_deal(reshuffles=(*deal.reshuffles, tuple(e.cards)), discards=())


@dataclass(frozen=True, slots=True)
class ExchangeParams:
    """The exchange step's parameters."""

    rule: str = param("none", choices=RULES)
    max: int = 0
    who: str = param("all", choices=("all", "in_players"))


KIND = StepKind(
    name=NAME,
    params=ExchangeParams,  # JP-09
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.ExchangeOpened: fold_opened, ev.CardsDrawn: fold_drawn, ev.StockReshuffled: fold_reshuffled},
    commands={cmd.Exchange: (check_exchange, exchange), **passing.COMMANDS},
    actions=("exchange", passing.ACTION),  # EXC-03: the pass to the left
    offers=offers,
    expire=expire,
    phase=phase,
    cards=cards,
    view=view,
    slot=ExchangeSlot,
)
