"""tricks: Wolfie's Lou's five tricks (WL-07..12, EX-09, D-WL-01, D-WL-03, D-WL-04, D-WL-06).

Only the "in" players play (D-WL-01), and only when two or more are in. The trump chooser leads
the first trick, each trick's winner the next (D-WL-03); the others follow clockwise. Legal play
(D-WL-04): a player holding a card of the trump suit must play one (``must_play_trump``);
otherwise any card; there is no obligation to follow the suit led. The highest trump wins the
trick; when no trump is played (or there is none: ``no_trump``, ``reverse``) the highest rank
wins whatever its suit, in ``reverse`` the lowest (twos highest, aces lowest); equal ranks: the
card played first wins (EX-09, WL-09).

Each card played is public at once (`CardPlayed`) and leaves the hand; the cards not yet played
stay private (a hand is never shown). A turn not taken by its deadline plays the lowest legal
card (lowest in the deal's order: in reverse an ace; equal ranks by suit, clubs first).

After the fifth trick the player with three or more tricks is the deal's winner (WL-10); with
nobody at three there is none (WL-11). `owes` tells the settlement (rule ``tricks``) what each
other player pays: the pot, or twice the pot with ``no_trick_double`` for a player who won no
trick (WL-12, D-WL-06).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tables.engine.cards import SUITS, parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps import questioning
from tables.engine.decider.steps.base import (
    Ctx,
    StepKind,
    deadline,
    held_card,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.steps.trump import REVERSE, trump_of
from tables.engine.decider.visibility import Viewer

Play = tuple[str, str]  # (player, card)


class TricksSlot(NamedTuple):
    """The trick being played (its plays so far), every finished trick as (winner, plays), and
    whether a player without a trick pays double (WL-12, the step's parameter)."""

    playing: tuple[Play, ...] = ()
    finished: tuple[tuple[str, tuple[Play, ...]], ...] = ()
    no_trick_double: bool = False


NAME = "tricks"
TRICKS = 5  # WL-07
TO_WIN = 3  # WL-10


_EMPTY = TricksSlot()


def tricks_of(deal: DealState) -> TricksSlot:
    return slot_of(deal, NAME, _EMPTY)


def _players(deal: DealState) -> tuple[str, ...]:
    """Who plays the tricks: the "in" players, two or more (D-WL-01)."""
    players = deal.in_players()
    return players if len(players) >= 2 and trump_of(deal) is not None else ()


def won(deal: DealState) -> dict[str, int]:
    """Tricks won so far by each player of the tricks."""
    slot = tricks_of(deal)
    counts = dict.fromkeys(_players(deal), 0)
    for winner, _ in slot.finished:
        counts[winner] = counts.get(winner, 0) + 1
    return counts


def done(ctx: Ctx[TricksParams]) -> bool:
    return not _players(ctx.deal) or len(tricks_of(ctx.deal).finished) == TRICKS


def _leader(deal: DealState) -> str:
    """D-WL-03: the trump chooser leads the first trick, each trick's winner the next."""
    finished = tricks_of(deal).finished
    if finished:
        return finished[-1][0]
    chooser = questioning.chooser_of(deal)
    assert chooser is not None
    return chooser


def to_play(deal: DealState) -> str:
    """Whose card the current trick waits for: clockwise among the players from its leader."""
    players, playing = _players(deal), tricks_of(deal).playing
    start = players.index(_leader(deal))
    return players[(start + len(playing)) % len(players)]


def run(ctx: Ctx[TricksParams]) -> list[ev.Event]:
    deal = ctx.deal
    if deal.awaiting:
        return []
    slot = tricks_of(deal)
    players = _players(deal)
    if len(slot.playing) == len(players):
        return [
            ev.TrickWon(
                deal_no=deal.deal_no,
                trick=len(slot.finished) + 1,
                winner=trick_winner(slot.playing, trump_of(deal)),
                cards=[{"player": p, "card": c} for p, c in slot.playing],
            )
        ]
    return [
        ev.PlayOpened(
            deal_no=deal.deal_no, player=to_play(deal), trick=len(slot.finished) + 1, deadline=deadline(ctx)
        )
    ]


# --- D-WL-04: legal cards and the winner ----------------------------------------------------------


def _order_key(card: str, trump: str | None) -> int:
    """How high `card` ranks in a trick without trumps: by rank, reversed under `reverse`."""
    rank = parse_card(card).rank
    return -rank if trump == REVERSE else rank


def _is_trump(card: str, trump: str | None) -> bool:
    return trump is not None and trump in SUITS and parse_card(card).suit == trump


def trick_winner(plays: Sequence[Play], trump: str | None) -> str:
    """WL-08, WL-09, EX-09, D-WL-04: the highest trump, else the highest rank (reverse: lowest),
    the first played winning among equal ranks."""
    trumps = [(p, c) for p, c in plays if _is_trump(c, trump)]
    judged = trumps or list(plays)
    best = max(_order_key(c, trump) for _, c in judged)
    return next(p for p, c in judged if _order_key(c, trump) == best)


def legal_cards(hand: Sequence[str], trump: str | None) -> list[str]:
    """D-WL-04: the trumps held if any, else every card."""
    trumps = [c for c in hand if _is_trump(c, trump)]
    return trumps or list(hand)


def lowest(cards: Sequence[str], trump: str | None) -> str:
    """The lowest card in the deal's order (ties by suit, clubs first): a timeout plays it."""
    return min(cards, key=lambda c: (_order_key(c, trump), SUITS.index(parse_card(c).suit)))


# --- the players' command: PlayCard ---------------------------------------------------------------


def check_play(ctx: Ctx[TricksParams], c: cmd.PlayCard) -> str:
    """Its turn, a card of his hand, a trump if he holds one (D-WL-04); returns it normalised."""
    deal = check_acting(ctx.state, c.player_id, c.deal_no)
    if c.player_id not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {c.player_id}'s turn to play", player=c.player_id)
    hand = deal.hand_of(c.player_id)
    card = held_card(hand, c.card)
    trump = trump_of(deal)
    if card not in legal_cards(hand, trump):
        raise DomainError(
            "must_play_trump",
            f"you hold a trump ({trump}): play one",
            trump=trump,
            legal=legal_cards(hand, trump),
        )
    return card


def play(ctx: Ctx[TricksParams], c: cmd.PlayCard, card: str) -> list[ev.Event]:
    return [
        ev.CardPlayed(
            deal_no=c.deal_no, player=c.player_id, trick=len(tricks_of(ctx.deal).finished) + 1, card=card
        )
    ]


def offers(ctx: Ctx[TricksParams], player: str) -> list[dict[str, Any]]:
    """The play action with exactly the cards the server would accept."""
    deal = ctx.deal
    if player not in deal.awaiting:
        return []
    return [
        {
            "action": "play",
            "trick": len(tricks_of(deal).finished) + 1,
            "choices": legal_cards(deal.hand_of(player), trump_of(deal)),
            **turn_fields(deal, ctx.now),
        }
    ]


def expire(ctx: Ctx[TricksParams]) -> list[ev.Event]:
    """A turn not taken in time plays the lowest legal card."""
    deal = ctx.deal
    trick, trump = len(tricks_of(deal).finished) + 1, trump_of(deal)
    return [
        ev.CardPlayed(
            deal_no=deal.deal_no,
            player=p,
            trick=trick,
            timed_out=True,
            card=lowest(legal_cards(deal.hand_of(p), trump), trump),
        )
        for p in deal.awaiting
    ]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """The tricks so far (cards in the order played, who won each), the trick being played and
    the tricks won per player: all public."""
    slot = tricks_of(deal)
    if not slot.playing and not slot.finished:
        return {"tricks": None}
    return {
        "tricks": {
            "finished": [
                {"trick": n, "winner": winner, "cards": [{"player": p, "card": c} for p, c in plays]}
                for n, (winner, plays) in enumerate(slot.finished, start=1)
            ],
            "current": [{"player": p, "card": c} for p, c in slot.playing],
            "won": won(deal),
        }
    }


# --- folds ------------------------------------------------------------------------------------------


def start(deal: DealState, params: TricksParams) -> DealState:
    slot = TricksSlot(no_trick_double=bool(params.no_trick_double))
    return with_slot(deal._replace(awaiting=(), deadline=None), NAME, slot)


def fold_opened(state: TableState, e: ev.PlayOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_played(state: TableState, e: ev.CardPlayed) -> TableState:
    deal = state.deal
    assert deal is not None
    slot, i = tricks_of(deal), deal.position(e.player)
    hand = tuple(c for c in deal.hands[i] if c != e.card)
    moved = deal._replace(awaiting=(), deadline=None, hands=set_at(deal.hands, i, hand))
    return state._replace(
        deal=with_slot(moved, NAME, slot._replace(playing=(*slot.playing, (e.player, e.card))))
    )


def fold_won(state: TableState, e: ev.TrickWon) -> TableState:
    deal = state.deal
    assert deal is not None
    slot = tricks_of(deal)
    slot = slot._replace(playing=(), finished=(*slot.finished, (e.winner, slot.playing)))
    moved = with_slot(deal, NAME, slot)
    if len(slot.finished) == TRICKS:  # WL-10, WL-11
        moved = moved._replace(winners=tuple(p for p, n in won(moved).items() if n >= TO_WIN))
    return state._replace(deal=moved)


# --- what the settlement and the stakes ask of it --------------------------------------------------


def owes(deal: DealState) -> dict[str, int]:
    """WL-10..12, D-WL-06: the multiple of the pot each player of the tricks pays unless he won
    three: one, or two for no trick at all under WL-12 ({} when no tricks were played)."""
    slot = tricks_of(deal)
    if len(slot.finished) < TRICKS:
        return {}
    return {p: 2 if slot.no_trick_double and n == 0 else 1 for p, n in won(deal).items()}


def pot_multiple(params: TricksParams) -> int:
    """D-GEN-06: what "in" can cost: twice the pot under WL-12."""
    return 2 if params.no_trick_double else 1


@dataclass(frozen=True, slots=True)
class TricksParams:
    """The tricks step's parameters."""

    no_trick_double: bool = False


KIND = StepKind(
    name=NAME,
    params=TricksParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.PlayOpened: fold_opened, ev.CardPlayed: fold_played, ev.TrickWon: fold_won},
    commands={cmd.PlayCard: (check_play, play)},
    actions=("play",),
    offers=offers,
    expire=expire,
    view=view,
    pot_multiple=pot_multiple,
    owes=owes,
    slot=TricksSlot,
)
