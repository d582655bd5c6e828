"""The betting kind's own facts (only `steps.betting` imports this module)."""

from __future__ import annotations

from typing import NamedTuple


class BettingSlot(NamedTuple):
    """The deal's bets, aligned with `order`: each player's stake in the current round and in the
    whole deal; the raises of the round (after its bet), who has acted since the round's last bet
    or raise, and the index in `order` from which the next turn is sought; in poker betting
    (Italian poker) who opened, on what, and whether nobody did; where each player stood when he
    last acted and the size of the last full raise (who may raise again after an all-in for
    less), and which round this is."""

    bet_round: tuple[int, ...] = ()
    bet_total: tuple[int, ...] = ()
    raises: int = 0
    bet_acted: tuple[str, ...] = ()
    bet_turn: int = 0
    opener: str | None = None  # IT-07: who opened the first round (poker betting)
    openers: tuple[str, ...] = ()  # D-IT-03: the cards that qualified him (secret)
    opener_hand: tuple[str, ...] = ()  # his hand when he opened (his discards are kept apart)
    no_open: bool = False  # IT-11: everyone checked; the deal is passed
    # poker betting only (all_in; empty in D-BET's rounds):
    acted_at: tuple[int, ...] = ()  # aligned with order: the round's highest stake when each last
    # acted (-1: not yet); a short all-in raise reopens the betting to nobody who acted after it
    full_raise: int = 0  # the round's last full bet or raise, in chips above the stake it raised
    round_no: int = 0  # the betting rounds started in the deal (1: before the draw, 2: after)
