"""Commands: what a caller asks the table to do. Plain dataclasses; `decide` checks them. The
players' commands inside a deal are `StepCommand`s, dispatched to the current step's kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tables.engine.fairdeck import SecretDeck


@dataclass(frozen=True)
class OpenTable:
    table_id: str
    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    stacked_decks: list[list[str]] | None = None  # deal n uses stacked_decks[(n-1) % len]
    stacked_allowed: bool = False  # the service passes GUTS_ALLOW_STACKED_DECKS
    tournament_id: str | None = None  # a tournament's table: plays in unit t:<id>
    next_deck: SecretDeck | None = None  # the first deal's deck, committed at once (fairdeck)
    name: str = ""  # the table's name, recorded in TableOpened (the service chooses the default)


@dataclass(frozen=True)
class SitDown:
    player_id: str
    buy_in: int  # the player takes the lowest free seat


@dataclass(frozen=True)
class TopUp:
    player_id: str
    amount: int


@dataclass(frozen=True)
class Leave:
    player_id: str


@dataclass(frozen=True)
class SitOut:
    player_id: str  # keeps the seat and stack, not dealt in from the next deal


@dataclass(frozen=True)
class SitIn:
    player_id: str


@dataclass(frozen=True)
class CloseTable:
    pass


@dataclass(frozen=True)
class StartDeal:
    by_player_id: str | None = None
    seed: str | None = None  # deck schema 1 (engine tests): the seed recipe of deck.py
    after_deal_no: int | None = None  # only if deal_no is still this (else nothing): idempotent
    # deck schema 2, drawn by the service (fairdeck.new_secret_deck): the deck of this deal if none
    # is committed yet, and the next deal's deck, committed now
    deck: SecretDeck | None = None
    next_deck: SecretDeck | None = None


@dataclass(frozen=True)
class StepCommand:
    """A player's command inside a deal: the kind of the deal's current step takes it (its
    `commands`), so a new kind may define its command in its own module, beside its handler."""

    player_id: str
    deal_no: int


@dataclass(frozen=True)
class Declare(StepCommand):
    choice: str  # one of the open declare step's choices ("in" | "out")
    stage: int | None = None  # if given, must be the open declare's stage (wrong_stage)


@dataclass(frozen=True)
class PassCard(StepCommand):
    card: str  # AO-06: to the player on his right; EXC-03: on his left


@dataclass(frozen=True)
class Exchange(StepCommand):
    discards: list[str]  # EXC-01/02: the cards to replace from the stock ([] stands pat)
    split_openers: bool = False  # IT-16, D-IT-03: the opener says he discards openers
    salts: tuple[str, ...] = ()  # drawn by the service: a reshuffled stock's new slots (D-GEN-02)


@dataclass(frozen=True)
class Bid(StepCommand):
    amount: int | None  # MCA-04, D-MC-04: chips bid for the open hand; None = pass


@dataclass(frozen=True)
class Bet(StepCommand):
    action: str  # D-BET: check | bet | call | raise | fold; IT-07: open
    amount: int | None = None  # if given, must be the chips the action moves (fixed limit)


@dataclass(frozen=True)
class Offer(StepCommand):
    action: str  # BF-03: take (the middle card, giving `card`) | leave
    card: str | None = None  # take: the card of his hand he puts face up in its place


@dataclass(frozen=True)
class ChooseTrump(StepCommand):
    trump: str  # WL-06, D-WL-05: c | d | h | s | no_trump | reverse


@dataclass(frozen=True)
class PlayCard(StepCommand):
    card: str  # WL-07: a card of his hand to the current trick (D-WL-04)


@dataclass(frozen=True)
class ContributeSeed:
    player_id: str
    client_seed: str  # hex, 128 to 512 bits: keys the next committed deck's permutation


@dataclass(frozen=True)
class ExpireDeclare:
    deal_no: int
    salts: tuple[str, ...] = ()  # drawn by the service: a stock reshuffled by the draws the
    # timeout ends (IT-14, D-GEN-02) commits its new slots with them


# --- tournament tables: issued by the tournament service, never by clients ------------


@dataclass(frozen=True)
class SeatEntrant:
    player_id: str
    chips: int  # from the tournament's chip bank
    seat: int | None = None  # None: the lowest free seat


@dataclass(frozen=True)
class MoveEntrantOut:
    player_id: str
    to_table_id: str  # his whole stack moves to his seat there


@dataclass(frozen=True)
class MoveEntrantIn:
    player_id: str
    from_table_id: str
    chips: int  # what MoveEntrantOut moved (no transfer here)
    seat: int | None = None


@dataclass(frozen=True)
class RemoveEntrant:
    player_id: str  # eliminated (0 chips), or the winner at completion


@dataclass(frozen=True)
class BreakTable:
    pass


@dataclass(frozen=True)
class FinishTable:
    winner_id: str | None


@dataclass(frozen=True)
class SetAnte:
    ante: int  # from the next deal that starts


TournamentCommand = (
    SeatEntrant | MoveEntrantOut | MoveEntrantIn | RemoveEntrant | BreakTable | FinishTable | SetAnte
)


Command = (
    OpenTable
    | SitDown
    | TopUp
    | Leave
    | SitOut
    | SitIn
    | CloseTable
    | StartDeal
    | StepCommand
    | ExpireDeclare
    | TournamentCommand
    | ContributeSeed
)
