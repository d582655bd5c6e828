"""decide(state, command, now) -> list[Event]: what a command makes happen, or a DomainError.

Guards are `check_*` functions (also used by `view.legal_actions`, so what the API offers is
exactly what decide accepts). A command's events are folded as they are decided and the deal's
program is advanced (`program.advance`) until players must act again, so one command returns
every consequence: e.g. the last declare returns the reveal, showdown, settlement and DealEnded.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from ledger.accounts import (
    Transfer,
    account_kind,
    chipbank_account,
    player_account,
    pot_account,
    reserve_account,
    seat_account,
)
from tables.engine import commitment
from tables.engine.cards import CardError, parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.close import (
    cash_out_transfers,
    clockwise_from_button,
    close_table_events,
    pay_in_order,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.evolve import evolve, fold
from tables.engine.decider.money import loser_cost, split_evenly, terms_of
from tables.engine.decider.program import advance, antes_due, current_ctx, declare_mode, parse_iso
from tables.engine.decider.state import DealState, Seat, TableState
from tables.engine.decider.steps import KINDS, betting, escalation, exchange
from tables.engine.decider.steps.ante import owed_by_in_players
from tables.engine.decider.variants import validate_options
from tables.engine.decision import Decision
from tables.engine.deck import DeckError

TableDecision = Decision[ev.Event, TableState]


def decide(state: TableState, command: cmd.Command, now: datetime) -> TableDecision:
    """The events `command` makes happen at `now` (timezone-aware), or DomainError."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"not a command: {command!r}")
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    decided = handler(state, command, now)
    after = decided.state if isinstance(decided, Decision) else fold(decided, state)
    return Decision(in_unit(state, decided), after)


def in_unit(state: TableState, events: list[ev.Event]) -> list[ev.Event]:
    """Issue 13, DESIGN §2.4: every transfer a tournament table decides is in the tournament's unit,
    stamped here at the decider's exit so no step can forget it. Its chips never leave the
    tournament: a transfer touching a bankroll, the cashier or the house is a bug, refused."""
    if state.tournament_id is None:
        return events
    unit, bank = state.unit, chipbank_account(state.tournament_id)
    stamped = []
    for event in events:
        moves = ev.transfers_of(event)
        if moves:
            for move in moves:
                for account in (move["from"], move["to"]):
                    if account_kind(account) not in _TABLE_KINDS and account != bank:
                        raise ValueError(f"{event.type} moves a tournament's chips to {account}")
            event = replace(event, transfers=[{**move, "unit": unit} for move in moves])  # type: ignore[call-arg]
        stamped.append(event)
    return stamped


_TABLE_KINDS = frozenset({"seat", "pot", "reserve", "bets"})            # bets: D-BET (issue 14)


def then_advance(state: TableState, events: list[ev.Event], now: datetime) -> TableDecision:
    """Fold `events` and run the program on: the command's events and their consequences, with
    the state after them."""
    for event in events:
        state = evolve(state, event)
    state, more = advance(state, now)
    return Decision([*events, *more], state)


# --- guards -----------------------------------------------------------------------------------------

def check_open(state: TableState) -> None:
    if state.status != "open":
        raise DomainError("table_closed", "the table is not open")


def check_cash_table(state: TableState) -> None:
    """Issue 13: a tournament table's players come and go by the tournament, never by the cash
    commands (sit down, top up, leave, sit out, close)."""
    if state.tournament_id is not None:
        raise DomainError("tournament_table", "a tournament table: the tournament seats and moves "
                          "its players", tournament_id=state.tournament_id)


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


def in_cost(state: TableState) -> int:
    """D-GEN-06: the most declaring "in" can cost in this deal: matching the pot (as capped; in
    Thirty Eight the pot at its highest level), and the extra ante the "in" players owe before the
    next declare (TPO-04)."""
    multiple = escalation.most_levels(state)          # T38-03, D-GEN-06: triple the pot at most
    return loser_cost(multiple * state.pot, terms_of(state.opts)) + owed_by_in_players(state)


def declare_choices(state: TableState) -> tuple[str, ...]:
    """What the open declare step accepts (its `choices` parameter)."""
    step = state.current_step()
    if step is None or step.kind != "declare":
        return ()
    return tuple(step.param("choices", state.opts))


def check_declare(state: TableState, player: str, deal_no: int, choice: str,
                  stage: int | None = None) -> None:
    deal = check_acting(state, player, deal_no)
    if stage is not None and stage != deal.stage:
        raise DomainError("wrong_stage", f"the open declare is of stage {deal.stage}, not {stage}",
                          stage=deal.stage)
    if player not in deal.order:
        raise DomainError("not_your_turn", f"{player} is not dealt into deal {deal_no}")
    if deal.choice_of(player) is not None:
        raise DomainError("already_declared", f"{player} has declared", player=player)
    allowed = declare_choices(state)
    if player not in deal.awaiting or deal.passing or bidding(state) or not allowed:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to declare", player=player)
    if choice not in allowed:
        raise DomainError("invalid_choice", f"declare one of {list(allowed)}, not {choice!r}")
    if (choice == "in" and state.opts.get("stack_policy", "default") == "default"
            and state.stack_of(player) < in_cost(state)):
        raise DomainError("insufficient_stack", "the stack cannot cover a loss in this deal",
                          needed=in_cost(state), stack=state.stack_of(player))


def eligible_players(state: TableState) -> list[Seat]:
    """Who can be dealt in (D-GEN-06): anyone under allow_debt; else stacks covering a due ante,
    or any chips when no ante is due or the last deal excused the player (SL-04, D-AO-02). MC-07:
    players seated during the game wait for the next, unless the game cannot go on without them
    (fewer than two others could play)."""
    policy, ante = state.opts.get("stack_policy", "default"), state.opts.get("ante", 1)
    playing = [s for s in state.seats if not s.sitting_out]
    if state.tournament_id is not None:       # issue 13: a short stack antes what he has (all in)
        playing = [s for s in playing if s.stack > 0]
    elif policy != "allow_debt":
        due = antes_due(state)
        playing = [s for s in playing
                   if s.stack >= (ante if due and s.player not in state.ante_exempt else 1)]
    settled = [s for s in playing if s.player not in state.waiting]
    return settled if len(settled) >= 2 else playing


def check_start_deal(state: TableState, by_player: str | None, seed: str | None,
                     after_deal_no: int | None = None) -> list[Seat]:
    check_open(state)
    check_between_deals(state)
    if after_deal_no is None:
        check_cash_table(state)           # issue 13: only the tournament starts its deals
    if by_player is not None:
        check_seated(state, by_player)
    if state.stacked_decks is None:
        if seed is None:
            raise DomainError("invalid_seed", "a deal on an unstacked table needs a seed")
        try:
            commitment(seed)
        except DeckError:
            raise DomainError("invalid_seed", "the seed is not a hex string") from None
    players = eligible_players(state)
    if len(players) < 2:
        raise DomainError("not_enough_players", "a deal needs two players who can play",
                          eligible=[s.player for s in players])
    return players


# --- handlers ----------------------------------------------------------------------------------------

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
    return [ev.TableOpened(table_id=str(c.table_id), variant=c.variant, options=options,
                           stacked=decks is not None, stacked_decks=decks,
                           tournament_id=str(c.tournament_id) if c.tournament_id else None)]


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
        raise DomainError("invalid_amount", f"the buy-in must be between {low} and {high or 'any'}",
                          minimum=low, maximum=high)
    transfer = Transfer(player_account(c.player_id), seat_account(state.table_id, c.player_id),
                        amount, "buy_in")
    return [ev.PlayerSeated(player=c.player_id, seat=free[0], buy_in=amount,
                            transfers=[transfer.to_json()])]


def _top_up(state: TableState, c: cmd.TopUp, now: datetime) -> list[ev.Event]:
    check_cash_table(state)
    check_open(state)
    seat = check_seated(state, c.player_id)
    check_between_deals(state)
    amount = check_amount(c.amount)
    _, high = buy_in_range(state, seat.stack)
    if high is not None and amount > high:
        raise DomainError("invalid_amount", f"a top-up may bring at most {max(high, 0)}",
                          maximum=max(high, 0))
    transfer = Transfer(player_account(c.player_id), seat_account(state.table_id, c.player_id),
                        amount, "top_up")
    return [ev.StackToppedUp(player=c.player_id, amount=amount, transfers=[transfer.to_json()])]


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
    return [ev.PlayerLeft(player=c.player_id, cash_out=seat.stack,
                          transfers=[t.to_json() for t in transfers])]


def _close_table(state: TableState, c: cmd.CloseTable, now: datetime) -> list[ev.Event]:
    check_cash_table(state)
    check_open(state)
    check_between_deals(state)
    return [close_table_events(state)]


def _start_deal(state: TableState, c: cmd.StartDeal, now: datetime) -> list[ev.Event]:
    if c.after_deal_no is not None and not next_deal_due(state, c.after_deal_no):
        return []                         # issue 13: a redelivered "next deal" task does nothing
    players = check_start_deal(state, c.by_player_id, c.seed, c.after_deal_no)
    dealer = _next_dealer(state, players)                      # D-GEN-05
    order = _from_dealers_left(players, dealer)
    stacked = state.stacked_decks is not None
    seed = None if stacked else c.seed
    eligible = {s.player for s in players}
    deal_no = state.deal_no + 1
    started = ev.DealStarted(
        deal_no=deal_no, game_no=state.game_no + (0 if state.game_open else 1),
        dealer=dealer.player, participants=[s.player for s in order],
        sat_out=[s.player for s in state.seats if s.player not in eligible],
        by=c.by_player_id, stacked=stacked, seed=seed,
        commitment=commitment(seed) if seed is not None else None)
    return then_advance(state, [started], now)


def _next_dealer(state: TableState, players: list[Seat]) -> Seat:
    """The first eligible seat clockwise after the last dealer's seat (the lowest seat at first)."""
    if state.button is None:
        return players[0]
    after = [s for s in players if s.seat > state.button]
    return after[0] if after else players[0]


def _from_dealers_left(players: list[Seat], dealer: Seat) -> list[Seat]:
    i = players.index(dealer)
    return [*players[i + 1:], *players[:i + 1]]


def _declare(state: TableState, c: cmd.Declare, now: datetime) -> list[ev.Event]:
    """A declare is accepted until the timeout is recorded (ExpireDeclare), even a little late."""
    check_declare(state, c.player_id, c.deal_no, c.choice, c.stage)
    sealed = declare_mode(state) == "simultaneous"
    declared = ev.Declared(deal_no=c.deal_no, player=c.player_id, choice=c.choice, sealed=sealed,
                           forced=False)
    return then_advance(state, [declared], now)


def check_pass(state: TableState, player: str, deal_no: int, card: str) -> str:
    """AO-06: the player is in the open pass window and holds the card; returns it normalised."""
    check_open(state)
    check_deal(state, deal_no)
    deal = state.live
    assert deal is not None
    if not deal.passing or player not in deal.order:
        raise DomainError("not_your_turn", "no pass is open for this player", player=player)
    if deal.passed[deal.position(player)] is not None:
        raise DomainError("already_passed", f"{player} has passed a card", player=player)
    try:
        text = str(parse_card(card))
    except CardError:
        raise DomainError("invalid_card", f"not a card: {card!r}", card=card) from None
    if text not in deal.hand_of(player):
        raise DomainError("invalid_card", f"{text} is not in the player's hand", card=text)
    return text


def bidding(state: TableState) -> bool:
    """MCA-04: the open hand's auction is the current step."""
    step = state.current_step()
    return step is not None and step.kind == "auction"


def bid_range(state: TableState, player: str) -> tuple[int, int | None]:
    """(min, max) of a bid now: above the standing bid, within the stack unless allow_debt
    (D-GEN-06); max None = no maximum."""
    deal = state.live
    assert deal is not None
    allow_debt = state.opts.get("stack_policy", "default") == "allow_debt"
    return deal.high_bid + 1, None if allow_debt else state.stack_of(player)


def check_bid(state: TableState, player: str, deal_no: int, amount: Any) -> None:
    """MCA-04, D-MC-04: the player's turn in the open hand's auction; a bid is whole chips above
    the standing bid that his stack can pay (None: a pass)."""
    deal = check_acting(state, player, deal_no)
    if not bidding(state) or player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to bid", player=player)
    if amount is None:
        return
    check_amount(amount)
    low, high = bid_range(state, player)
    if amount < low:
        raise DomainError("bid_too_low", f"bid more than the standing bid of {deal.high_bid}",
                          minimum=low)
    if high is not None and amount > high:
        raise DomainError("insufficient_stack", "the stack cannot pay this bid", needed=amount,
                          stack=high)


def _bid(state: TableState, c: cmd.Bid, now: datetime) -> list[ev.Event]:
    check_bid(state, c.player_id, c.deal_no, c.amount)
    made = ev.BidMade(deal_no=c.deal_no, player=c.player_id, amount=c.amount, timed_out=False)
    return then_advance(state, [made], now)


def _pass_card(state: TableState, c: cmd.PassCard, now: datetime) -> list[ev.Event]:
    card = check_pass(state, c.player_id, c.deal_no, c.card)
    passed = ev.CardPassed(deal_no=c.deal_no, player=c.player_id, card=card, timed_out=False)
    return then_advance(state, [passed], now)


def check_exchange(state: TableState, player: str, deal_no: int, discards: Any) -> list[str]:
    """EXC-01/02: it is the player's draw and `discards` are distinct cards of his hand, at most
    as many as the draw allows; returns them normalised."""
    deal = check_acting(state, player, deal_no)
    most = exchange.open_draw(state)
    if player in deal.exchanged and most is not None:
        raise DomainError("already_exchanged", f"{player} has exchanged", player=player)
    if most is None or player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to exchange", player=player)
    if not isinstance(discards, list | tuple):
        raise DomainError("invalid_discards", "discards is a list of cards")
    cards = [_card_in_hand(deal.hand_of(player), card) for card in discards]
    if len(set(cards)) != len(cards) or len(cards) > most:
        raise DomainError("invalid_discards", f"discard at most {most} different cards of your hand",
                          most=most)
    return cards


def _card_in_hand(hand: tuple[str, ...], card: Any) -> str:
    try:
        text = str(parse_card(card))
    except CardError:
        raise DomainError("invalid_card", f"not a card: {card!r}", card=str(card)) from None
    if text not in hand:
        raise DomainError("invalid_card", f"{text} is not in the player's hand", card=text)
    return text


def _exchange(state: TableState, c: cmd.Exchange, now: datetime) -> list[ev.Event]:
    """A draw is accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    discards = check_exchange(state, c.player_id, c.deal_no, c.discards)
    return then_advance(state, exchange.draw_events(state, c.player_id, discards), now)


# --- Thirty Eight's escalation (T38-03/04, D-T38-01; steps/escalation.py) -------------------------

def check_escalate(state: TableState, player: str, deal_no: int, action: str) -> int:
    """T38-03/04: the player's turn in the open escalation; `action` names a level at or above the
    pot's current one (accept or raise; the last level is the maximum) or folds. Returns the level
    he stands at after it (for a fold, the level he pays at)."""
    deal = check_acting(state, player, deal_no)
    names = escalation.open_escalation(state)
    if names is None or player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to escalate", player=player)
    accepted = deal.accepted[deal.position(player)]
    if action == escalation.FOLD:
        return accepted
    if action not in names:
        raise DomainError("invalid_choice", f"escalate to one of {list(names)} or fold, not {action!r}",
                          choices=[*names, escalation.FOLD])
    level = names.index(action) + 1
    if level < deal.esc_level:
        raise DomainError("level_too_low", f"the pot stands at {names[deal.esc_level - 1]}: accept it, "
                          "raise it or fold", level=names[deal.esc_level - 1])
    cost = escalation.level_cost(state, level)
    if state.opts.get("stack_policy", "default") == "default" and state.stack_of(player) < cost:
        raise DomainError("insufficient_stack", "the stack cannot cover a loss at this level",
                          needed=cost, stack=state.stack_of(player))
    return level


def _escalate(state: TableState, c: cmd.Escalate, now: datetime) -> list[ev.Event]:
    """Accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    level = check_escalate(state, c.player_id, c.deal_no, c.action)
    made = ev.Escalated(deal_no=c.deal_no, player=c.player_id, action=c.action, level=level)
    return then_advance(state, [made], now)


# --- betting (D-BET, issue 14) ---------------------------------------------------------------------

def check_bet(state: TableState, player: str, deal_no: int, action: Any,
              amount: Any = None) -> int:
    """D-BET: it is the player's turn in the betting round and the round offers `action` now
    (fixed limit, at most `raises` raises, within his stack by D-GEN-06); `amount`, if given, is
    the chips the action moves. Returns those chips."""
    deal = check_acting(state, player, deal_no)
    params = betting.current(state)
    if params is None or player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to bet", player=player)
    if action not in betting.ACTIONS:
        raise DomainError("invalid_choice", f"bet one of {list(betting.ACTIONS)}, not {action!r}")
    offered = betting.betting_choices(state, params, player)
    if action not in offered:
        _refuse_bet(state, params, player, action)
    chips = offered[action]
    if amount is not None and amount != chips:
        raise DomainError("invalid_amount", f"{action} moves {chips} chips, not {amount!r} (fixed "
                          "limit)", action=action, amount=chips)
    return chips


def _refuse_bet(state: TableState, params: Any, player: str, action: str) -> None:
    """Why the round does not offer `action`: the raise cap, the stack, or the situation."""
    deal = state.live
    assert deal is not None
    owed, unit = betting.to_call(deal, player), betting.unit_of(state, params)
    opened = betting.high(deal) > 0
    if action == "raise" and opened and deal.raises >= params["raises"]:
        raise DomainError("raise_limit", f"at most {params['raises']} raises per round (D-BET)",
                          raises=deal.raises)
    fits = {"check": owed == 0, "bet": not opened, "call": owed > 0, "raise": opened}
    if fits.get(action, True):
        needed = betting.amount_of(deal, player, action, unit)
        raise DomainError("insufficient_stack", "the stack cannot cover this bet beside the pot "
                          "match it is liable for (D-GEN-06)", needed=needed,
                          available=betting.free_chips(state, player))
    reason = "a bet is open" if opened else "no bet is open"
    raise DomainError("bet_not_allowed", f"cannot {action}: {reason}", action=action, to_call=owed,
                      allowed=sorted(betting.betting_choices(state, params, player)))


def _bet(state: TableState, c: cmd.Bet, now: datetime) -> list[ev.Event]:
    """A bet is accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    chips = check_bet(state, c.player_id, c.deal_no, c.action, c.amount)
    return then_advance(state, betting.bet_events(state, c.player_id, c.action, chips), now)


def _expire_declare(state: TableState, c: cmd.ExpireDeclare, now: datetime) -> list[ev.Event]:
    """The timer's command: idempotent; nothing unless the open turn/window is overdue at `now`."""
    deal = state.live
    if (state.status != "open" or deal is None or deal.deal_no != c.deal_no or not deal.awaiting
            or deal.deadline is None or now < parse_iso(deal.deadline)):
        return []
    step, ctx = state.current_step(), current_ctx(state, now)
    expire = None if step is None else KINDS[step.kind].expire
    if expire is not None and ctx is not None:      # a kind that times out its own way (T38-03)
        return then_advance(state, expire(ctx), now)
    if bidding(state):                # MCA-04: a bid not made in time is a pass
        passed_bid: list[ev.Event] = [ev.BidMade(deal_no=deal.deal_no, player=p, amount=None,
                                                 timed_out=True) for p in deal.awaiting]
        return then_advance(state, passed_bid, now)
    if deal.passing:                  # AO-06: whoever has not chosen passes his first card
        passed: list[ev.Event] = [ev.CardPassed(deal_no=deal.deal_no, player=p, timed_out=True,
                                                card=deal.hand_of(p)[0]) for p in deal.awaiting]
        return then_advance(state, passed, now)
    if exchange.open_draw(state) is not None:          # EXC-01/02: whoever has not drawn stands pat
        return then_advance(state, exchange.timeout_events(state), now)
    timed_out = ev.DeclareTimedOut(deal_no=deal.deal_no, players=list(deal.awaiting),
                                   effect=declare_timeout_effect(state))
    return then_advance(state, [timed_out, *_sat_out_for_timeouts(state, deal.awaiting)], now)


def declare_timeout_effect(state: TableState) -> str:
    """The choice a declare timeout gives: the open declare step's ``timeout`` (43-03's High/Low/
    Both declare has no "out"), else the table's ``timeout_effect``."""
    step = state.current_step()
    effect = step.param("timeout", state.opts) if step is not None and step.kind == "declare" else None
    return str(effect or state.opts.get("timeout_effect", "out"))


def _sat_out_for_timeouts(state: TableState, players: tuple[str, ...]) -> list[ev.Event]:
    """Option sit_out_after (issue: timeouts): K consecutive timeouts sit a player out."""
    limit = state.opts.get("sit_out_after", 0)
    if not limit or state.tournament_id is not None:     # issue 13: he stays dealt in, timed out
        return []
    seats = [state.seat_of(p) for p in players]
    return [ev.PlayerSatOut(player=s.player, reason="timeouts", timeouts=s.timeouts + 1)
            for s in seats if s is not None and not s.sitting_out and s.timeouts + 1 >= limit]


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


# --- tournament tables (issue 13): the tournament service's commands, between deals -------------

def tournament_options(options: dict[str, Any]) -> dict[str, Any]:
    """A tournament table's options: pay_what_you_have unless given (D-GEN-06); no credit, since
    no bankroll stands behind a tournament seat."""
    if options.get("stack_policy") == "allow_debt":
        raise DomainError("invalid_option", "a tournament table extends no credit",
                          option="stack_policy")
    if options.get("end_on_empty_pot"):
        raise DomainError("invalid_option", "a tournament table closes when the tournament says so "
                          "(end_on_empty_pot would cash its players out)", option="end_on_empty_pot")
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
        raise DomainError("invalid_seat", f"seat {seat!r} is not a free seat of this table",
                          free=free)
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
    return [ev.EntrantSeated(player=c.player_id, seat=seat, chips=chips,
                             transfers=[transfer.to_json()])]


def _move_entrant_out(state: TableState, c: cmd.MoveEntrantOut, now: datetime) -> list[ev.Event]:
    seat = check_entrant_leaves(state, c.player_id)
    if str(c.to_table_id) == state.table_id:
        raise DomainError("already_seated", f"{c.player_id} already sits at this table")
    moves = [Transfer(seat_account(state.table_id, c.player_id), seat_account(c.to_table_id, c.player_id),
                      seat.stack, "tournament_move")] if seat.stack > 0 else []
    return [ev.EntrantMovedOut(player=c.player_id, to_table=str(c.to_table_id), chips=seat.stack,
                               transfers=[t.to_json() for t in moves])]


def _move_entrant_in(state: TableState, c: cmd.MoveEntrantIn, now: datetime) -> list[ev.Event]:
    seat = check_entrant_arrives(state, c.player_id, c.seat)
    if type(c.chips) is not int or c.chips < 0:
        raise DomainError("invalid_amount", f"not a whole number of chips: {c.chips!r}")
    return [ev.EntrantMovedIn(player=c.player_id, seat=seat, from_table=str(c.from_table_id),
                              chips=c.chips)]


def _remove_entrant(state: TableState, c: cmd.RemoveEntrant, now: datetime) -> list[ev.Event]:
    seat = check_entrant_leaves(state, c.player_id)
    bank = chipbank_account(state.tournament_id)
    back = [Transfer(seat_account(state.table_id, c.player_id), bank, seat.stack, "tournament_chips_back")
            ] if seat.stack > 0 else []
    return [ev.EntrantRemoved(player=c.player_id, chips=seat.stack,
                              transfers=[t.to_json() for t in back])]


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
    return [ev.TableBroken(shares=shares, transfers=[t.to_json() for t in moves])]


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
    return [ev.TableFinished(winner=c.winner_id, transfers=[t.to_json() for t in moves])]


def _pot_and_reserve(state: TableState) -> list[tuple[str, int]]:
    return [(pot_account(state.table_id), state.pot), (reserve_account(state.table_id), state.reserve)]


def _set_ante(state: TableState, c: cmd.SetAnte, now: datetime) -> list[ev.Event]:
    """Ante levels: from the next deal that starts; a live deal keeps its ante (the fold holds
    the new one until then)."""
    check_tournament(state)
    return [ev.AnteChanged(ante=check_amount(c.ante))]


_TOURNAMENT_HANDLERS: dict[type, Callable[[TableState, Any, datetime], list[ev.Event]]] = {
    cmd.SeatEntrant: _seat_entrant,
    cmd.MoveEntrantOut: _move_entrant_out,
    cmd.MoveEntrantIn: _move_entrant_in,
    cmd.RemoveEntrant: _remove_entrant,
    cmd.BreakTable: _break_table,
    cmd.FinishTable: _finish_table,
    cmd.SetAnte: _set_ante,
}


_HANDLERS: dict[type, Callable[[TableState, Any, datetime], list[ev.Event]]] = {
    cmd.OpenTable: _open_table,
    cmd.SitDown: _sit_down,
    cmd.TopUp: _top_up,
    cmd.Leave: _leave,
    cmd.CloseTable: _close_table,
    cmd.StartDeal: _start_deal,
    cmd.Declare: _declare,
    cmd.ExpireDeclare: _expire_declare,
    cmd.SitOut: _sit_out,
    cmd.SitIn: _sit_in,
    cmd.PassCard: _pass_card,
    cmd.Bid: _bid,
    cmd.Exchange: _exchange,
    cmd.Bet: _bet,
    **_TOURNAMENT_HANDLERS,
    cmd.Escalate: _escalate,
}
