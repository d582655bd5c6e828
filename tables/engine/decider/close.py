"""Closing a table (D-GEN-07): pot and reserve shared among the seated, then everyone cashed out."""

from __future__ import annotations

from ledger.accounts import HOUSE, Transfer, player_account, pot_account, reserve_account, seat_account
from tables.engine.decider import events as ev
from tables.engine.decider.money import split_evenly
from tables.engine.decider.state import Seat, TableState


def clockwise_from_button(state: TableState) -> list[Seat]:
    """Seated players from the dealer's left, clockwise (D-GEN-01's order for odd chips)."""
    button = state.button if state.button is not None else -1
    return sorted(state.seats, key=lambda s: (s.seat <= button, s.seat))


def cash_out_transfers(state: TableState, player: str, stack: int) -> list[Transfer]:
    """The whole stack to the bankroll; a debt (allow_debt) is settled from the bankroll."""
    seat, bankroll = seat_account(state.table_id, player), player_account(player)
    if stack > 0:
        return [Transfer(seat, bankroll, stack, "cash_out")]
    if stack < 0:
        return [Transfer(bankroll, seat, -stack, "debt_settled")]
    return []


def close_table_events(state: TableState) -> ev.TableClosed:
    """TableClosed: shares of pot + reserve (odd chips from the dealer's left), then cash-outs.
    With nobody seated, chips left in the pot or reserve go to the house (D-GEN-07 is silent)."""
    table = state.table_id
    order = clockwise_from_button(state)
    transfers: list[Transfer] = []
    sources = [(pot_account(table), state.pot), (reserve_account(table), state.reserve)]
    shares: dict[str, int] = {}
    if order:
        amounts = split_evenly(state.pot + state.reserve, [s.player for s in order])
        targets = [(seat_account(table, s.player), a) for s, a in zip(order, amounts, strict=True)]
        shares = {s.player: a for s, a in zip(order, amounts, strict=True)}
    else:
        targets = [(HOUSE, state.pot + state.reserve)]
    transfers += pay_in_order(sources, targets, "table_closed_share")
    cash_outs = {}
    for seat in order:
        final = seat.stack + shares.get(seat.player, 0)
        cash_outs[seat.player] = final
        transfers += cash_out_transfers(state, seat.player, final)
    return ev.TableClosed(shares=shares, cash_outs=cash_outs, transfers=list(transfers))


def pay_in_order(
    sources: list[tuple[str, int]], targets: list[tuple[str, int]], reason: str
) -> list[Transfer]:
    """Pay each target its amount from the sources in order (the pot first, then the reserve)."""
    transfers = []
    left = dict(sources)
    for target, amount in targets:
        for name in left:
            take = min(amount, left[name])
            if take:
                transfers.append(Transfer(name, target, take, reason))
                left[name] -= take
                amount -= take
    return transfers
