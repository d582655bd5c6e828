"""A tournament table's commands, sent by the tournament service between deals: seat, move and
remove entrants, break or finish the table, set the ante. None is reachable by a player."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ledger.accounts import Transfer, chipbank_account, pot_account, reserve_account, seat_account
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.close import clockwise_from_button, pay_in_order
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_amount, check_between_deals, check_open, check_seated
from tables.engine.decider.money import split_evenly
from tables.engine.decider.state import Seat, TableState


def tournament_options(options: dict[str, Any]) -> dict[str, Any]:
    """A tournament table's options: pay_what_you_have unless given (D-GEN-06); no credit, since
    no bankroll stands behind a tournament seat."""
    if options.get("stack_policy") == "allow_debt":
        raise DomainError("invalid_option", "a tournament table extends no credit", option="stack_policy")
    if options.get("end_on_empty_pot"):
        raise DomainError(
            "invalid_option",
            "a tournament table closes when the tournament says so "
            "(end_on_empty_pot would cash its players out)",
            option="end_on_empty_pot",
        )
    return {"stack_policy": "pay_what_you_have", **options}


def check_tournament(state: TableState) -> str:
    """The table's tournament, or not_a_tournament_table (then table_closed if it is closed)."""
    if state.tournament_id is None:
        raise DomainError("not_a_tournament_table", "a cash table: no tournament commands here")
    if state.status not in ("open", "broken"):
        raise DomainError("table_closed", "the table is closed")
    return state.tournament_id


def next_deal_due(state: TableState, after_deal_no: int) -> bool:
    """StartDeal(after_deal_no=n) deals only if deal n is still the last and over: Celery may
    deliver the "next deal" task twice."""
    return state.status == "open" and state.live is None and state.deal_no == after_deal_no


def check_free_seat(state: TableState, player: str, seat: int | None) -> int:
    """The seat an entrant takes: the lowest free one, or `seat` if it is free."""
    if state.seat_of(player) is not None:
        raise DomainError("already_seated", f"{player} is already seated", player=player)
    taken = {s.seat for s in state.seats}
    free = [n for n in range(state.opts["seats"]) if n not in taken]
    if not free:
        raise DomainError("table_full", "every seat is taken")
    if seat is None:
        return free[0]
    if seat not in free:
        raise DomainError("invalid_seat", f"seat {seat!r} is not a free seat of this table", free=free)
    return seat


def check_entrant_arrives(state: TableState, player: str, seat: int | None) -> int:
    check_tournament(state)
    check_open(state)
    check_between_deals(state)
    return check_free_seat(state, player, seat)


def check_entrant_leaves(state: TableState, player: str) -> Seat:
    check_tournament(state)
    check_between_deals(state)
    return check_seated(state, player)


def _seat_entrant(state: TableState, c: cmd.SeatEntrant, now: datetime) -> list[ev.Event]:
    seat = check_entrant_arrives(state, c.player_id, c.seat)
    chips = check_amount(c.chips)
    bank = chipbank_account(state.tournament_id)
    transfer = Transfer(bank, seat_account(state.table_id, c.player_id), chips, "tournament_chips")
    return [ev.EntrantSeated(player=c.player_id, seat=seat, chips=chips, transfers=[transfer])]


def _move_entrant_out(state: TableState, c: cmd.MoveEntrantOut, now: datetime) -> list[ev.Event]:
    seat = check_entrant_leaves(state, c.player_id)
    if str(c.to_table_id) == state.table_id:
        raise DomainError("already_seated", f"{c.player_id} already sits at this table")
    moves = (
        [
            Transfer(
                seat_account(state.table_id, c.player_id),
                seat_account(c.to_table_id, c.player_id),
                seat.stack,
                "tournament_move",
            )
        ]
        if seat.stack > 0
        else []
    )
    return [
        ev.EntrantMovedOut(
            player=c.player_id,
            to_table=str(c.to_table_id),
            chips=seat.stack,
            transfers=list(moves),
        )
    ]


def _move_entrant_in(state: TableState, c: cmd.MoveEntrantIn, now: datetime) -> list[ev.Event]:
    seat = check_entrant_arrives(state, c.player_id, c.seat)
    if type(c.chips) is not int or c.chips < 0:
        raise DomainError("invalid_amount", f"not a whole number of chips: {c.chips!r}")
    return [ev.EntrantMovedIn(player=c.player_id, seat=seat, from_table=str(c.from_table_id), chips=c.chips)]


def _remove_entrant(state: TableState, c: cmd.RemoveEntrant, now: datetime) -> list[ev.Event]:
    seat = check_entrant_leaves(state, c.player_id)
    bank = chipbank_account(state.tournament_id)
    back = (
        [Transfer(seat_account(state.table_id, c.player_id), bank, seat.stack, "tournament_chips_back")]
        if seat.stack > 0
        else []
    )
    return [ev.EntrantRemoved(player=c.player_id, chips=seat.stack, transfers=list(back))]


def _break_table(state: TableState, c: cmd.BreakTable, now: datetime) -> list[ev.Event]:
    """D-GEN-07: pot and reserve shared among the seated (odd chips from the dealer's left,
    D-GEN-01); with nobody seated they go back to the chip bank."""
    bank = chipbank_account(check_tournament(state))
    check_open(state)
    check_between_deals(state)
    table, order = state.table_id, clockwise_from_button(state)
    total = state.pot + state.reserve
    shares: dict[str, int] = {}
    if order:
        amounts = split_evenly(total, [s.player for s in order])
        shares = {s.player: a for s, a in zip(order, amounts, strict=True)}
        targets = [(seat_account(table, p), a) for p, a in shares.items()]
    else:
        targets = [(bank, total)]
    moves = pay_in_order(_pot_and_reserve(state), targets, "table_broken_share")
    return [ev.TableBroken(shares=shares, transfers=list(moves))]


def _finish_table(state: TableState, c: cmd.FinishTable, now: datetime) -> list[ev.Event]:
    """Completion: pot and reserve to the winner's seat if he sits here (else to the bank), then
    every stack back to the chip bank."""
    bank = chipbank_account(check_tournament(state))
    check_between_deals(state)
    table, winner = state.table_id, state.seat_of(c.winner_id) if c.winner_id else None
    total = state.pot + state.reserve
    target = seat_account(table, winner.player) if winner is not None else bank
    moves = pay_in_order(_pot_and_reserve(state), [(target, total)], "tournament_won")
    for seat in clockwise_from_button(state):
        stack = seat.stack + (total if winner is not None and seat.player == winner.player else 0)
        if stack > 0:
            moves.append(Transfer(seat_account(table, seat.player), bank, stack, "tournament_chips_back"))
    return [ev.TableFinished(winner=c.winner_id, transfers=list(moves))]


def _pot_and_reserve(state: TableState) -> list[tuple[str, int]]:
    return [(pot_account(state.table_id), state.pot), (reserve_account(state.table_id), state.reserve)]


def _set_ante(state: TableState, c: cmd.SetAnte, now: datetime) -> list[ev.Event]:
    """Ante levels: from the next deal that starts; a live deal keeps its ante (the fold holds
    the new one until then)."""
    check_tournament(state)
    return [ev.AnteChanged(ante=check_amount(c.ante))]


TOURNAMENT_HANDLERS: dict[type, Callable[[TableState, Any, datetime], list[ev.Event]]] = {
    cmd.SeatEntrant: _seat_entrant,
    cmd.MoveEntrantOut: _move_entrant_out,
    cmd.MoveEntrantIn: _move_entrant_in,
    cmd.RemoveEntrant: _remove_entrant,
    cmd.BreakTable: _break_table,
    cmd.FinishTable: _finish_table,
    cmd.SetAnte: _set_ante,
}
