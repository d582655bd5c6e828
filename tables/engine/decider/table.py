"""The table's own commands: open, sit down, top up, leave, sit out and in, start a deal, close.
What happens inside a deal is the step kinds' (`steps`); a tournament's commands are in
`tournament_table`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ledger.accounts import Transfer, player_account, seat_account
from tables.engine import commitment
from tables.engine.cards import CardError, parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider import fair
from tables.engine.decider.close import cash_out_transfers, close_table_events
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import (
    buy_in_range,
    check_amount,
    check_between_deals,
    check_cash_table,
    check_open,
    check_seated,
)
from tables.engine.decider.program import antes_due, then_advance
from tables.engine.decider.state import Seat, TableState
from tables.engine.decider.tournament_table import next_deal_due, tournament_options
from tables.engine.decider.variants import get_variant, validate_options
from tables.engine.deck import DeckError


def eligible_players(state: TableState) -> list[Seat]:
    """Who can be dealt in (D-GEN-06): anyone under allow_debt; else stacks covering a due ante,
    or any chips when no ante is due or the last deal excused the player (SL-04, D-AO-02). MC-07:
    players seated during the game wait for the next, unless the game cannot go on without them
    (fewer than two others could play)."""
    policy, ante = state.opts.get("stack_policy", "default"), state.opts.get("ante", 1)
    playing = [s for s in state.seats if not s.sitting_out]
    if state.tournament_id is not None:  # a short stack antes what he has (all in)
        playing = [s for s in playing if s.stack > 0]
    elif policy != "allow_debt":
        due = antes_due(state)
        playing = [
            s for s in playing if s.stack >= (ante if due and s.player not in state.ante_exempt else 1)
        ]
    settled = [s for s in playing if s.player not in state.waiting]
    return settled if len(settled) >= 2 else playing


def check_start_deal(
    state: TableState,
    by_player: str | None,
    seed: str | None,
    after_deal_no: int | None = None,
    *,
    committed: bool = False,
) -> list[Seat]:
    check_open(state)
    check_between_deals(state)
    if after_deal_no is None:
        check_cash_table(state)  # only the tournament starts its deals
    if by_player is not None:
        check_seated(state, by_player)
    if state.stacked_decks is None and not committed:  # committed: the decks of fair.deal_events
        if seed is None:
            raise DomainError("invalid_seed", "a deal on an unstacked table needs a seed")
        try:
            commitment(seed)
        except DeckError:
            raise DomainError("invalid_seed", "the seed is not a hex string") from None
    players = eligible_players(state)
    if len(players) < 2:
        raise DomainError(
            "not_enough_players",
            "a deal needs two players who can play",
            eligible=[s.player for s in players],
        )
    return players


def _open_table(state: TableState, c: cmd.OpenTable, now: datetime) -> list[ev.Event]:
    if state.status == "open":
        raise DomainError("table_already_open", "the table is already open")
    if state.status == "closed":
        raise DomainError("table_closed", "the table is closed")
    options = validate_options(c.variant, tournament_options(c.options) if c.tournament_id else c.options)
    decks = None
    if c.stacked_decks is not None:
        if not c.stacked_allowed:
            raise DomainError("stacked_decks_not_allowed", "stacked decks are switched off")
        decks = [_stacked_deck(d) for d in c.stacked_decks]
        if not decks:
            raise DomainError("invalid_card", "stacked_decks is empty")
    opened = ev.TableOpened(
        table_id=str(c.table_id),
        variant=c.variant,
        options=options,
        stacked=decks is not None,
        stacked_decks=decks,
        tournament_id=str(c.tournament_id) if c.tournament_id else None,
        name=c.name,
    )
    return [opened, *fair.opening_events(opened, c.next_deck, get_variant(c.variant))]


def _stacked_deck(cards: list[str]) -> list[str]:
    try:
        parsed = [parse_card(c) for c in cards]
    except CardError as error:
        raise DomainError("invalid_card", str(error), card=str(error.token)) from None
    if len(set(parsed)) != len(parsed):
        raise DomainError("invalid_card", "a stacked deck repeats a card")
    return [str(c) for c in parsed]


def _sit_down(state: TableState, c: cmd.SitDown, now: datetime) -> list[ev.Event]:
    check_cash_table(state)
    check_open(state)
    if state.seat_of(c.player_id) is not None:
        raise DomainError("already_seated", f"{c.player_id} is already seated")
    taken = {s.seat for s in state.seats}
    free = [n for n in range(state.opts["seats"]) if n not in taken]
    if not free:
        raise DomainError("table_full", "every seat is taken")
    amount = check_amount(c.buy_in)
    low, high = buy_in_range(state)
    if amount < low or (high is not None and amount > high):
        raise DomainError(
            "invalid_amount",
            f"the buy-in must be between {low} and {high or 'any'}",
            minimum=low,
            maximum=high,
        )
    transfer = Transfer(
        player_account(c.player_id), seat_account(state.table_id, c.player_id), amount, "buy_in"
    )
    return [ev.PlayerSeated(player=c.player_id, seat=free[0], buy_in=amount, transfers=[transfer])]


def _top_up(state: TableState, c: cmd.TopUp, now: datetime) -> list[ev.Event]:
    check_cash_table(state)
    check_open(state)
    seat = check_seated(state, c.player_id)
    check_between_deals(state)
    amount = check_amount(c.amount)
    _, high = buy_in_range(state, seat.stack)
    if high is not None and amount > high:
        raise DomainError(
            "invalid_amount", f"a top-up may bring at most {max(high, 0)}", maximum=max(high, 0)
        )
    transfer = Transfer(
        player_account(c.player_id), seat_account(state.table_id, c.player_id), amount, "top_up"
    )
    return [ev.StackToppedUp(player=c.player_id, amount=amount, transfers=[transfer])]


def check_leave(state: TableState, player: str) -> Seat:
    check_cash_table(state)
    check_open(state)
    seat = check_seated(state, player)
    live = state.live
    if live is not None and player in live.order:
        raise DomainError("liability_open", f"{player} is dealt into deal {live.deal_no}")
    return seat


def _leave(state: TableState, c: cmd.Leave, now: datetime) -> list[ev.Event]:
    seat = check_leave(state, c.player_id)
    transfers = cash_out_transfers(state, c.player_id, seat.stack)
    return [ev.PlayerLeft(player=c.player_id, cash_out=seat.stack, transfers=list(transfers))]


def _close_table(state: TableState, c: cmd.CloseTable, now: datetime) -> list[ev.Event]:
    check_cash_table(state)
    check_open(state)
    check_between_deals(state)
    return [close_table_events(state)]


def _start_deal(state: TableState, c: cmd.StartDeal, now: datetime) -> list[ev.Event]:
    if c.after_deal_no is not None and not next_deal_due(state, c.after_deal_no):
        return []  # a redelivered "next deal" task does nothing
    players = check_start_deal(
        state,
        c.by_player_id,
        c.seed,
        c.after_deal_no,
        committed=c.next_deck is not None and fair.committed_pack(state.rules),
    )
    dealer = _next_dealer(state, players)  # D-GEN-05
    order = _from_dealers_left(players, dealer)
    stacked = state.stacked_decks is not None
    seed = None if stacked else c.seed
    eligible = {s.player for s in players}
    deal_no = state.deal_no + 1
    started = ev.DealStarted(
        deal_no=deal_no,
        game_no=state.game_no + (0 if state.game_open else 1),
        dealer=dealer.player,
        participants=[s.player for s in order],
        sat_out=[s.player for s in state.seats if s.player not in eligible],
        by=c.by_player_id,
        stacked=stacked,
        seed=seed,
        commitment=commitment(seed) if seed is not None else None,
    )
    return then_advance(state, fair.deal_events(state, started, c), now)


def _next_dealer(state: TableState, players: list[Seat]) -> Seat:
    """The first eligible seat clockwise after the last dealer's seat (the lowest seat at first)."""
    if state.button is None:
        return players[0]
    after = [s for s in players if s.seat > state.button]
    return after[0] if after else players[0]


def _from_dealers_left(players: list[Seat], dealer: Seat) -> list[Seat]:
    i = players.index(dealer)
    return [*players[i + 1 :], *players[: i + 1]]


def check_sit_out(state: TableState, player: str) -> Seat:
    check_cash_table(state)
    check_open(state)
    seat = check_seated(state, player)
    if seat.sitting_out:
        raise DomainError("already_sitting_out", f"{player} is already sitting out")
    return seat


def check_sit_in(state: TableState, player: str) -> Seat:
    check_open(state)
    seat = check_seated(state, player)
    if not seat.sitting_out:
        raise DomainError("not_sitting_out", f"{player} is not sitting out")
    return seat


def _sit_out(state: TableState, c: cmd.SitOut, now: datetime) -> list[ev.Event]:
    """Keep the seat, skip the coming deals; a live deal he is in plays on (he may still declare)."""
    seat = check_sit_out(state, c.player_id)
    return [ev.PlayerSatOut(player=seat.player, reason="requested", timeouts=seat.timeouts)]


def _sit_in(state: TableState, c: cmd.SitIn, now: datetime) -> list[ev.Event]:
    seat = check_sit_in(state, c.player_id)
    return [ev.PlayerSatIn(player=seat.player)]


TABLE_HANDLERS: dict[type, Callable[[TableState, Any, datetime], list[ev.Event]]] = {
    cmd.OpenTable: _open_table,
    cmd.SitDown: _sit_down,
    cmd.TopUp: _top_up,
    cmd.Leave: _leave,
    cmd.CloseTable: _close_table,
    cmd.StartDeal: _start_deal,
    cmd.SitOut: _sit_out,
    cmd.SitIn: _sit_in,
    cmd.ContributeSeed: fair.contribute_seed,
}
