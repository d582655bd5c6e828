"""The decider's state: immutable values (named tuples) folded from events, and JSON snapshots.

`TableState` holds the table (seats and stacks, pot, reserve, button, counters) and `DealState`
the current or last deal. Per-player facts of a deal are tuples aligned with `DealState.order`
(the participants from the dealer's left, dealer last), which keeps evolve cheap.

`state_to_json(state)` / `state_from_json(data)` snapshot the whole state (for the service's
snapshot at deal boundaries, DESIGN §2.5); a snapshot plus the fold of later events equals the
full fold. A snapshot may hold the live deal's seed and hole cards: it is server-side only.
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from tables.engine.variants import Step, Variant, get_variant


class Seat(NamedTuple):
    player: str
    seat: int          # 0-based; clockwise is increasing seat number, wrapping
    stack: int
    timeouts: int = 0          # consecutive declare timeouts (reset by any declare of his own)
    sitting_out: bool = False  # not dealt in until he sits in again (sit_out_after, or asked)


class DealState(NamedTuple):
    deal_no: int
    game_no: int
    dealer: str
    order: tuple[str, ...]                    # participants: dealer's left first, dealer last
    step: int = 0                             # index of the current step of the program
    hands: tuple[tuple[str, ...], ...] = ()   # aligned with order
    choices: tuple[str | None, ...] = ()      # aligned with order: "in" | "out" | None
    sealed: bool = False                      # a simultaneous window's choices are not revealed yet
    awaiting: tuple[str, ...] = ()            # whose declare is awaited now
    deadline: str | None = None               # ISO-8601 UTC deadline of the open turn/window
    timed_out: tuple[str, ...] = ()
    forced: str | None = None                 # the dealer forced in (G2-10)
    shown: tuple[str, ...] = ()               # players whose hands were shown
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    outcome: str | None = None
    seed: str | None = None                   # secret until DealEnded
    commitment: str | None = None
    stacked: bool = False
    over: bool = False
    passing: bool = False                     # AO-06: a pass-right window is open
    passed: tuple[str | None, ...] = ()       # aligned with order: the card each chose to pass (sealed)

    def index(self, player: str) -> int:
        return self.order.index(player)

    def choice_of(self, player: str) -> str | None:
        return self.choices[self.order.index(player)] if player in self.order else None

    def in_players(self) -> tuple[str, ...]:
        return tuple(p for p, c in zip(self.order, self.choices, strict=True) if c == "in")


class TableState(NamedTuple):
    status: str = "new"                       # "new" | "open" | "closed"
    table_id: str = ""
    variant: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    stacked_decks: tuple[tuple[str, ...], ...] | None = None
    seats: tuple[Seat, ...] = ()              # sorted by seat number
    pot: int = 0
    reserve: int = 0
    deal_no: int = 0                          # the last deal started
    game_no: int = 0                          # the current game (D-GEN-08)
    game_open: bool = False                   # a game is running (the pot has not emptied)
    button: int | None = None                 # seat number of the last dealer
    deal: DealState | None = None             # the current deal, or the last one once over

    @property
    def opts(self) -> MappingProxyType[str, Any]:
        return _options_map(self.options)

    @property
    def rules(self) -> Variant:
        return get_variant(self.variant)

    @property
    def live(self) -> DealState | None:
        """The deal in progress, if any."""
        return self.deal if self.deal is not None and not self.deal.over else None

    def current_step(self) -> Step | None:
        deal = self.live
        program = self.rules.program
        return program[deal.step] if deal is not None and deal.step < len(program) else None

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
        return copy_with(self, deal=copy_with(self.deal, **changes))


def copy_with(value: Any, **changes: Any) -> Any:
    """A copy with some fields changed (the values are immutable named tuples: evolve copies the
    state on every event, and a named tuple's _replace is several times cheaper than
    dataclasses.replace on a frozen dataclass)."""
    return value._replace(**changes)


@lru_cache(maxsize=512)
def _options_map(options: tuple[tuple[str, Any], ...]) -> MappingProxyType[str, Any]:
    return MappingProxyType(dict(options))


def initial_state() -> TableState:
    return TableState()


def state_to_json(state: TableState) -> dict[str, Any]:
    """A JSON snapshot of the whole state (server-side: it may hold a live seed and cards)."""
    data: dict[str, Any] = {
        "status": state.status, "table_id": state.table_id, "variant": state.variant,
        "options": dict(state.options),
        "stacked_decks": [list(d) for d in state.stacked_decks] if state.stacked_decks else None,
        "seats": [list(s) for s in state.seats],
        "pot": state.pot, "reserve": state.reserve, "deal_no": state.deal_no,
        "game_no": state.game_no, "game_open": state.game_open, "button": state.button,
        "deal": None,
    }
    if state.deal is not None:
        d = state.deal
        data["deal"] = {name: _jsonable(getattr(d, name)) for name in DealState._fields}
    return data


def state_from_json(data: dict[str, Any]) -> TableState:
    deal = None
    if data["deal"] is not None:
        raw = data["deal"]
        deal = DealState(**{name: _tupled(raw[name]) for name in DealState._fields if name in raw})
    decks = data["stacked_decks"]
    return TableState(
        status=data["status"], table_id=data["table_id"], variant=data["variant"],
        options=tuple(sorted(data["options"].items())),
        stacked_decks=tuple(tuple(d) for d in decks) if decks else None,
        seats=tuple(Seat(*seat) for seat in data["seats"]),
        pot=data["pot"], reserve=data["reserve"], deal_no=data["deal_no"], game_no=data["game_no"],
        game_open=data["game_open"], button=data["button"], deal=deal)


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value
