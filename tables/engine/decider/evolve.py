"""evolve(state, event) -> state: fold one fact into the state. Never fails on a valid log.

Table events are folded here (dispatch by `match` on the typed event); a step kind's own events
by the kind's module (`steps.KINDS[...].folds`). Money is applied generically after the fold:
every event's transfers move chips between the seat stacks, the pot and the reserve (bankrolls
and other outside accounts are not table state), so the state and the ledger cannot disagree.
The program's position moves only on StageStarted/StepStarted; deals logged before those events
existed are walked by `legacy`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ledger.accounts import Transfer
from tables.engine.decider import events as ev
from tables.engine.decider import fair, legacy
from tables.engine.decider.state import DealState, Seat, TableState, copy_with, initial_state, with_seats
from tables.engine.decider.steps import KINDS, Fold
from tables.engine.decider.variants import Step, get_variant

_STEP_FOLDS: dict[type[ev.Event], Fold] = {
    event_type: fold_ for kind in KINDS.values() for event_type, fold_ in kind.folds.items()
}
_STEP_FOLDS.update(fair.FOLDS)  # the committed decks and seeds (fairdeck)


def fold(events: Iterable[ev.Event], state: TableState | None = None) -> TableState:
    state = state if state is not None else initial_state()
    for event in events:
        state = evolve(state, event)
    return state


# What the read models keep of each stage: every result, not the last of each.
RESULTS = (
    ev.AntesPosted,
    ev.ShowdownHeld,
    ev.DeckCompared,
    ev.PotSettled,
    ev.LegAwarded,
    ev.PotAwarded,
    ev.BetsAwarded,  # D-BET
    ev.NobodyOpened,
    ev.PotsAwarded,
    ev.OpenersShown,
    ev.BetsGathered,
)  # D-IT-02, D-IT-03


def evolve(state: TableState, event: ev.Event) -> TableState:
    if event.at_step is not None and state.deal is not None:
        state = enter_step(state, event.at_step[0], event.at_step[1])
    state = _fold(state, event)
    if isinstance(event, RESULTS) and state.deal is not None:
        deal = state.deal
        data = event.to_json()
        data.pop("at_step", None)  # the result's stage says where it happened
        result = {"stage": deal.stage, "type": event.type, "data": _in_unit(state, data)}
        state = copy_with(state, deal=copy_with(deal, results=(*deal.results, result)))
    transfers = ev.transfers_of(event)
    if transfers:
        state = apply_transfers(state, transfers)
    live = state.live
    if live is not None and not live.explicit and type(event) not in fair.FOLDS:  # not a deal's fact
        state = legacy.walk(state, event)
    return state


def _in_unit(state: TableState, data: dict[str, Any]) -> dict[str, Any]:
    """A result's transfers carry the table's unit, as the stored event's do (decide stamps a
    tournament table's transfers after folding them, so the state is the same either way)."""
    if state.tournament_id is None or not data.get("transfers"):
        return data
    return {**data, "transfers": [{**move, "unit": state.unit} for move in data["transfers"]]}


def _fold(state: TableState, event: ev.Event) -> TableState:
    match event:
        case ev.TableOpened():
            decks = event.stacked_decks
            return copy_with(
                state,
                status="open",
                table_id=event.table_id,
                variant=event.variant,
                options=tuple(sorted(event.options.items())),
                stacked_decks=tuple(tuple(d) for d in decks) if decks else None,
                game=get_variant(event.variant),
                tournament_id=event.tournament_id,
            )
        case ev.PlayerSeated():
            seats = tuple(sorted((*state.seats, Seat(event.player, event.seat, 0)), key=lambda s: s.seat))
            waits = state.game_open and state.rules.new_players_wait  # MC-07
            return copy_with(
                state, seats=seats, waiting=(*state.waiting, event.player) if waits else state.waiting
            )
        case ev.PlayerLeft():  # the cash-out transfers then touch no seat of this table
            return copy_with(
                state,
                seats=tuple(s for s in state.seats if s.player != event.player),
                waiting=tuple(p for p in state.waiting if p != event.player),
            )
        case ev.TableClosed():
            return copy_with(state, status="closed", seats=(), game_open=False, waiting=())
        case ev.PlayerSatOut():
            return with_seats(state, {event.player}, sitting_out=True)
        case ev.PlayerSatIn():
            return with_seats(state, {event.player}, sitting_out=False, timeouts=0)
        case ev.DealStarted():
            return fair.started(_deal_started(state, event), event)
        case ev.StageStarted():
            return state.with_deal(stage=event.stage, step=-1, explicit=True)
        case ev.StepStarted():
            return _step_started(state, event)
        case ev.DealEnded():
            deal = state.deal
            assert deal is not None
            return copy_with(
                state,
                deal=copy_with(deal, over=True, awaiting=(), deadline=None),
                last_in=deal.in_players(),
                ante_exempt=deal.ante_exempt,
            )
        case ev.GameEnded():
            return copy_with(
                state, game_open=False, waiting=(), seats=tuple(copy_with(s, legs=0) for s in state.seats)
            )
        case _:
            step_fold = _STEP_FOLDS.get(type(event))  # the step kinds' events (the hot path)
            return step_fold(state, event) if step_fold is not None else _tournament_fold(state, event)


def _deal_started(state: TableState, e: ev.DealStarted) -> TableState:
    if state.next_ante is not None:  # SetAnte during the last deal
        state = _with_ante(state, state.next_ante)
    order = tuple(e.participants)
    deal = DealState(
        deal_no=e.deal_no,
        game_no=e.game_no,
        dealer=e.dealer,
        order=order,
        hands=((),) * len(order),
        up=((),) * len(order),
        choices=(None,) * len(order),
        seed=e.seed,
        commitment=e.commitment,
        stacked=e.stacked,
        opens_game=not state.game_open,
    )
    dealer_seat = state.seat_of(e.dealer)
    return copy_with(
        state,
        deal_no=e.deal_no,
        game_no=e.game_no,
        game_open=True,
        deal=deal,
        button=dealer_seat.seat if dealer_seat is not None else state.button,
        waiting=tuple(p for p in state.waiting if p not in order),
    )


def _step_started(state: TableState, e: ev.StepStarted) -> TableState:
    """The position moves; the step's kind resets its own facts (each declare its own choices)."""
    steps = state.rules.stages[e.stage - 1].steps
    return enter_step(state, e.stage, _index_of(steps, e), force=True)


def enter_step(state: TableState, stage: int, index: int, *, force: bool = False) -> TableState:
    """The deal at step `index` of stage `stage`, which resets its kind's own facts (`start`):
    nothing when the deal is there already, unless `force` (a StepStarted re-enters a declare
    after AO-06/AO-07)."""
    deal = state.deal
    assert deal is not None
    if not force and deal.explicit and (deal.stage, deal.step) == (stage, index):
        return state
    step = state.rules.stages[stage - 1].steps[index]
    moved = copy_with(deal, stage=stage, step=index, explicit=True)
    return copy_with(state, deal=step.definition.start(moved, step.resolved(state.opts)))


def _index_of(steps: tuple[Step, ...], e: ev.StepStarted) -> int:
    """The step `e` names: its index, or, in a log written before a step was inserted ahead of it
    (the Guts exchange), the first later step of its kind."""
    if e.step < len(steps) and steps[e.step].kind == e.kind:
        return e.step
    return next((i for i in range(e.step, len(steps)) if steps[i].kind == e.kind), e.step)


# --- tournament tables ---------------------------------------------------------------


def _tournament_fold(state: TableState, event: ev.Event) -> TableState:
    """Entrants come and go by the tournament service's commands; their chips by the transfers
    (EntrantMovedIn alone sets a stack: the chips came with the other table's EntrantMovedOut).
    Any other event (Unknown: a later schema) folds to nothing."""
    match event:
        case ev.EntrantSeated():
            return _seat(state, Seat(event.player, event.seat, 0))
        case ev.EntrantMovedIn():
            return _seat(state, Seat(event.player, event.seat, event.chips))
        case ev.EntrantMovedOut() | ev.EntrantRemoved():
            seats = tuple(s for s in state.seats if s.player != event.player)
            status = "closed" if state.status == "broken" and not seats else state.status
            return copy_with(
                state,
                seats=seats,
                status=status,
                waiting=tuple(p for p in state.waiting if p != event.player),
            )
        case ev.TableBroken():
            return copy_with(state, status="broken" if state.seats else "closed", game_open=False, waiting=())
        case ev.TableFinished():
            return copy_with(state, status="closed", seats=(), game_open=False, waiting=())
        case ev.AnteChanged():
            if state.live is not None:
                return copy_with(state, next_ante=event.ante)
            return _with_ante(state, event.ante)
    return state


def _seat(state: TableState, seat: Seat) -> TableState:
    """A new seat; MC-07: seated during a game, he waits for the next (as PlayerSeated)."""
    seats = tuple(sorted((*state.seats, seat), key=lambda s: s.seat))
    waits = state.game_open and state.rules.new_players_wait
    return copy_with(state, seats=seats, waiting=(*state.waiting, seat.player) if waits else state.waiting)


def _with_ante(state: TableState, ante: int) -> TableState:
    options = tuple(sorted({**dict(state.options), "ante": ante}.items()))
    return copy_with(state, options=options, next_ante=None)


def apply_transfers(state: TableState, transfers: Iterable[Transfer]) -> TableState:
    """Move chips between this table's accounts; outside accounts (player:, cashier, house) are
    not table state."""
    seat_prefix = f"seat:{state.table_id}:"
    pot_name, reserve_name = f"pot:{state.table_id}", f"reserve:{state.table_id}"
    bets_name, side_prefix = f"bets:{state.table_id}", f"sidepot:{state.table_id}:"
    deltas: dict[str, int] = {}
    pot, reserve, bets = state.pot, state.reserve, state.bets
    sides: list[int] | None = None
    for transfer in transfers:
        amount = transfer.amount
        for account, sign in ((transfer.source, -1), (transfer.target, 1)):
            if account == pot_name:
                pot += sign * amount
            elif account == reserve_name:
                reserve += sign * amount
            elif account == bets_name:  # D-BET
                bets += sign * amount
            elif account.startswith(seat_prefix):
                player = account[len(seat_prefix) :]
                deltas[player] = deltas.get(player, 0) + sign * amount
            elif account.startswith(side_prefix):  # D-IT-02: side pot n, 1 up
                sides = sides if sides is not None else list(state.side_pots)
                number = int(account[len(side_prefix) :])
                sides.extend([0] * (number - len(sides)))
                sides[number - 1] += sign * amount
    seats = state.seats
    if deltas:
        seats = tuple(
            copy_with(s, stack=s.stack + deltas[s.player]) if s.player in deltas else s for s in seats
        )
    side_pots = state.side_pots if sides is None else (tuple(sides) if any(sides) else ())
    return copy_with(state, seats=seats, pot=pot, reserve=reserve, bets=bets, side_pots=side_pots)
