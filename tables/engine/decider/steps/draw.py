"""draw: the draw of five-card draw poker between the betting rounds (IT-12..16, D-IT-03, D-IT-05).

After an opened first round, in turn from the dealer's left each player still in the betting
(all-in players too) discards 0 to ``max`` (4) cards and gets as many from the stock (IT-12,
IT-13). A four-card draw gets three cards in its turn and the fourth after every other player has
drawn (IT-15, EX-11, D-IT-05: `CardsDrawn` with ``deferred``). When the stock cannot serve a draw
the earlier discards are shuffled by the provable method into a new stock (IT-14, D-GEN-02:
`StockReshuffled`); the opener's discards are never among them: they are kept apart (IT-16,
D-IT-03, `betting.kept_apart`). What still cannot be served waits, like the fourth card, until
everyone else has drawn (then every discard but the opener's is reshuffled; at ten players, as a
last resort, his too). The opener may discard cards of his openers only by saying so with his
draw (``split_openers``, public on `CardsDrawn`); otherwise the draw is ``invalid_split``, as is
a split announced by anyone else or without discarding an opener. A turn that times out stands
pat. Nobody opened (IT-11) or one player left: nothing to draw.

The draw's events are the exchange's (`ExchangeOpened`, `CardsDrawn`, `StockReshuffled`, folded
by steps/exchange.py), so the visibility, the fairness proof and the hand history read them as
any draw: the cards are private to the drawer, the count public (D-IT-05).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider import fair
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import betting
from tables.engine.decider.steps.base import Ctx, StepKind, deadline, deck_for, turn_fields
from tables.engine.decider.steps.exchange import card_in_hand, timeout_events
from tables.engine.deck import Deck

NAME = "draw"
HAND = 5  # IT-01: five cards
FIRST_OF_FOUR = 3  # IT-15: a four-card draw gets three in turn


def drawers(deal: DealState) -> tuple[str, ...]:
    """IT-12: the players still in the betting, from the dealer's left."""
    return betting.contenders(deal, "all")


def _nothing_to_draw(deal: DealState) -> bool:
    return betting.passed(deal) or betting.opener_of(deal) is None or len(drawers(deal)) < 2


def owed(deal: DealState, player: str) -> int:
    """Cards a player's draw still owes him (IT-15's fourth card, or what the stock lacked)."""
    return HAND - len(deal.hand_of(player))


def done(ctx: Ctx[DrawParams]) -> bool:
    deal = ctx.deal
    if _nothing_to_draw(deal):
        return True
    players = drawers(deal)
    return all(p in deal.exchanged for p in players) and not any(owed(deal, p) for p in players)


def run(ctx: Ctx[DrawParams]) -> list[ev.Event]:
    """Open the next player's draw; once everyone has drawn, deal what each draw still owes."""
    deal = ctx.deal
    if deal.awaiting:
        return []
    players = drawers(deal)
    waiting = [p for p in players if p not in deal.exchanged]
    if waiting:
        return [
            ev.ExchangeOpened(
                deal_no=deal.deal_no,
                player=waiting[0],
                deadline=deadline(ctx),
                most=min(ctx.params.max, HAND),
            )
        ]
    player = next(p for p in players if owed(deal, p))
    return _serve(ctx.state, player, [], owed(deal, player), deferred=True, salts=ctx.salts)


def check_draw(ctx: Ctx[DrawParams], c: cmd.Exchange) -> list[str]:
    """IT-12, IT-13: the exchange's checks (his turn, distinct cards of his hand, at most four);
    IT-16, D-IT-03: the opener discards openers only when he says so, nobody else says so."""
    player = c.player_id
    deal = check_acting(ctx.state, player, c.deal_no)
    if player in deal.exchanged:
        raise DomainError("already_exchanged", f"{player} has drawn", player=player)
    if player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to draw", player=player)
    if not isinstance(c.discards, list | tuple):
        raise DomainError("invalid_discards", "discards is a list of cards")
    most = min(ctx.params.max, HAND)
    discards = [card_in_hand(deal.hand_of(player), card) for card in c.discards]
    if len(set(discards)) != len(discards) or len(discards) > most:
        raise DomainError(
            "invalid_discards", f"discard at most {most} different cards of your hand", most=most
        )
    bets = betting.betting_of(deal)
    splits = bool(set(discards) & set(bets.openers)) and c.player_id == bets.opener
    if splits and not c.split_openers:
        raise DomainError(
            "invalid_split", "discarding openers needs split_openers (IT-16)", openers=list(bets.openers)
        )
    if c.split_openers and not splits:
        raise DomainError("invalid_split", "only the opener discarding openers splits them (IT-16)")
    return discards


def draw(ctx: Ctx[DrawParams], c: cmd.Exchange, discards: list[str]) -> list[ev.Event]:
    """IT-15: a four-card draw gets three now; the rest waits until everyone else has drawn."""
    now = FIRST_OF_FOUR if len(discards) == 4 else len(discards)
    return _serve(ctx.state, c.player_id, discards, now, split=c.split_openers, salts=ctx.salts)


def _serve(
    state: TableState,
    player: str,
    discards: list[str],
    count: int,
    *,
    split: bool = False,
    deferred: bool = False,
    salts: Sequence[str] = (),
) -> list[ev.Event]:
    """`player` discards `discards` and takes `count` cards (IT-13), reshuffling the discards out
    of play into a new stock when it runs short (IT-14; a committed deck commits the new stock's
    slots with the service's `salts`, D-GEN-02); what it cannot serve now waits."""
    deal = state.live
    assert deal is not None
    deck = deck_for(state, deal)
    deck.deal(deal.dealt)
    events: list[ev.Event] = []
    drawn = [str(card) for card in deck.deal(min(count, deck.remaining))]
    if len(drawn) < count:
        pool = _reshuffle_pool(deal, last_resort=deferred and not deck.remaining)
        if pool:
            deck.reshuffle(pool)
            events.append(fair.stock_reshuffled(deal, deck, pool, salts))
            drawn += _take(deck, count - len(drawn))
    assert drawn or not deferred, "a card outside the hands is always left to serve (52 >= 5 x 10)"
    kept = [card for card in deal.hand_of(player) if card not in discards]
    events.append(
        ev.CardsDrawn(
            deal_no=deal.deal_no,
            player=player,
            count=len(drawn) if deferred else len(discards),
            discarded=list(discards),
            drawn=drawn,
            cards=[*kept, *drawn],
            split_openers=split,
            deferred=deferred,
        )
    )
    return events


def _take(deck: Deck, count: int) -> list[str]:
    return [str(card) for card in deck.deal(min(count, deck.remaining))]


def _reshuffle_pool(deal: DealState, *, last_resort: bool) -> list[str]:
    """IT-14, D-GEN-02: the discards out of play, never the opener's (kept apart, IT-16), unless
    nothing else is left to serve a draw that everyone else has finished."""
    apart = betting.kept_apart(deal)
    pool = [card for card in deal.discards if card not in apart]
    if pool or not last_resort:
        return pool
    reshuffled = {card for batch in deal.reshuffles for card in batch}
    return [*deal.discards, *(c for c in apart if c not in deal.discards and c not in reshuffled)]


def offers(ctx: Ctx[DrawParams], player: str) -> list[dict[str, Any]]:
    deal = ctx.deal
    if player not in deal.awaiting or player in deal.exchanged:
        return []
    bets = betting.betting_of(deal)
    offer = {
        "action": "exchange",
        "deal_no": deal.deal_no,
        "min": 0,
        "max": min(ctx.params.max, HAND),
        "choices": list(deal.hand_of(player)),
        **turn_fields(deal, ctx.now),
    }
    if player == bets.opener:
        offer["openers"] = list(bets.openers)  # IT-16: split only by saying so
    return [offer]


def expire(ctx: Ctx[DrawParams]) -> list[ev.Event]:
    """A draw not made in time stands pat."""
    return timeout_events(ctx.state)


def start(deal: DealState, params: DrawParams) -> DealState:
    return deal._replace(exchanged=(), awaiting=(), deadline=None)


@dataclass(frozen=True, slots=True)
class DrawParams:
    """The draw step's parameters."""

    max: int = 4


KIND = StepKind(
    name=NAME,
    params=DrawParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    commands={cmd.Exchange: (check_draw, draw)},
    actions=("exchange",),
    offers=offers,
    expire=expire,
)
