"""showdown: the "in" players' hands are compared (G2-11, G2-12, 357-09..23, 422-05, 423-03).

``ranking`` (a name `tables.engine.evaluate` knows); ``wild`` ranks (357: 3s, 5s, 7s in turn;
422: 2s); ``best``: how many cards make a hand, chosen as the best of those held (0: as many as
the ranking values, e.g. five of six or seven for poker); ``board``: the community cards count
too (423-03); ``private``: compared among the "in" players only (357-09, D-357-03), everyone else
learns only who won; ``all_out``: the table's all-out rule, which may have everyone show
(AO-03..05) or judge the four cards held (42X-02); ``ace_low`` for rankings that accept it;
``worst``: also name the worst shown hand(s) (SV-02, SV-03: identical worst hands all count).
``ghost`` (the table's option, `decider.ghost`): when the ghost plays (GH-07, GH-08) even a lone
"in" player shows and must beat it (GH-04, a tie loses: D-GH-02), and it is shown too (GH-03).
``settle``: the settlement rule that follows: one that reads the worst hand(s)
(`settlement.NEEDS_WORST`: single_loser, SL-01/02) has them named as ``worst`` does.
``wild_board``: the ranks of the board cards are wild too, in every hand and on the board (JP-03,
JP-05: the piss card and every card of its rank; EX-04, EX-05).
``grown_ranking``: the ranking of hands that hold more cards than ``ranking`` values, after
AO-07's extra cards: the best hand of its size of all the cards held (D-AO-03: two-card Guts
ranks three cards by the table's Table 3C preset); ``ace_low`` only reaches a ranking that takes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tables.engine import RANKINGS, evaluate, showdown
from tables.engine.cards import parse_card
from tables.engine.decider import all_out, ghost
from tables.engine.decider import events as ev
from tables.engine.decider.settlement import NEEDS_WORST, RULES
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps.base import Ctx, StepKind, param
from tables.engine.hand_value import HandValue


def hand_value(
    cards: Sequence[str],
    ranking: str,
    *,
    best: int = 0,
    wild: Sequence[int] = (),
    options: Mapping[str, Any] | None = None,
) -> HandValue:
    """The value of the best hand of `best` cards among `cards` (all of them when the ranking
    values that many: poker picks the best five of seven itself)."""
    extra: dict[str, Any] = dict(options or {})
    if wild:
        extra["wild_ranks"] = tuple(wild)
    sizes = RANKINGS[ranking].hand_sizes
    if len(cards) in sizes and (not best or best == len(cards) or best == min(sizes)):
        return evaluate(list(cards), ranking, **extra)
    size = best or max(s for s in sizes if s <= len(cards))
    return max(evaluate(list(combo), ranking, **extra) for combo in combinations(cards, size))


def run(ctx: Ctx[ShowdownParams]) -> list[ev.Event]:
    deal, params = ctx.deal, ctx.params
    in_players = tuple(p for p in deal.in_players() if p not in deal.folded)  # D-BET: folders lose
    rule = params.all_out
    ranking, wild = params.ranking, tuple(params.wild)
    shown: tuple[str, ...] = ()
    board: tuple[str, ...] = deal.board if params.board else ()
    if params.wild_board:  # JP-03, JP-05: the piss card's rank
        wild = (*wild, *(parse_card(card).rank for card in deal.board))
    against_ghost = ghost.plays(params.ghost, len(in_players))
    if against_ghost:  # GH-04, GH-07, GH-08
        reason, shown = "contested", in_players
    elif len(in_players) == 1:  # G2-11: no need to show
        reason = "uncontested"
    elif in_players:  # G2-12
        reason, shown = "contested", in_players
    elif all_out.shows_hands(rule):  # AO-03..05, 42X-02: everyone shows
        reason, shown = "all_out", deal.order
        judged = all_out.judged_by(rule)
        if judged is not None:  # 42X-02, D-42X-03: the cards held, not the board
            (ranking, wild), board = judged, ()
    else:
        reason = "all_out"
    best = params.best
    if params.grown_ranking is not None and _grown(deal, shown, ranking):
        ranking, best = params.grown_ranking, 0  # D-AO-03: AO-07's extra cards
    accepts_ace_low = "ace_low" in RANKINGS[ranking].options
    options = {"ace_low": params.ace_low} if params.ace_low is not None and accepts_ace_low else {}
    hands: list[dict[str, Any]] = []
    winners: list[str] = list(in_players) if reason == "uncontested" else []
    losers: list[str] = []
    named = params.worst or params.settle in NEEDS_WORST
    worst: list[str] | None = [] if named else None
    ghost_hand: dict[str, Any] | None = None
    if shown:

        def value_of(cards: Sequence[str]) -> HandValue:
            return hand_value((*cards, *board), ranking, best=best, wild=wild, options=options)

        cards = [deal.hand_of(p) for p in shown]
        values = [value_of(c) for c in cards]
        ghost_value = value_of(deal.ghost) if against_ghost else None
        result = showdown(values, ghost=ghost_value)
        hands = [
            {"player": p, "cards": list(c), "value": str(v), "category": v.category}
            for p, c, v in zip(shown, cards, values, strict=True)
        ]
        winners = [shown[i] for i in result.winners]
        losers = [shown[i] for i in result.losers]
        if worst is not None:
            worst = [shown[i] for i in result.worst]
        if ghost_value is not None:  # GH-03: shown to everyone
            ghost_hand = {
                "cards": list(deal.ghost),
                "value": str(ghost_value),
                "category": ghost_value.category,
                "won": result.ghost_wins,
            }
    return [
        ev.ShowdownHeld(
            deal_no=deal.deal_no,
            reason=reason,
            hands=hands,
            winners=winners,
            losers=losers,
            private=bool(params.private and shown),
            worst=worst,
            ghost=ghost_hand,
        )
    ]


def _grown(deal: DealState, shown: Sequence[str], ranking: str) -> bool:
    """Whether the hands shown hold more cards than `ranking` values (AO-07 dealt extra cards)."""
    most = max(RANKINGS[ranking].hand_sizes)
    return any(len(deal.hand_of(p)) > most for p in shown)


def fold(state: TableState, e: ev.ShowdownHeld) -> TableState:
    players = tuple(h["player"] for h in e.hands or ())
    deal = state.deal
    assert deal is not None
    worst = tuple(e.worst or ())
    if e.sides is not None:  # 43-05: high_low_showdown's halves
        state = state.with_deal(sides=(tuple(e.sides.get("high", ())), tuple(e.sides.get("low", ()))))
    if e.private:
        return state.with_deal(
            compared=players, winners=tuple(e.winners), losers=tuple(e.losers), worst=worst
        )
    return state.with_deal(
        shown=players,
        winners=tuple(e.winners),
        losers=tuple(e.losers),
        worst=worst,
        ghost_shown=e.ghost is not None,
        ghost_won=bool(e.ghost and e.ghost["won"]),
    )


@dataclass(frozen=True, slots=True)
class ShowdownParams:
    """The showdown step's parameters."""

    ranking: str = param(choices=tuple(RANKINGS))
    wild: tuple[int, ...] = ()
    best: int = 0
    board: bool = False
    private: bool = False
    all_out: str = param("carry", choices=all_out.RULES)
    ace_low: bool | None = None
    worst: bool = False
    ghost: str = param(ghost.NONE, choices=ghost.RULES)
    settle: str = param("match_pot_each", choices=tuple(RULES))
    grown_ranking: str | None = param(None, choices=(None, *RANKINGS))
    wild_board: bool = False


KIND = StepKind(
    name="showdown",
    params=ShowdownParams,  # JP-05
    run=run,
    folds={ev.ShowdownHeld: fold},
)
