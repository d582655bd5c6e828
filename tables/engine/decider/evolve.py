"""evolve(state, event) -> state: fold one fact into the state. Never fails on a valid log.

Money is applied generically: every event's transfers move chips between the seat stacks, the
pot and the reserve (bankroll and other outside accounts are not table state), so the state and
the ledger can never disagree. The deal's program pointer advances when an event completes the
current step (see `_step_done`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tables.engine.decider import events as ev
from tables.engine.decider.state import DealState, Seat, TableState, initial_state
from tables.engine.decider.state import copy_with as replace

Data = Mapping[str, Any]


def fold(events: Iterable[ev.Event], state: TableState | None = None) -> TableState:
    for event in events:
        state = evolve(state if state is not None else initial_state(), event)
    return state if state is not None else initial_state()


def evolve(state: TableState, event: ev.Event) -> TableState:
    handler = _HANDLERS.get(event.type)
    if handler is None:            # an event of a later schema this decider does not know: no effect
        return state
    state = handler(state, event.data)
    deal = state.live
    if deal is not None:
        step = state.current_step()
        if step is not None and _step_done(step.kind, event, deal):
            state = replace(state, deal=replace(deal, step=deal.step + 1))
    return state


def _step_done(kind: str, event: ev.Event, deal: DealState) -> bool:
    """Does this event complete the current step of the program?"""
    if kind == "ante":
        return event.type == ev.ANTES_POSTED
    if kind == "deal":
        return event.type == ev.CARDS_DEALT and event.data["player"] == deal.order[-1]
    if kind == "declare":
        return (event.type in (ev.DECLARED, ev.DECLARE_TIMED_OUT, ev.DECLARES_REVEALED)
                and not deal.sealed and None not in deal.choices)
    if kind == "showdown":
        return event.type == ev.SHOWDOWN_HELD
    if kind == "settle":
        return event.type == ev.POT_SETTLED
    return False


def apply_transfers(state: TableState, transfers: Iterable[Data]) -> TableState:
    """Move chips between this table's accounts; outside accounts (player:, cashier, house) are
    not table state."""
    seat_prefix = f"seat:{state.table_id}:"
    pot_name, reserve_name = f"pot:{state.table_id}", f"reserve:{state.table_id}"
    deltas: dict[str, int] = {}
    pot, reserve = state.pot, state.reserve
    for transfer in transfers:
        amount = transfer["amount"]
        for account, sign in ((transfer["from"], -1), (transfer["to"], 1)):
            if account == pot_name:
                pot += sign * amount
            elif account == reserve_name:
                reserve += sign * amount
            elif account.startswith(seat_prefix):
                player = account[len(seat_prefix):]
                deltas[player] = deltas.get(player, 0) + sign * amount
    seats = state.seats
    if deltas:
        seats = tuple(replace(s, stack=s.stack + deltas[s.player]) if s.player in deltas else s
                      for s in seats)
    return replace(state, seats=seats, pot=pot, reserve=reserve)


def _table_opened(state: TableState, data: Data) -> TableState:
    decks = data.get("stacked_decks")
    return replace(state, status="open", table_id=data["table_id"], variant=data["variant"],
                   options=tuple(sorted(data["options"].items())),
                   stacked_decks=tuple(tuple(d) for d in decks) if decks else None)


def _player_seated(state: TableState, data: Data) -> TableState:
    seats = tuple(sorted((*state.seats, Seat(data["player"], data["seat"], 0)), key=lambda s: s.seat))
    return apply_transfers(replace(state, seats=seats), data["transfers"])


def _money(state: TableState, data: Data) -> TableState:
    return apply_transfers(state, data.get("transfers", ()))


def _player_left(state: TableState, data: Data) -> TableState:
    state = apply_transfers(state, data["transfers"])
    return replace(state, seats=tuple(s for s in state.seats if s.player != data["player"]))


def _table_closed(state: TableState, data: Data) -> TableState:
    state = apply_transfers(state, data["transfers"])
    return replace(state, status="closed", seats=(), game_open=False)


def _deal_started(state: TableState, data: Data) -> TableState:
    order = tuple(data["participants"])
    deal = DealState(deal_no=data["deal_no"], game_no=data["game_no"], dealer=data["dealer"],
                     order=order, hands=((),) * len(order), choices=(None,) * len(order),
                     seed=data.get("seed"), commitment=data.get("commitment"),
                     stacked=data["stacked"])
    dealer_seat = state.seat_of(data["dealer"])
    return replace(state, deal_no=data["deal_no"], game_no=data["game_no"], game_open=True,
                   button=dealer_seat.seat if dealer_seat is not None else state.button, deal=deal)


def _cards_dealt(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    i = deal.index(data["player"])
    hands = (*deal.hands[:i], tuple(data["cards"]), *deal.hands[i + 1:])
    if data.get("extra") and data["player"] == deal.order[-1]:     # AO-07: a new declare follows
        return state.with_deal(hands=hands, choices=(None,) * len(deal.order), forced=None,
                               step=_declare_step(state, deal.step))
    return state.with_deal(hands=hands)


def _pass_opened(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(passing=True, passed=(None,) * len(deal.order),
                           awaiting=tuple(data["players"]), deadline=data["deadline"])


def _card_passed(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    i = deal.index(data["player"])
    awaiting = tuple(p for p in deal.awaiting if p != data["player"])
    return state.with_deal(passed=(*deal.passed[:i], data["card"], *deal.passed[i + 1:]),
                           awaiting=awaiting, deadline=deal.deadline if awaiting else None)


def _cards_exchanged(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    i = deal.index(data["player"])
    hands = (*deal.hands[:i], tuple(data["cards"]), *deal.hands[i + 1:])
    if data["player"] == deal.order[-1]:                        # AO-06: a new declare follows
        return state.with_deal(hands=hands, passing=False, passed=(), choices=(None,) * len(deal.order),
                               forced=None, step=_declare_step(state, deal.step))
    return state.with_deal(hands=hands)


def _declare_step(state: TableState, before: int) -> int:
    program = state.rules.program
    return max(i for i in range(before) if program[i].kind == "declare")


def _declare_opened(state: TableState, data: Data) -> TableState:
    return state.with_deal(awaiting=tuple(data["players"]), deadline=data["deadline"],
                           sealed=data["mode"] == "simultaneous")


def _set_choices(deal: DealState, choices: Mapping[str, str]) -> tuple[str | None, ...]:
    return tuple(choices.get(p, c) for p, c in zip(deal.order, deal.choices, strict=True))


def _declared(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    player = data["player"]
    if not data.get("forced"):
        state = _with_seats(state, {player}, lambda s: replace(s, timeouts=0))
    return state.with_deal(choices=_set_choices(deal, {player: data["choice"]}),
                           awaiting=tuple(p for p in deal.awaiting if p != player),
                           forced=player if data.get("forced") else deal.forced)


def _declare_timed_out(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    players = data["players"]
    state = _with_seats(state, set(players), lambda s: replace(s, timeouts=s.timeouts + 1))
    return state.with_deal(choices=_set_choices(deal, dict.fromkeys(players, data["effect"])),
                           awaiting=tuple(p for p in deal.awaiting if p not in players),
                           timed_out=(*deal.timed_out, *players), deadline=None)


def _declares_revealed(state: TableState, data: Data) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(choices=_set_choices(deal, data["choices"]), sealed=False, awaiting=(),
                           deadline=None)


def _showdown_held(state: TableState, data: Data) -> TableState:
    return state.with_deal(shown=tuple(h["player"] for h in data["hands"]),
                           winners=tuple(data["winners"]), losers=tuple(data["losers"]))


def _pot_settled(state: TableState, data: Data) -> TableState:
    state = apply_transfers(state, data["transfers"])
    return state.with_deal(outcome=data["outcome"], winners=tuple(data["winners"]))


def _deal_ended(state: TableState, data: Data) -> TableState:
    return state.with_deal(over=True, awaiting=(), deadline=None)


def _game_ended(state: TableState, data: Data) -> TableState:
    return replace(state, game_open=False)


def _player_sat_out(state: TableState, data: Data) -> TableState:
    return _with_seats(state, {data["player"]}, lambda s: replace(s, sitting_out=True))


def _player_sat_in(state: TableState, data: Data) -> TableState:
    return _with_seats(state, {data["player"]}, lambda s: replace(s, sitting_out=False, timeouts=0))


def _with_seats(state: TableState, players: set[str], change: Callable[[Seat], Seat]) -> TableState:
    return replace(state, seats=tuple(change(s) if s.player in players else s for s in state.seats))


_HANDLERS: dict[str, Callable[[TableState, Data], TableState]] = {
    ev.TABLE_OPENED: _table_opened,
    ev.PLAYER_SEATED: _player_seated,
    ev.STACK_TOPPED_UP: _money,
    ev.PLAYER_LEFT: _player_left,
    ev.TABLE_CLOSED: _table_closed,
    ev.DEAL_STARTED: _deal_started,
    ev.ANTES_POSTED: _money,
    ev.CARDS_DEALT: _cards_dealt,
    ev.DECLARE_OPENED: _declare_opened,
    ev.DECLARED: _declared,
    ev.DECLARE_TIMED_OUT: _declare_timed_out,
    ev.DECLARES_REVEALED: _declares_revealed,
    ev.SHOWDOWN_HELD: _showdown_held,
    ev.POT_SETTLED: _pot_settled,
    ev.DEAL_ENDED: _deal_ended,
    ev.GAME_ENDED: _game_ended,
    ev.PLAYER_SAT_OUT: _player_sat_out,
    ev.PLAYER_SAT_IN: _player_sat_in,
    ev.PASS_OPENED: _pass_opened,
    ev.CARD_PASSED: _card_passed,
    ev.CARDS_EXCHANGED: _cards_exchanged,
}
