"""The decider's state: immutable values (named tuples) folded from events.

`TableState` holds the table (seats, stacks and legs, pot, reserve, button, counters, the game
being played) and `DealState` the current or last deal. Per-player facts of a deal are tuples
aligned with `DealState.order` (the participants from the dealer's left, dealer last), which
keeps evolve cheap.

Where the deal stands in its variant's program is explicit: `stage` (1-based; 0 before the first
StageStarted) and `step` (0-based within the stage; -1 before the stage's first StepStarted),
moved only by StageStarted and StepStarted. Per-step facts (the declare's choices, the showdown's
result) are reset when their step starts. Snapshots are in `snapshot`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ledger.accounts import UNIT_CHIPS, tournament_unit

if TYPE_CHECKING:
    from tables.engine.decider.variants import Step, Variant

T = TypeVar("T", bound=tuple[Any, ...])
_NO_SLOTS: Mapping[str, Any] = MappingProxyType({})


class Seat(NamedTuple):
    player: str
    seat: int  # 0-based; clockwise is increasing seat number, wrapping
    stack: int
    timeouts: int = 0  # consecutive declare timeouts (reset by any declare of his own)
    sitting_out: bool = False  # not dealt in until he sits in again (sit_out_after, or asked)
    legs: int = 0  # tokens of the current game (357-03); reset when the game ends


class DealState(NamedTuple):
    deal_no: int
    game_no: int
    dealer: str
    order: tuple[str, ...]  # participants: dealer's left first, dealer last
    step: int = 0  # the current step of the current stage (0-based)
    hands: tuple[tuple[str, ...], ...] = ()  # aligned with order: every card each one holds
    choices: tuple[str | None, ...] = ()  # aligned with order: the current declare's choices
    sealed: bool = False  # a simultaneous window's choices are not revealed yet
    awaiting: tuple[str, ...] = ()  # whose declare (or pass) is awaited now
    deadline: str | None = None  # ISO-8601 UTC deadline of the open turn/window
    timed_out: tuple[str, ...] = ()
    forced: str | None = None  # the dealer forced in (G2-10)
    shown: tuple[str, ...] = ()  # players whose hands everyone has seen
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    outcome: str | None = None
    seed: str | None = None  # secret until DealEnded
    commitment: str | None = None
    stacked: bool = False
    over: bool = False
    passing: bool = False  # AO-06: a pass-right window is open
    passed: tuple[str | None, ...] = ()  # aligned with order: the card each chose to pass (sealed)
    stage: int = 0  # 1-based; 0 = the program has not started
    explicit: bool = False  # positions come from StageStarted/StepStarted events
    up: tuple[tuple[str, ...], ...] = ()  # aligned with order: the face-up cards among hands
    board: tuple[str, ...] = ()  # community cards (423-02)
    compared: tuple[str, ...] = ()  # players in a private comparison (D-357-03)
    dealt: int = 0  # cards taken from the deck so far
    results: tuple[dict[str, Any], ...] = ()  # every stage's antes, showdown, settlement, leg, award
    ante_exempt: tuple[str, ...] = ()  # the settlement excused them from the next deal's ante
    worst: tuple[str, ...] = ()  # the worst shown hand(s), when the showdown names them (SV-02)
    ghost: tuple[str, ...] = ()  # the ghost hand (GH-02): secret until shown (GH-03)
    ghost_shown: bool = False  # the ghost took part in the showdown (GH-04, GH-08)
    ghost_won: bool = False  # no "in" player beat it (GH-05, D-GH-02)
    opens_game: bool = False  # the first deal of its game (CFR-01)
    compulsory: tuple[str, ...] = ()  # forced "in" without a declare (CFR-01)
    ghost_up: bool = False  # dealt face up: MCA-05's open hand, public
    exchanged: tuple[str, ...] = ()  # whose exchange (draw or pass, EXC-01..03) is done
    discards: tuple[str, ...] = ()  # out of play, not yet reshuffled (EXC-01/02, Q-EXC-01)
    reshuffles: tuple[tuple[str, ...], ...] = ()  # discard batches shuffled into the stock (D-GEN-02)
    sides: tuple[tuple[str, ...], ...] = ()  # 43-05: (High winners, Low winners) of the showdown
    folded: tuple[str, ...] = ()  # "in" players who folded (a betting round, an
    # escalation): not shown, still match (D-BET, T38-04)
    slots: Mapping[str, Any] = _NO_SLOTS  # each step kind's own facts, by kind name: named
    # tuples only that kind's module reads and writes
    fair: tuple[Any, ...] = ()  # deck schema 2: (root, permutation key, committed cards)

    def position(self, player: str) -> int:
        return self.order.index(player)

    def choice_of(self, player: str) -> str | None:
        return self.choices[self.order.index(player)] if player in self.order else None

    def in_players(self) -> tuple[str, ...]:
        """Who is "in": declared "in", or, after a later declare of another kind (43-03: High,
        Low or Both), anything but "out"."""
        return tuple(p for p, c in zip(self.order, self.choices, strict=True) if is_in(c))

    def hand_of(self, player: str) -> tuple[str, ...]:
        return self.hands[self.order.index(player)]


class TableState(NamedTuple):
    status: str = "new"  # "new" | "open" | "broken" (tournaments) | "closed"
    table_id: str = ""
    variant: str = ""
    options: tuple[tuple[str, Any], ...] = ()  # as recorded in TableOpened, sorted
    stacked_decks: tuple[tuple[str, ...], ...] | None = None
    seats: tuple[Seat, ...] = ()  # sorted by seat number
    pot: int = 0
    reserve: int = 0
    deal_no: int = 0  # the last deal started
    game_no: int = 0  # the current game (D-GEN-08)
    game_open: bool = False  # a game is running
    button: int | None = None  # seat number of the last dealer
    deal: DealState | None = None  # the current deal, or the last one once over
    game: Variant | None = None  # the variant's definition (not in snapshots: its name is)
    last_in: tuple[str, ...] = ()  # who was "in" at the last deal's end (D-42X-02)
    ante_exempt: tuple[str, ...] = ()  # skip this deal's ante: the last deal's settlement
    # said so (SL-04, D-MC-01, D-AO-02)
    waiting: tuple[str, ...] = ()  # seated during a game, dealt in from the next (MC-07)
    tournament_id: str | None = None  # a tournament's table
    next_ante: int | None = None  # SetAnte during a deal: the ante from the next deal
    bets: int = 0  # the live deal's bets account, apart from the pot (D-BET)
    committed: tuple[Any, ...] = ()  # the next deck (decider.fair): (deal_no, root, cards,
    # salts, ((player, client_seed), ...))
    side_pots: tuple[int, ...] = ()  # the live deal's side pot accounts, 1 up (D-IT-02); () when
    # all are empty

    @property
    def unit(self) -> str:
        """The unit of every chip at this table: a tournament's own chips, or cash chips."""
        return tournament_unit(self.tournament_id) if self.tournament_id is not None else UNIT_CHIPS

    @property
    def opts(self) -> MappingProxyType[str, Any]:
        """The table's options; one its variant gained after the table opened (the ghost hand)
        reads as its default, so an old log plays on as it did."""
        key = (self.options, self.variant)
        found = _OPTIONS.get(key)
        if found is None:
            if len(_OPTIONS) >= _OPTIONS_KEPT:
                _OPTIONS.clear()
            defaults = self.game.defaults if self.game is not None else {}
            found = _OPTIONS[key] = MappingProxyType({**defaults, **dict(self.options)})
        return found

    @property
    def rules(self) -> Variant:
        assert self.game is not None, "no variant before TableOpened"
        return self.game

    @property
    def live(self) -> DealState | None:
        """The deal in progress, if any."""
        return self.deal if self.deal is not None and not self.deal.over else None

    def current_step(self) -> Step | None:
        """The live deal's current step (None before the program starts and after it ends)."""
        deal = self.live
        if deal is None or self.game is None or deal.stage < 1 or deal.step < 0:
            return None
        stages = self.game.stages
        if deal.stage > len(stages) or deal.step >= len(stages[deal.stage - 1].steps):
            return None
        return stages[deal.stage - 1].steps[deal.step]

    def seat_of(self, player: str) -> Seat | None:
        for seat in self.seats:
            if seat.player == player:
                return seat
        return None

    def stack_of(self, player: str) -> int:
        seat = self.seat_of(player)
        return seat.stack if seat is not None else 0

    def with_deal(self, **changes: Any) -> TableState:
        assert self.deal is not None
        return self._replace(deal=self.deal._replace(**changes))


def is_in(choice: str | None) -> bool:
    """A declared choice that keeps the player in the deal: "in", or 43-03's high, low, both."""
    return choice is not None and choice != "out"


def copy_with(value: T, **changes: Any) -> T:
    """A copy with some fields changed (the values are immutable named tuples: evolve copies the
    state on every event, and a named tuple's _replace is several times cheaper than
    dataclasses.replace on a frozen dataclass)."""
    replaced: T = value._replace(**changes)  # type: ignore[attr-defined]
    return replaced


def with_seats(state: TableState, players: set[str], **changes: Any) -> TableState:
    """The state with these players' seats changed."""
    return state._replace(
        seats=tuple(s._replace(**changes) if s.player in players else s for s in state.seats)
    )


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """`values` with the item at `index` replaced (per-player tuples aligned with the order)."""
    return (*values[:index], value, *values[index + 1 :])


# opts of recent tables: (options, variant name) -> options with defaults (the variant named is
# always the state's `game`, so the name is key enough)
_OPTIONS: dict[tuple[tuple[tuple[str, Any], ...], str], MappingProxyType[str, Any]] = {}
_OPTIONS_KEPT = 512


def initial_state() -> TableState:
    return TableState()
