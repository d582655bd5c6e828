"""Events: facts in the past tense (DESIGN §2.2, §5.2), one frozen dataclass per type.

The stored JSON is the contract and the class is its reader: `to_json()` writes exactly the data
the store keeps, `parse(type, data)` reads it back (keys it does not know, such as the store's
``secret`` and ``salt``, are ignored; an unknown type becomes `Unknown`, which folds to nothing).
Data is plain JSON: lists, not tuples; times ISO-8601 UTC; cards as strings ("As").

Every chip movement is in ``transfers`` (`ledger.accounts.Transfer`s, stored as their JSON); an
event's transfers are its whole money effect, and `evolve` applies them for every event type alike.

Hidden facts (hole cards, the ghost hand, sealed declares, passed cards, the seed, private
comparisons) are declared by their class: `SECRET` names the keys, `secret_keys(data)` the ones an
event holds, `AUDIENCE` who sees them and when (`visibility.may_see`); the store seals them, the
read side redacts them.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from ledger.accounts import Transfer

Transfers = list[Transfer]  # JSON: a list of `Transfer.to_json()` dicts
E = TypeVar("E", bound="Event")

# Who may see an event's secret facts, and when (`visibility.may_see` holds the rule for each).
HOLDER = "holder"  # the player the event is about; auditors once the deal is over
HOLDER_THEN_ALL = "holder_then_all"  # the player; everyone once the deal is over (sealed declares)
HOLDER_ONLY = "holder_only"  # the player alone (his client seed; the deal start publishes them all)
ALL_AFTER_DEAL = "all_after_deal"  # everyone once the deal is over
AUDITORS_AFTER_DEAL = "auditors_after_deal"  # auditors once the deal is over
COMPARED = "compared"  # the players compared; auditors once the deal is over
NOBODY = "nobody"  # no reader (revealed, if ever, by a later event of its own)

TRANSFERS = "transfers"  # the money field: `Transfer`s in the event, their JSON in the store
REGISTRY: dict[str, type[Event]] = {}  # every event class by type name, filled as classes are made


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. `OMIT_IF_DEFAULT` fields are left out of the JSON at their default,
    so an optional key appears only where today's logs have it.

    `at_step` ([stage, step]) is carried by the first event a step of the deal's program records: the
    program's position moves with the facts that happen anyway, instead of a bookkeeping event of
    its own (StageStarted/StepStarted, which older logs hold and which still fold). Omitted when
    None."""

    TYPE: ClassVar[str] = ""
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset()
    SECRET: ClassVar[tuple[str, ...]] = ()
    AUDIENCE: ClassVar[str] = HOLDER
    at_step: list[int] | None = field(default=None, kw_only=True)

    def __init_subclass__(cls) -> None:
        """Registers the class under its type name (the class name unless it sets `TYPE`): the
        one place a type name is written. (No `super()`: slotted dataclasses are rebuilt.)"""
        if "TYPE" not in cls.__dict__:
            cls.TYPE = cls.__name__
        if cls.TYPE:
            REGISTRY[cls.TYPE] = cls

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        """The keys of `data` that hold facts some reader may not see yet: the declared `SECRET`
        keys that hold a value (empty: a public event). `AUDIENCE` says who sees them, and when
        (`visibility.may_see`)."""
        return tuple(key for key in cls.SECRET if data.get(key) is not None)

    @property
    def type(self) -> str:
        return self.TYPE

    @property
    def data(self) -> dict[str, Any]:
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.OMIT_IF_DEFAULT and value == f.default:
                continue
            if f.name == "at_step" and value is None:
                continue
            out[f.name] = [move.to_json() for move in value] if f.name == TRANSFERS else value
        return out

    @classmethod
    def from_json(cls: builtins.type[E], data: Mapping[str, Any]) -> E:
        given = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        if TRANSFERS in given:
            given[TRANSFERS] = [Transfer.from_json(move) for move in given[TRANSFERS]]
        made: E = cls(**given)
        return made


# --- the table --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    SECRET: ClassVar[tuple[str, ...]] = ("stacked_decks",)
    AUDIENCE: ClassVar[str] = NOBODY

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"tournament_id", "name"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return ("stacked_decks",) if data.get("stacked_decks") else ()

    table_id: str
    variant: str
    options: dict[str, Any]
    stacked: bool = False
    stacked_decks: list[list[str]] | None = None  # SECRET on stacked tables: every future deal
    tournament_id: str | None = None  # a tournament's table: unit t:<id>
    name: str = ""  # what people call the table (public; the rules never read it)


@dataclass(frozen=True, slots=True)
class PlayerSeated(Event):
    player: str
    seat: int  # 0-based, clockwise order
    buy_in: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class StackToppedUp(Event):
    player: str
    amount: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: str
    cash_out: int  # negative: a debt settled (allow_debt)
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    shares: dict[str, int]  # of pot and reserve, D-GEN-07
    cash_outs: dict[str, int]
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class PlayerSatOut(Event):
    player: str
    reason: str  # "timeouts" | "requested"
    timeouts: int


@dataclass(frozen=True, slots=True)
class PlayerSatIn(Event):
    player: str


# --- the deal and its program ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    SECRET: ClassVar[tuple[str, ...]] = ("seed",)
    AUDIENCE: ClassVar[str] = ALL_AFTER_DEAL
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"deck_schema", "root", "entropy"})
    deal_no: int
    game_no: int
    dealer: str
    participants: list[str]  # dealer's left first, dealer last
    sat_out: list[str]
    by: str | None
    stacked: bool
    seed: str | None  # deck schema 1: SECRET until DealEnded
    commitment: str | None
    # deck schema 2 (fairdeck): the Merkle root of the deck committed before the players' seeds,
    # and those seeds [{player, client_seed}] in the order given ([]: no player entropy)
    deck_schema: int = 1
    root: str | None = None
    entropy: list[dict[str, str]] | None = None


@dataclass(frozen=True, slots=True)
class StageStarted(Event):
    """The program enters stage `stage` (1-based); its first step follows as StepStarted."""

    deal_no: int
    stage: int
    name: str


@dataclass(frozen=True, slots=True)
class StepStarted(Event):
    """The program's position moves to step `step` (0-based) of stage `stage`: the only way it
    moves (forward, or back to a declare after AO-06/AO-07)."""

    deal_no: int
    stage: int
    step: int
    kind: str


@dataclass(frozen=True, slots=True)
class AntesPosted(Event):
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"exempt"})
    deal_no: int
    due: bool  # false: the pot carries (G2-05)
    ante: int
    paid: list[str]
    sat_out: list[str]  # seated, not dealt in (D-GEN-06)
    transfers: Transfers
    exempt: list[str] | None = None  # excused by the last deal (SL-04, D-AO-02)


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Face down: `cards` is everything the player holds (SECRET to others). Face up: `cards` are
    only the new face-up cards, public to everyone at once."""

    SECRET: ClassVar[tuple[str, ...]] = ("cards",)

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"extra"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return ("cards",) if data.get("face", "down") != "up" else ()

    deal_no: int
    player: str
    face: str  # "down" | "up"
    cards: list[str]
    extra: bool = False  # AO-07's extra card


@dataclass(frozen=True, slots=True)
class GhostDealt(Event):
    """The ghost hand (GH-01, GH-02), dealt last in each round (D-GH-03): `cards` is every card it
    holds, SECRET to everyone (auditors once the deal is over); the showdown shows it (GH-03)."""

    SECRET: ClassVar[tuple[str, ...]] = ("cards",)
    AUDIENCE: ClassVar[str] = AUDITORS_AFTER_DEAL

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"face"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return ("cards",) if data.get("face", "down") != "up" else ()  # MCA-05: face up

    deal_no: int
    cards: list[str]
    face: str = "down"  # "up": MCA-05's open hand, public at once


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Community cards face up in the middle (423-02), public."""

    deal_no: int
    cards: list[str]


@dataclass(frozen=True, slots=True)
class DeclareOpened(Event):
    deal_no: int
    mode: str  # "sequential" | "simultaneous"
    players: list[str]  # whose turn: one, or all in the window
    deadline: str


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A player's choice. In a sequential declare it also opens the next player's turn (`turn`,
    with its `deadline`), so a turn costs one event, not two (older logs open each turn with a
    DeclareOpened, which still folds)."""

    SECRET: ClassVar[tuple[str, ...]] = ("choice",)
    AUDIENCE: ClassVar[str] = HOLDER_THEN_ALL

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"turn", "deadline"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return ("choice",) if data.get("sealed") else ()

    deal_no: int
    player: str
    choice: str  # SECRET while sealed
    sealed: bool
    forced: bool  # G2-10: the dealer forced in
    turn: str | None = None  # sequential: whose turn opens now
    deadline: str | None = None  # ... and until when


@dataclass(frozen=True, slots=True)
class ForcedIn(Event):
    """CFR-01: on the first deal of a game every player is "in" without a declare (public)."""

    deal_no: int
    players: list[str]
    rule: str  # "CFR-01"


@dataclass(frozen=True, slots=True)
class DeclareTimedOut(Event):
    deal_no: int
    players: list[str]
    effect: str  # "out"


@dataclass(frozen=True, slots=True)
class DeclaresRevealed(Event):
    deal_no: int
    choices: dict[str, str]


@dataclass(frozen=True, slots=True)
class PassOpened(Event):
    """A sealed pass window: everyone chooses one card before seeing what he receives. `direction`
    ``right`` (AO-06, everyone out) or ``left`` (EXC-03, the three-card pass before the declare)."""

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"direction"})
    deal_no: int
    players: list[str]
    deadline: str
    direction: str = "right"


@dataclass(frozen=True, slots=True)
class CardPassed(Event):
    SECRET: ClassVar[tuple[str, ...]] = ("card",)
    deal_no: int
    player: str
    card: str  # SECRET: the passer's own
    timed_out: bool


@dataclass(frozen=True, slots=True)
class CardsExchanged(Event):
    SECRET: ClassVar[tuple[str, ...]] = ("cards", "gave", "received")  # EXC-01/02: the count is public

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(key for key in cls.SECRET if key in data)

    deal_no: int
    player: str
    gave: str
    received: str
    cards: list[str]  # his new hand (SECRET like CardsDealt)


@dataclass(frozen=True, slots=True)
class BidOpened(Event):
    """MCA-04, D-MC-04: `player`'s turn to bid for the open hand (more than `high_bid`) or pass."""

    deal_no: int
    player: str
    high_bid: int
    deadline: str


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A bid for the open hand (`amount`), or a pass (null); public."""

    deal_no: int
    player: str
    amount: int | None
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class OpenHandBought(Event):
    """D-MC-04: every other player passed after `player`'s bid: he pays it into the pot and swaps
    hands with the open hand (face up, so `gave` and `received` are public)."""

    deal_no: int
    player: str
    bid: int
    gave: list[str]  # his cards, now the open hand
    received: list[str]  # the open hand, now his cards
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class ExchangeOpened(Event):
    """EXC-01/02, Q-EXC-01: `player`'s turn to draw, replacing up to `most` cards (public)."""

    deal_no: int
    player: str
    most: int
    deadline: str


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """A player's draw (EXC-01/02): he discarded `discarded` (out of play) and took as many cards
    from the stock, `drawn`, in the order they left it; `cards` is his new hand. SECRET to others:
    discarded, drawn, cards; `count` is public (everyone sees how many cards a player takes).
    `timed_out`: his turn expired and he stood pat."""

    SECRET: ClassVar[tuple[str, ...]] = ("cards", "discarded", "drawn")  # EXC-01/02: the count is public

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"split_openers", "deferred"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(key for key in cls.SECRET if key in data)

    deal_no: int
    player: str
    count: int
    discarded: list[str]
    drawn: list[str]
    cards: list[str]
    timed_out: bool = False
    split_openers: bool = False  # IT-16, D-IT-03: the opener says he splits them
    deferred: bool = False  # IT-15: the last card of a four-card draw


@dataclass(frozen=True, slots=True)
class StockReshuffled(Event):
    """D-GEN-02: the stock ran out, so the discards out of play (`cards`, SECRET until the deal is
    over, then to auditors) were shuffled by the provable method (deck.reshuffle_seed, the
    `generation`-th reshuffle of the deal) into a new stock under what was left."""

    SECRET: ClassVar[tuple[str, ...]] = ("cards", "salts")
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"root", "salts"})
    deal_no: int
    generation: int
    count: int
    cards: list[str]
    root: str | None = None  # deck schema 2: the new stock's Merkle root
    salts: list[str] | None = None  # deck schema 2: SECRET, one per new slot


# --- betting (D-BET) -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetTurnOpened(Event):
    """D-BET: `player`'s turn in the betting round: `to_call` chips to match the highest stake,
    `unit` the bet and raise size, `raises` made so far in the round (public)."""

    deal_no: int
    player: str
    to_call: int
    unit: int
    raises: int
    deadline: str


@dataclass(frozen=True, slots=True)
class BetMade(Event):
    """D-BET: a check, bet, call, raise or fold (public); `amount` chips moved from his seat to
    the deal's bets account (`transfers`); `timed_out`: his turn expired (check, else fold)."""

    SECRET: ClassVar[tuple[str, ...]] = ("openers",)  # IT-07, D-IT-03: shown by OpenersShown
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"all_in", "openers"})
    deal_no: int
    player: str
    action: str  # check | bet | open | call | raise | fold
    amount: int
    timed_out: bool
    transfers: Transfers
    all_in: bool = False  # D-IT-02: his whole stack (side pots)
    openers: list[str] | None = None  # IT-07, D-IT-03: SECRET, the cards he opened on


@dataclass(frozen=True, slots=True)
class NobodyOpened(Event):
    """IT-11, D-IT-02: every player checked the first round; the deal is passed, the pot (`pot`
    chips) stays for the next deal, dealt by the next dealer, to which everyone antes again."""

    deal_no: int
    pot: int


@dataclass(frozen=True, slots=True)
class OpenersShown(Event):
    """IT-16, D-IT-03: at the end of the deal the opener's qualifying cards (`openers`), and
    whether he split them in the draw (`split`: then some are among his discards, kept apart),
    are shown to every player of the deal, even after an uncontested win (public)."""

    deal_no: int
    player: str
    openers: list[str]
    split: bool


@dataclass(frozen=True, slots=True)
class BetsGathered(Event):
    """D-IT-02: a poker betting round is over and its bets are gathered into the pots (public):
    the main pot is the pot account, each side pot an account of its own
    (`sidepot:<table>:<n>`); `pots`: every pot as formed so far, [{pot, account, amount,
    contributors, eligible, contributions}]; `transfers` move the called chips from the bets
    account into them (an uncalled bet stays there until the pots are awarded)."""

    deal_no: int
    round: int
    pots: list[dict[str, Any]]
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class PotsAwarded(Event):
    """D-IT-02: each pot (the main pot, then the side pots, as standard poker forms them) to the
    best hand among the players still in who contributed to it (`pots`: [{pot, amount,
    contributors, eligible, winners, shares}]), shared by D-GEN-01; `returned`: an uncalled bet
    back to its bettor ({player, amount} or null). `reason`: contested | uncontested."""

    deal_no: int
    reason: str
    pots: list[dict[str, Any]]
    returned: dict[str, Any] | None
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class BetsAwarded(Event):
    """D-BET: the deal's bets (`amount`) paid to the showdown's winner(s), shared by D-GEN-01; with
    no winner (GH-05) into the pot."""

    deal_no: int
    winners: list[str]
    amount: int
    transfers: Transfers


# --- the showdown ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowdownHeld(Event):
    """Hands compared. `private` (357-09, D-357-03): only the players compared (and auditors after
    the deal) see `hands`; who won and lost is public. `worst` (Survivor, SV-02/03): the worst
    shown hand(s), written only by a showdown step that names them. `ghost` (GH-03..05): the ghost
    hand when it took part, shown to everyone: {cards, value, category, won}."""

    SECRET: ClassVar[tuple[str, ...]] = ("hands",)
    AUDIENCE: ClassVar[str] = COMPARED  # 357-09, D-357-03

    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"private", "worst", "ghost", "sides"})

    @classmethod
    def secret_keys(cls, data: Mapping[str, Any]) -> tuple[str, ...]:
        return ("hands",) if data.get("private") else ()

    deal_no: int
    reason: str  # "contested" | "uncontested" | "all_out"
    hands: list[dict[str, Any]] | None  # [{player, cards, value, category}]
    winners: list[str]
    losers: list[str]
    private: bool = False
    worst: list[str] | None = None  # the worst shown hand(s) (SV-02), if asked for
    ghost: dict[str, Any] | None = None
    sides: dict[str, list[str]] | None = None  # 43-05, D-43-01: {high, low, both_failed}


@dataclass(frozen=True, slots=True)
class DeckCompared(Event):
    """42X-03: the lone "in" player's four cards against the deck's next four (D-42X-04)."""

    deal_no: int
    player: str
    cards: list[str]
    deck_cards: list[str]
    player_value: str
    deck_value: str
    winner: str  # "player" | "deck" (ties go to the deck)


@dataclass(frozen=True, slots=True)
class PotSettled(Event):
    OMIT_IF_DEFAULT: ClassVar[frozenset[str]] = frozenset({"ante_exempt"})
    deal_no: int
    outcome: str
    winners: list[str]
    matchers: list[str]
    transfers: Transfers
    pot: int  # balances after
    reserve: int
    ante_exempt: list[str] | None = None  # skip the next deal's ante (SL-04, D-AO-02)


@dataclass(frozen=True, slots=True)
class LegAwarded(Event):
    """357-03: a lone "in" player earns a leg (token)."""

    deal_no: int
    stage: int
    player: str
    legs: int  # his legs now


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """357-25: the holder of the legs needed takes the whole pot (and the reserve)."""

    deal_no: int
    player: str
    legs: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    deal_no: int
    seed: str | None  # revealed; null when stacked
    commitment: str | None = None
    stacked: bool = False


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    game_no: int
    reason: str | None
    final: bool = False  # end_on_empty_pot closes the table


# --- tournament tables: every transfer in the unit t:<tournament> ------------------------


@dataclass(frozen=True, slots=True)
class EntrantSeated(Event):
    """A tournament entrant takes `seat` with `chips` from the chip bank."""

    player: str
    seat: int
    chips: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class EntrantMovedOut(Event):
    """Balancing or a table break: the entrant leaves for `to_table`, his whole stack moving to his
    seat there (the transfer); EntrantMovedIn on that table seats him without one."""

    player: str
    to_table: str
    chips: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class EntrantMovedIn(Event):
    """The entrant arrives from `from_table` with `chips` (moved by its EntrantMovedOut)."""

    player: str
    seat: int
    from_table: str
    chips: int


@dataclass(frozen=True, slots=True)
class EntrantRemoved(Event):
    """An eliminated entrant (0 chips) leaves; at completion the winner's chips go to the bank."""

    player: str
    chips: int
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class TableBroken(Event):
    """No deal starts any more; pot and reserve shared among the seated (D-GEN-07, D-GEN-01), or
    to the chip bank when nobody sits here. Entrants are then moved out or removed."""

    shares: dict[str, int]
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class TableFinished(Event):
    """The tournament is over: pot and reserve to the winner's seat (if he sits here, else to the
    bank), then every stack to the chip bank; the table is closed."""

    winner: str | None
    transfers: Transfers


@dataclass(frozen=True, slots=True)
class AnteChanged(Event):
    """The ante of the deals that start from now on (a live deal keeps its own)."""

    ante: int


TOURNAMENT_EVENTS: tuple[type[Event], ...] = (
    EntrantSeated,
    EntrantMovedOut,
    EntrantMovedIn,
    EntrantRemoved,
    TableBroken,
    TableFinished,
    AnteChanged,
)
ENTRANT_SEATED, ENTRANT_MOVED_OUT, ENTRANT_MOVED_IN = "EntrantSeated", "EntrantMovedOut", "EntrantMovedIn"
ENTRANT_REMOVED, TABLE_BROKEN, TABLE_FINISHED = "EntrantRemoved", "TableBroken", "TableFinished"
ANTE_CHANGED = "AnteChanged"


# --- Thirty Eight's escalation (T38-03/04, D-T38-01; steps/escalation.py) ---------------------------


@dataclass(frozen=True, slots=True)
class EscalationOpened(Event):
    """T38-03, D-T38-01: `player`'s turn to accept the pot's `level` (a multiple of the pot), raise
    it, or fold at `accepted`, the highest level he has accepted (public)."""

    deal_no: int
    player: str
    level: int
    accepted: int
    deadline: str


@dataclass(frozen=True, slots=True)
class Escalated(Event):
    """A player's answer (public): `action` single | double | triple (accept or raise to that level)
    or fold; `level` is the level he stands at now, for a fold the level he pays at (T38-04).
    `timed_out`: his turn expired (he accepted when that cost nothing more, else folded)."""

    deal_no: int
    player: str
    action: str
    level: int
    timed_out: bool = False


# --- Buddha's Folly's offer (BF-02..04, D-BF-01; steps/offer.py) ------------------------------------


@dataclass(frozen=True, slots=True)
class MiddleCardTurned(Event):
    """BF-02: the dealer turns the top card of the stock face up in the middle (public)."""

    deal_no: int
    card: str


@dataclass(frozen=True, slots=True)
class OfferOpened(Event):
    """BF-02..04: the middle `card` is offered to `player` (public)."""

    deal_no: int
    player: str
    card: str
    deadline: str


@dataclass(frozen=True, slots=True)
class OfferAnswered(Event):
    """BF-03, D-BF-01 (public): `action` take (the middle card `card` joins his hand and `gave`,
    one of his own, goes face up in its place) or leave (`gave` null). `timed_out`: his turn
    expired and he left the card."""

    deal_no: int
    player: str
    action: str
    card: str
    gave: str | None = None
    timed_out: bool = False


# --- Wolfie's Lou: the questioning, the trump and the tricks (WL-04..11, D-WL-01..06) ---------------


@dataclass(frozen=True, slots=True)
class TrumpChooserNamed(Event):
    """WL-04, WL-05, D-WL-02: the server's questioning names the holder of the best poker hand
    among the "in" players (public); `ranking` (SECRET: auditors once the deal is over) lists
    every "in" player with his hand's value, best first."""

    SECRET: ClassVar[tuple[str, ...]] = ("ranking",)  # D-WL-02
    AUDIENCE: ClassVar[str] = AUDITORS_AFTER_DEAL
    deal_no: int
    chooser: str
    ranking: list[dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class TrumpOpened(Event):
    deal_no: int
    player: str
    deadline: str


@dataclass(frozen=True, slots=True)
class TrumpChosen(Event):
    """WL-06, D-WL-05 (public): a suit (c, d, h, s), no_trump or reverse."""

    deal_no: int
    player: str
    trump: str
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class PlayOpened(Event):
    """WL-07, D-WL-03: `player`'s turn to play a card to trick `trick` (1..5; public)."""

    deal_no: int
    player: str
    trick: int
    deadline: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card played to a trick: public at once (the rest of the hand stays secret).
    `timed_out`: his turn expired and the lowest legal card was played for him."""

    deal_no: int
    player: str
    trick: int
    card: str
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """WL-08, WL-09, D-WL-04 (public): the trick's cards in the order played and its winner."""

    deal_no: int
    trick: int
    winner: str
    cards: list[dict[str, str]]


# --- fair deals (tables.engine.fairdeck; decider.fair) --------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckCommitted(Event):
    """The deck of deal `deal_no`, committed before the seeds that will permute it: the Merkle
    `root` over its `size` per-card commitments is public; `cards` (the committed order) and
    `salts` are SECRET to everyone (a card's opening is served to those who may see the card)."""

    SECRET: ClassVar[tuple[str, ...]] = ("cards", "salts")
    AUDIENCE: ClassVar[str] = NOBODY  # the proof opens each card to its viewers
    deal_no: int
    root: str
    size: int
    cards: list[str]
    salts: list[str]


@dataclass(frozen=True, slots=True)
class SeedContributed(Event):
    """A player's `client_seed` for the permutation of deal `deal_no` (whose deck is committed
    already): SECRET to all but him until that deal's DealStarted publishes every seed."""

    SECRET: ClassVar[tuple[str, ...]] = ("client_seed",)
    AUDIENCE: ClassVar[str] = HOLDER_ONLY
    deal_no: int
    player: str
    client_seed: str


FAIR_EVENTS: tuple[type[Event], ...] = (DeckCommitted, SeedContributed)
DECK_COMMITTED, SEED_CONTRIBUTED = DeckCommitted.TYPE, SeedContributed.TYPE


@dataclass(frozen=True, slots=True)
class Unknown(Event):
    """An event of a later schema (or another stream): kept as is, folded to nothing."""

    TYPE: ClassVar[str] = ""  # not registered: it stands for any type the registry lacks

    type_name: str = ""
    raw: dict[str, Any] | None = None

    @property
    def type(self) -> str:
        return self.type_name

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw or {})


# Every table event class, as registered (tournament events register from their own module).
EVENT_TYPES: tuple[type[Event], ...] = tuple(REGISTRY.values())
BY_TYPE: dict[str, type[Event]] = dict(REGISTRY)

# The type names, for code that filters stored events by type: aliases of the classes' own names.
TABLE_OPENED = TableOpened.TYPE
PLAYER_SEATED = PlayerSeated.TYPE
STACK_TOPPED_UP = StackToppedUp.TYPE
PLAYER_LEFT = PlayerLeft.TYPE
TABLE_CLOSED = TableClosed.TYPE
PLAYER_SAT_OUT = PlayerSatOut.TYPE
PLAYER_SAT_IN = PlayerSatIn.TYPE
DEAL_STARTED = DealStarted.TYPE
STAGE_STARTED = StageStarted.TYPE
STEP_STARTED = StepStarted.TYPE
ANTES_POSTED = AntesPosted.TYPE
CARDS_DEALT = CardsDealt.TYPE
BOARD_DEALT = BoardDealt.TYPE
GHOST_DEALT = GhostDealt.TYPE
FORCED_IN = ForcedIn.TYPE
DECLARE_OPENED = DeclareOpened.TYPE
DECLARED = Declared.TYPE
DECLARE_TIMED_OUT = DeclareTimedOut.TYPE
DECLARES_REVEALED = DeclaresRevealed.TYPE
PASS_OPENED = PassOpened.TYPE
CARD_PASSED = CardPassed.TYPE
CARDS_EXCHANGED = CardsExchanged.TYPE
SHOWDOWN_HELD = ShowdownHeld.TYPE
DECK_COMPARED = DeckCompared.TYPE
POT_SETTLED = PotSettled.TYPE
LEG_AWARDED = LegAwarded.TYPE
POT_AWARDED = PotAwarded.TYPE
DEAL_ENDED = DealEnded.TYPE
GAME_ENDED = GameEnded.TYPE
BID_OPENED = BidOpened.TYPE
BID_MADE = BidMade.TYPE
OPEN_HAND_BOUGHT = OpenHandBought.TYPE
EXCHANGE_OPENED = ExchangeOpened.TYPE
CARDS_DRAWN = CardsDrawn.TYPE
STOCK_RESHUFFLED = StockReshuffled.TYPE
ESCALATION_OPENED = EscalationOpened.TYPE
ESCALATED = Escalated.TYPE
BET_TURN_OPENED = BetTurnOpened.TYPE
BET_MADE = BetMade.TYPE
BETS_AWARDED = BetsAwarded.TYPE
MIDDLE_CARD_TURNED = MiddleCardTurned.TYPE
OFFER_OPENED = OfferOpened.TYPE
OFFER_ANSWERED = OfferAnswered.TYPE
TRUMP_CHOOSER_NAMED = TrumpChooserNamed.TYPE
TRUMP_OPENED = TrumpOpened.TYPE
TRUMP_CHOSEN = TrumpChosen.TYPE
PLAY_OPENED = PlayOpened.TYPE
CARD_PLAYED = CardPlayed.TYPE
TRICK_WON = TrickWon.TYPE
NOBODY_OPENED = NobodyOpened.TYPE
OPENERS_SHOWN = OpenersShown.TYPE
POTS_AWARDED = PotsAwarded.TYPE
BETS_GATHERED = BetsGathered.TYPE
PROGRESS = frozenset({STAGE_STARTED, STEP_STARTED})  # the program's position, nothing else


def parse(type_name: str, data: Mapping[str, Any]) -> Event:
    """The typed event for stored (type, data)."""
    cls = REGISTRY.get(type_name)
    if cls is None:
        return Unknown(type_name, dict(data))
    return cls.from_json(data)


def transfers_of(event: Event) -> Transfers:
    """The event's chip movements (empty for events that move none)."""
    value = getattr(event, "transfers", None)
    return value if value is not None else []
