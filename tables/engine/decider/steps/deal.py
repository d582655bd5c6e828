"""deal: cards from the deck, one at a time clockwise from the dealer's left (D-G2-01).

``count`` cards to each recipient; ``face`` ``down`` (secret to others: CardsDealt holds all the
player's cards) or ``up`` (public at once: CardsDealt holds the new cards); ``to`` ``all`` (every
participant, TSG-03: out players too), ``in_players`` (TPO-02, 422-05) or ``board`` (community
cards, 423-02); ``ghost`` (the table's ``ghost`` option, `decider.ghost`): with ``to`` ``all``,
the ghost hand is dealt too, last in each round (D-GH-03), face down to nobody (GH-02), or face
up when it is Monte Carlo's open hand (MCA-05).
Starting a deal step hides earlier shown hands again: they have new cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.decider import events as ev
from tables.engine.decider import ghost
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import Ctx, StepKind, next_cards, param


def run(ctx: Ctx[DealParams]) -> list[ev.Event]:
    deal, count, face, to = ctx.deal, ctx.params.count, ctx.params.face, ctx.params.to
    if to == "board":
        return [ev.BoardDealt(deal_no=deal.deal_no, cards=next_cards(ctx, count))]
    recipients = list(deal.order) if to == "all" else list(deal.in_players())
    with_ghost = to == "all" and ghost.dealt(ctx.params.ghost)
    n = len(recipients) + (1 if with_ghost else 0)  # D-GH-03: the ghost last in each round
    if not recipients:
        return []
    cards = next_cards(ctx, count * n)
    events: list[ev.Event] = []
    for i, player in enumerate(recipients):
        new = [cards[r * n + i] for r in range(count)]
        held = [*deal.hand_of(player), *new] if face == "down" else new
        events.append(ev.CardsDealt(deal_no=deal.deal_no, player=player, face=face, cards=held))
    if with_ghost:
        new = [cards[r * n + n - 1] for r in range(count)]
        events.append(
            ev.GhostDealt(
                deal_no=deal.deal_no,
                cards=[*deal.ghost, *new],
                face="up" if ghost.face_up(ctx.params.ghost) else "down",
            )
        )
    return events


def cards(params: DealParams, per_player: int) -> tuple[int, int]:
    """D-GEN-02: (cards per player, other cards: the board, the ghost hand) this step deals."""
    count = params.count
    if params.to == "board":
        return 0, count
    return count, count if params.to == "all" and ghost.dealt(params.ghost) else 0


def start(deal: DealState, params: DealParams) -> DealState:
    return deal._replace(shown=(), compared=())


def fold_cards_dealt(state: TableState, e: ev.CardsDealt) -> TableState:
    deal = state.deal
    assert deal is not None
    i = deal.position(e.player)
    held = deal.hands[i]
    up = deal.up or ((),) * len(deal.order)
    if e.face == "up":
        return state.with_deal(
            hands=set_at(deal.hands, i, (*held, *e.cards)),
            up=set_at(up, i, (*up[i], *e.cards)),
            dealt=deal.dealt + len(e.cards),
        )
    return state.with_deal(
        hands=set_at(deal.hands, i, tuple(e.cards)), up=up, dealt=deal.dealt + len(e.cards) - len(held)
    )


def fold_ghost_dealt(state: TableState, e: ev.GhostDealt) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(
        ghost=tuple(e.cards), dealt=deal.dealt + len(e.cards) - len(deal.ghost), ghost_up=e.face == "up"
    )


def fold_board_dealt(state: TableState, e: ev.BoardDealt) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(board=(*deal.board, *e.cards), dealt=deal.dealt + len(e.cards))


@dataclass(frozen=True, slots=True)
class DealParams:
    """The deal step's parameters."""

    count: int
    face: str = param("down", choices=("down", "up"))
    to: str = param("all", choices=("all", "in_players", "board"))
    ghost: str = param(ghost.NONE, choices=ghost.RULES)


KIND = StepKind(
    name="deal",
    params=DealParams,
    run=run,
    start=start,
    folds={ev.CardsDealt: fold_cards_dealt, ev.GhostDealt: fold_ghost_dealt, ev.BoardDealt: fold_board_dealt},
    cards=cards,
)
