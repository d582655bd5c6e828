"""What a step kind is (DESIGN §2.2): its parameters, `run`, `done`, `start` and the folds of its
own events. Each kind is one module of this package; `steps.KINDS` is the registry.

- `params` is the kind's parameters as a frozen dataclass: each field's type, default (none:
  required) and allowed values (`param(choices=...)`). The `schema` derived from it is checked
  when a variant is built (`check_step`), so a bad program fails at import; a step at work gets
  its parameters resolved into an instance (`ctx.params.unit`).
- `run(ctx)` decides the step's next events at `ctx.now` ([] = it waits for players).
- `interactive` kinds wait for players: the interpreter asks `done(ctx)` before each `run`.
  Automatic kinds run exactly once, then the program moves on.
- `start(deal, params)` resets the step's own facts when StepStarted enters it (each declare has
  its own choices, each showdown its own result).
- `folds` fold the kind's own events into the state (evolve dispatches to them).
- `ends_deal(ctx)`: after the step, the deal is over (a lone "in" took the pot, the pot was
  awarded), and the remaining steps are skipped.
- `commands`: ``{CommandType: (check, handle)}``, the players' commands the kind takes while it
  is the current step: `check(ctx, command)` raises DomainError or returns what the command
  means (normalised cards, chips), `handle(ctx, command, checked)` decides its events. `decide`
  dispatches to the current step's kind and names no kind.
- `offers(ctx, player)`: the legal actions the kind offers the player now (what `legal_actions`
  shows beside the table's own), built from the same checks, so the API never offers what decide
  refuses. `actions` names every action its offers may carry: the closed set of legal actions
  (`vocabulary.ACTIONS`) is the table's own and the kinds' names, so a new kind's action joins it
  from the kind's module.
- `expire(ctx)`: the events of the open turn's timeout (the timer's ExpireDeclare).
- `view(state, deal, viewer)`: the kind's keys of the deal view (public facts of its slot).
- `phase(deal)`: the table's phase while the kind is current (default: the kind's name).
- `pot_multiple(params)`: the most multiples of the pot losing can cost after this step
  (D-GEN-06, T38-03); `owed_when_in(params, opts)`: chips an "in" player owes at this step
  (TPO-04); `declares`: a player chooses in or out here (those walks stop at it).
- `due_before_deal(state, params)`: whether a deal starting now asks this step's chips of every
  player (D-GEN-06 deals in only players who can pay); None: the step asks nothing before a deal.
- `cards(params, per_player)`: (cards per player, other cards) the step takes from the pack
  (D-GEN-02: `Variant.capacity`).
- `owes(deal)`: after the kind's step, the multiple of the pot each player pays unless he wins
  (T38-04: a folder's accepted level; WL-10..12: one pot, two for no trick); the settlement
  (`Round.escalated`) merges what the program's kinds say. None: the kind says nothing.
- `slot`: the kind's own state slot, a named tuple in `DealState.slots` under the kind's name
  that only the kind's module reads and writes (`slot_of`, `with_slot`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tables.engine.cards import CardError, parse_card
from tables.engine.decider import events as ev
from tables.engine.decider import fair
from tables.engine.decider.errors import DomainError
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.visibility import Viewer
from tables.engine.deck import Deck, pack_for

if TYPE_CHECKING:
    from tables.engine.decider.variants import Option, Step

Fold = Callable[[TableState, Any], TableState]


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a step kind: accepted types, default, allowed values."""

    types: tuple[type, ...]
    default: Any = None
    required: bool = False
    choices: tuple[str, ...] = ()

    def check(self, where: str, value: Any) -> None:
        if isinstance(value, bool) and bool not in self.types:
            raise ValueError(f"{where}: {value!r} is not {self._names()}")
        if not isinstance(value, self.types):
            raise ValueError(f"{where}: {value!r} is not {self._names()}")
        if self.choices and value not in self.choices:
            raise ValueError(f"{where}: {value!r} is not one of {list(self.choices)}")

    def _names(self) -> str:
        return " or ".join(t.__name__ for t in self.types)


def param(default: Any = MISSING, *, choices: tuple[Any, ...] = ()) -> Any:
    """A field of a kind's parameters: its default (none: the parameter is required) and the
    values it allows (none: any of its type)."""
    return field(default=default, metadata={"choices": choices})


@dataclass(frozen=True, slots=True)
class NoParams:
    """The parameters of a kind that takes none."""


def _accepted(hint: Any) -> tuple[type, ...]:
    """The runtime types a parameter's annotation accepts as written in a program (a sequence:
    a tuple or a list)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return tuple(t for arg in typing.get_args(hint) for t in _accepted(arg))
    if hint is None or hint is type(None):
        return (type(None),)
    origin = typing.get_origin(hint) or hint
    if origin in (tuple, list, Sequence):
        return (tuple, list)
    assert isinstance(origin, type), f"a parameter's type is a class: {hint!r}"
    return (origin,)


def schema_of(params: type) -> dict[str, Param]:
    """The check of each parameter, from the dataclass that declares them."""
    hints = typing.get_type_hints(params)
    return {
        f.name: Param(
            _accepted(hints[f.name]),
            None if f.default is MISSING else f.default,
            required=f.default is MISSING,
            choices=tuple(f.metadata.get("choices", ())),
        )
        for f in fields(params)
    }


P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class Ctx(Generic[P]):
    """A step at work: the state, the live deal, the step's resolved parameters, where it is."""

    state: TableState
    deal: DealState
    params: P
    stage: int  # 1-based
    step: int  # 0-based within the stage
    now: datetime
    salts: tuple[str, ...] = ()  # the service's fresh salts not used yet in this decision: a
    # stock reshuffled now commits its new slots with them (D-GEN-02, fair.stock_reshuffled)


def _no_change(deal: DealState, params: Any) -> DealState:
    return deal


def _always(ctx: Ctx[Any]) -> bool:
    return True


def _never(ctx: Ctx[Any]) -> bool:
    return False


Check = Callable[[Ctx[Any], Any], Any]
Handle = Callable[[Ctx[Any], Any, Any], list[ev.Event]]
Offers = Callable[[Ctx[Any], str], list[dict[str, Any]]]
View = Callable[[TableState, DealState, Viewer], dict[str, Any]]


def _no_offers(ctx: Ctx[Any], player: str) -> list[dict[str, Any]]:
    return []


def _no_view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    return {}


def _once(params: Any) -> int:
    return 1


def _nothing_owed(params: Any, opts: Mapping[str, Any]) -> int:
    return 0


def _no_cards(params: Any, per_player: int) -> tuple[int, int]:
    return 0, 0


@dataclass(frozen=True, slots=True)
class StepKind:
    name: str
    run: Callable[[Ctx[Any]], list[ev.Event]]
    params: type = NoParams
    interactive: bool = False
    done: Callable[[Ctx[Any]], bool] = _always
    start: Callable[[DealState, Any], DealState] = _no_change
    folds: Mapping[type[ev.Event], Fold] = field(default_factory=dict)
    ends_deal: Callable[[Ctx[Any]], bool] = _never
    commands: Mapping[type, tuple[Check, Handle]] = field(default_factory=dict)
    offers: Offers = _no_offers
    actions: tuple[str, ...] = ()
    expire: Callable[[Ctx[Any]], list[ev.Event]] | None = None
    view: View = _no_view
    phase: Callable[[DealState], str] | None = None
    pot_multiple: Callable[[Any], int] = _once
    owed_when_in: Callable[[Any, Mapping[str, Any]], int] = _nothing_owed
    declares: bool = False
    due_before_deal: Callable[[TableState, Any], bool] | None = None
    cards: Callable[[Any, int], tuple[int, int]] = _no_cards
    owes: Callable[[DealState], Mapping[str, int]] | None = None
    slot: type | None = None
    schema: Mapping[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", schema_of(self.params))
        if self.interactive and self.expire is None:
            raise ValueError(f"step kind {self.name}: an interactive kind says how its turns time out")
        if self.offers is not _no_offers and not self.actions:
            raise ValueError(f"step kind {self.name}: a kind that offers actions names them (`actions`)")


S = TypeVar("S", bound=tuple[Any, ...])


def slot_of(deal: DealState, name: str, empty: S) -> S:
    """The kind `name`'s slot of the deal (`empty` before the kind has written one)."""
    found: S | None = deal.slots.get(name)
    return found if found is not None else empty


def with_slot(deal: DealState, name: str, slot: tuple[Any, ...]) -> DealState:
    """The deal with kind `name`'s slot replaced (the slots mapping is never changed in place)."""
    return deal._replace(slots={**deal.slots, name: slot})


def overdue(deal: DealState, now: datetime) -> bool:
    """The open turn's deadline has passed (what legal_actions shows as ``overdue``)."""
    return deal.deadline is not None and now >= parse_iso(deal.deadline)


def turn_fields(deal: DealState, now: datetime) -> dict[str, Any]:
    """The fields every offered turn carries: the deal, the deadline, whether it is overdue."""
    return {"deal_no": deal.deal_no, "deadline": deal.deadline, "overdue": overdue(deal, now)}


def check_step(kind: StepKind, variant: str, raw: Mapping[str, Any], options: Mapping[str, Option]) -> None:
    """A step's parameters against its kind's schema; a "$option" must name an option of the
    variant whose every value the parameter accepts. Raises ValueError (at import)."""
    for name in raw:
        if name not in kind.schema:
            raise ValueError(f"{variant}: step {kind.name} has no parameter {name!r}")
    for name, param in kind.schema.items():
        where = f"{variant}: {kind.name}.{name}"
        if name not in raw:
            if param.required:
                raise ValueError(f"{where} is required")
            continue
        value = raw[name]
        if isinstance(value, str) and value.startswith("$"):
            option = options.get(value[1:])
            if option is None:
                raise ValueError(f"{where}: no option {value[1:]!r}")
            for possible in option.choices or (option.default,):
                param.check(where, possible)
        else:
            param.check(where, value)


def resolve(kind: StepKind, step: Step, options: Mapping[str, Any]) -> Any:
    """The step's parameters (an instance of its kind's `params`), "$option" references resolved
    and defaults filled in. Kept per kind and values given: the guards ask for them many times a
    command, and a frozen instance is safe to share."""
    given = tuple(
        (name, options[value[1:]] if isinstance(value, str) and value.startswith("$") else value)
        for name, value in step.params
    )
    key = (kind.name, given)
    try:
        found = _RESOLVED.get(key)
    except TypeError:  # an unhashable value: built each time
        return kind.params(**dict(given))
    if found is None:
        if len(_RESOLVED) >= _RESOLVED_KEPT:
            _RESOLVED.clear()
        found = _RESOLVED[key] = kind.params(**dict(given))
    return found


_RESOLVED: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
_RESOLVED_KEPT = 4096


def iso(moment: datetime) -> str:
    """ISO-8601 UTC with a Z, the one time format in events (`moment` must be timezone-aware)."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text)


def deadline(ctx: Ctx[Any]) -> str:
    return iso(ctx.now + timedelta(seconds=ctx.state.opts.get("declare_timeout", 30)))


def deck_for(state: TableState, deal: DealState) -> Deck:
    """The deal's deck: the stacked deck of this deal, or the shuffle of its seed (DESIGN §2.7),
    followed by the discards reshuffled into it so far (D-GEN-02); from the variant's pack for the
    players dealt in (Italian poker's short pack, D-IT-01)."""
    pack = pack_for(state.rules.deck, len(deal.order))
    if deal.stacked:
        assert state.stacked_decks is not None
        cards = state.stacked_decks[(deal.deal_no - 1) % len(state.stacked_decks)]
        return Deck.stacked(list(cards), pack=pack, reshuffles=deal.reshuffles)
    if deal.fair:  # deck schema 2: committed cards, permuted (a short pack skips the others)
        return fair.deck_of(deal, pack)
    assert deal.seed is not None
    return Deck.shuffled(deal.seed, pack, reshuffles=deal.reshuffles)


def next_cards(ctx: Ctx[Any], count: int) -> list[str]:
    """The next `count` cards of the deck, after every card dealt so far in this deal."""
    start = ctx.deal.dealt
    return [str(card) for card in deck_for(ctx.state, ctx.deal).peek(start + count)[start:]]


def with_hand(deal: DealState, player: str, cards: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    i = deal.position(player)
    return (*deal.hands[:i], cards, *deal.hands[i + 1 :])


def swap_passed(deal: DealState, giver_offset: int) -> list[ev.Event]:
    """The sealed passes of a pass window, swapped: each player's chosen card leaves his hand and
    the card passed by the player `giver_offset` places on in deal order arrives (+1: the next
    player passes to him, a pass to the right, AO-06; -1: the previous one, a pass to the left,
    EXC-03)."""
    swapped: list[ev.Event] = []
    for i, player in enumerate(deal.order):
        gave, received = deal.passed[i], deal.passed[(i + giver_offset) % len(deal.order)]
        assert gave is not None
        assert received is not None
        hand = list(deal.hands[i])
        hand.remove(gave)
        swapped.append(
            ev.CardsExchanged(
                deal_no=deal.deal_no, player=player, gave=gave, received=received, cards=[*hand, received]
            )
        )
    return swapped


def held_card(hand: tuple[str, ...], card: Any) -> str:
    """`card` normalised ("as" -> "As") if it is one of `hand`: invalid_card when it is no card,
    card_not_held when the player does not hold it."""
    try:
        text = str(parse_card(card))
    except CardError:
        raise DomainError("invalid_card", f"not a card: {card!r}", card=str(card)) from None
    if text not in hand:
        raise DomainError("card_not_held", f"{text} is not in the player's hand", card=text)
    return text
