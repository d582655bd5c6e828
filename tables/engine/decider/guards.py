"""The guards every command shares (`check_*`): the table is open, the player seated, the deal
named the live one, an amount whole chips. Step kinds and the table's own commands use them, so
one refusal has one code everywhere."""

from __future__ import annotations

from typing import Any

from tables.engine.decider.errors import DomainError
from tables.engine.decider.state import DealState, Seat, TableState


def check_open(state: TableState) -> None:
    if state.status != "open":
        raise DomainError("table_closed", "the table is not open")


def check_cash_table(state: TableState) -> None:
    """A tournament table's players come and go by the tournament, never by the cash
    commands (sit down, top up, leave, sit out, close)."""
    if state.tournament_id is not None:
        raise DomainError(
            "tournament_table",
            "a tournament table: the tournament seats and moves its players",
            tournament_id=state.tournament_id,
        )


def check_seated(state: TableState, player: str) -> Seat:
    seat = state.seat_of(player)
    if seat is None:
        raise DomainError("not_seated", f"{player} is not seated at this table", player=player)
    return seat


def check_between_deals(state: TableState) -> None:
    if state.live is not None:
        raise DomainError("deal_in_progress", "a deal is in progress", deal_no=state.deal_no)


def check_amount(amount: Any) -> int:
    if type(amount) is not int or amount <= 0:
        raise DomainError("invalid_amount", f"not a positive whole number of chips: {amount!r}")
    return amount


def buy_in_range(state: TableState, stack: int = 0) -> tuple[int, int | None]:
    """(min, max) chips a buy-in or top-up may bring; max None = no maximum."""
    opts = state.opts
    maximum = opts["max_buy_in"] - stack if opts["max_buy_in"] else None
    return (opts["min_buy_in"] if stack == 0 else 1), maximum


def check_deal(state: TableState, deal_no: int) -> None:
    """The deal named is the live one: deal_over if it has ended, wrong_deal if it never was."""
    live = state.live
    if live is None:
        if 1 <= deal_no <= state.deal_no:
            raise DomainError("deal_over", f"deal {deal_no} is over", deal_no=deal_no)
        raise DomainError("no_deal", "no deal is in progress")
    if deal_no != live.deal_no:
        code = "deal_over" if 1 <= deal_no < live.deal_no else "wrong_deal"
        raise DomainError(code, f"deal {deal_no} is not the live deal {live.deal_no}", deal_no=deal_no)


def check_acting(state: TableState, player: str, deal_no: int) -> DealState:
    """The guards every action in a live deal shares (declare, bid, draw, escalate, bet), in their
    order: the table is open, the player seated, `deal_no` the live deal. Returns that deal."""
    check_open(state)
    check_seated(state, player)
    check_deal(state, deal_no)
    deal = state.live
    assert deal is not None
    return deal
