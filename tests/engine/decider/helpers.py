"""Given/when/then helpers for decider tests: a table session folded in memory, stacked decks."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tables.engine.decider.commands import Command, Declare, OpenTable, SitDown, StartDeal
from tables.engine.decider.decide import decide
from tables.engine.decider.errors import DomainError
from tables.engine.decider.events import PROGRESS, Event, parse
from tables.engine.decider.evolve import fold
from tables.engine.decider.snapshot import state_from_json
from tables.engine.decider.state import TableState, initial_state

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TABLE = "t1"
SEED = "ab" * 32


def later(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def stack_deck(*hands: str) -> list[str]:
    """A stacked deck that gives these hands (in deal order: the dealer's left first, the dealer
    last), dealt one card at a time (D-G2-01)."""
    split = [h.split() for h in hands]
    return [h[r] for r in range(len(split[0])) for h in split]


class Session:
    """A table folded in memory: `do` decides and applies a command, `fails` returns the error."""

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events: list[Event] = list(events)
        self.state: TableState = fold(self.events)

    def do(self, command: Command, now: datetime = T0) -> list[Event]:
        new = decide(self.state, command, now)
        folded = fold(new, self.state)
        assert new.state == folded, "the decision's state is the fold of its events"
        self.state = new.state
        self.events.extend(new)
        return new

    def fails(self, command: Command, now: datetime = T0) -> str:
        try:
            decide(self.state, command, now)
        except DomainError as error:
            return error.code
        raise AssertionError(f"{command} was accepted")

    def declare(self, deal_no: int, *choices: tuple[str, str], now: datetime = T0) -> list[Event]:
        out: list[Event] = []
        for player, choice in choices:
            out += self.do(Declare(player, deal_no, choice), now)
        return out

    def stack(self, player: str) -> int:
        return self.state.stack_of(player)


def table(
    players: str = "abcd",
    *,
    decks: Sequence[Sequence[str]] | None = None,
    variant: str = "guts2",
    buy_in: int = 1000,
    **options: Any,
) -> Session:
    """Given: an open table (stacked decks if given) with these players seated in seat order."""
    session = Session()
    options.setdefault("min_buy_in", min(buy_in, 100))
    session.do(
        OpenTable(
            TABLE,
            variant,
            options,
            stacked_decks=[list(d) for d in decks] if decks is not None else None,
            stacked_allowed=decks is not None,
        )
    )
    for player in players:
        session.do(SitDown(player, buy_in))
    return session


def start(session: Session, now: datetime = T0) -> list[Event]:
    seed = None if session.state.stacked_decks else SEED
    paced = session.state.deal_no if session.state.tournament_id else None  # the tournament's next deal
    return session.do(StartDeal(None, seed, after_deal_no=paced), now)


def of_type(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def one(events: Iterable[Event], kind: str) -> Event:
    found = of_type(events, kind)
    assert len(found) == 1, [e.type for e in events]
    return found[0]


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def turns(events: Iterable[Event]) -> list[list[str]]:
    """Who each opened turn or window awaits: a DeclareOpened's players, or the next player a
    sequential Declared opens the turn of."""
    found = []
    for e in events:
        if e.type == "DeclareOpened":
            found.append(list(e.data["players"]))
        elif e.type == "Declared" and e.data.get("turn"):
            found.append([e.data["turn"]])
    return found


def data_of(event: Event) -> dict[str, Any]:
    """An event's data without the program's position (`at_step`, carried by a step's first event)."""
    return {k: v for k, v in event.data.items() if k != "at_step"}


def positions(events: Iterable[Event]) -> list[tuple[int, int]]:
    """The program positions the events move to: each step's first event (`at_step`), and the
    explicit StepStarted of older logs and of the return to a declare (AO-06/AO-07)."""
    found = []
    for e in events:
        if e.at_step is not None:
            found.append((e.at_step[0], e.at_step[1]))
        elif e.type == "StepStarted":
            found.append((e.data["stage"], e.data["step"]))
    return found


def stages_started(session: Session, events: Iterable[Event]) -> list[dict[str, Any]]:
    """The stages the program entered in `events` (a stage's first step records its position),
    as the StageStarted of older logs named them."""
    stages = session.state.rules.stages
    opts = session.state.opts
    out = []
    for e in events:
        if e.at_step is None:
            continue
        stage, step = e.at_step
        first = next(i for i, st in enumerate(stages[stage - 1].steps) if st.enabled(opts))
        if step == first:
            out.append({"deal_no": e.data["deal_no"], "stage": stage, "name": stages[stage - 1].name})
    return out


def facts(events: Iterable[Event]) -> list[str]:
    """The types of the events that are facts of play: without the program's StageStarted and
    StepStarted position events."""
    return [e.type for e in events if e.type not in PROGRESS]


def short(account: str) -> str:
    """'seat:t1:a' -> 'seat:a', 'pot:t1' -> 'pot', 'player:a' stays."""
    kind, _, rest = account.partition(":")
    if kind == "seat":
        return "seat:" + rest.split(":", 1)[1]
    return kind if kind in ("pot", "reserve", "bets") else account


def transfers(events: Iterable[Event]) -> list[tuple[str, str, int]]:
    return [
        (short(t["from"]), short(t["to"]), t["amount"]) for e in events for t in e.data.get("transfers", ())
    ]


def roundtrip(events: Iterable[Event]) -> list[Event]:
    """The events as the event store gives them back: data through JSON."""
    return [parse(e.type, json.loads(json.dumps(e.data))) for e in events]


def initial() -> TableState:
    return initial_state()


class Ledger:
    """An independent double-entry ledger of every transfer the events make (property tests check
    the folded state against it)."""

    def __init__(self) -> None:
        self.balances: dict[str, int] = defaultdict(int)
        self.units: dict[str, str] = {}  # account -> the one unit it holds

    def post(self, event: Event) -> None:
        for transfer in event.data.get("transfers", ()):
            assert transfer["amount"] > 0
            unit = transfer.get("unit", "chips")
            for account in (transfer["from"], transfer["to"]):  # DESIGN §2.4: units never mix
                assert self.units.setdefault(account, unit) == unit, (account, unit)
            self.balances[transfer["from"]] -= transfer["amount"]
            self.balances[transfer["to"]] += transfer["amount"]
        for unit in set(self.units.values()):  # double entry, per unit
            assert sum(b for a, b in self.balances.items() if self.units.get(a) == unit) == 0, unit


def assert_folds_back(session: Session, snapshots: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """The session's events through JSON fold to its state, and so does each snapshot (taken after
    that many events) plus the events after it."""
    stored = roundtrip(session.events)
    assert fold(stored) == session.state
    for position, snapshot in snapshots:
        restored = state_from_json(json.loads(json.dumps(snapshot)))
        assert fold(stored[position:], restored) == session.state
