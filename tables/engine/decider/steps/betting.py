"""betting: a fixed-limit betting round among the "in" players (D-BET; JP-10, T25-03, 43-07).

``unit`` (the table's ``bet_unit``; 0: the table's ante): the size of a bet and of a raise;
``raises`` (3): the most raises after the round's bet (D-BET: "at most three raises per round").

D-BET, Q-JP-01, Q-T25-01: action goes clockwise from the dealer's left among the "in" players who
have not folded. With no bet open a player checks, bets one unit or folds; facing a bet he calls,
raises one unit (while raises are left) or folds. The round is over when every player still in
the betting has acted and matched the highest stake, or when one is left. A turn not taken by its
deadline (the declare/turn timers' ExpireDeclare) checks if it can, else folds.

Money: each chip bet moves from the seat to the deal's bets account (`bets:<table>`), apart from
the pot, so the pot is matched at its size before the betting (JP-12, T25-04); the `award_bets`
step pays the bets to the showdown's winner(s). A player who folds stays "in" for the settlement:
he forfeits his bets and still matches the pre-betting pot (D-BET, as T38-04); he is not shown.

Table stakes (D-GEN-06): under the default stack policy a player may put in only what his stack
holds beyond the match of the pre-betting pot he is liable for as an "in" player (so a loss can
always be paid in full); under ``pay_what_you_have`` up to his whole stack; under ``allow_debt``
without limit. There are no all-in side pots: a player who cannot afford a call may only fold,
and one who cannot afford a bet or raise may check or call (`betting_choices`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.accounts import Transfer, bets_account, seat_account
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import (
    Ctx,
    Param,
    StepKind,
    deadline,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.steps.slots.betting import BettingSlot
from tables.engine.decider.visibility import Viewer

NAME = "betting"
ACTIONS = ("check", "bet", "call", "raise", "fold")
RAISES = 3                                   # D-BET



_EMPTY = BettingSlot()


def betting_of(deal: DealState) -> BettingSlot:
    return slot_of(deal, NAME, _EMPTY)


def contenders(deal: DealState) -> tuple[str, ...]:
    """The "in" players still in the betting (not folded), from the dealer's left."""
    return tuple(p for p in deal.in_players() if p not in deal.folded)


def high(deal: DealState) -> int:
    """The highest stake of this round (0: no bet open)."""
    return max(betting_of(deal).bet_round, default=0)


def to_call(deal: DealState, player: str) -> int:
    """What `player` must put in to match the highest stake of the round."""
    stakes = betting_of(deal).bet_round
    if not stakes:
        return 0
    return max(stakes) - stakes[deal.position(player)]


def unit_of(state: TableState, params: Mapping[str, Any]) -> int:
    """The bet and raise size: the step's unit, or the table's ante (D-BET)."""
    return int(params["unit"]) or int(state.opts.get("ante", 1))


def amount_of(deal: DealState, player: str, action: str, unit: int) -> int:
    """The chips `action` moves from the player's seat into the bets account."""
    if action == "call":
        return to_call(deal, player)
    if action == "bet":
        return unit
    if action == "raise":
        return to_call(deal, player) + unit
    return 0


def free_chips(state: TableState, player: str) -> int | None:
    """D-GEN-06: what the player may still bet (None: no limit, allow_debt); under the default
    policy his stack beyond the match of the pre-betting pot (his liability as an "in" player)."""
    policy = state.opts.get("stack_policy", "default")
    if policy == "allow_debt":
        return None
    stack = state.stack_of(player)
    if policy == "pay_what_you_have":
        return stack
    return stack - loser_cost(state.pot, terms_of(state.opts))


def betting_choices(state: TableState, params: Mapping[str, Any], player: str) -> dict[str, int]:
    """The actions `player` may take now, each with the chips it moves (legal_actions shows them).
    The caller has checked it is his turn."""
    deal = state.live
    assert deal is not None
    unit, owed, free = unit_of(state, params), to_call(deal, player), free_chips(state, player)
    if high(deal) == 0:
        wanted = {"check": 0, "bet": unit, "fold": 0}
    else:
        wanted = {"call": owed, "fold": 0} if owed else {"check": 0, "fold": 0}
        if betting_of(deal).raises < params["raises"]:
            wanted["raise"] = owed + unit
    return {action: amount for action, amount in wanted.items()
            if free is None or amount <= max(free, 0)}


def current(state: TableState) -> Mapping[str, Any] | None:
    """The open betting step's parameters, or None when no betting round is current."""
    step = state.current_step()
    if step is None or step.kind != NAME:
        return None
    return step.resolved(state.opts)


def _owes_action(deal: DealState, player: str) -> bool:
    return player not in betting_of(deal).bet_acted or to_call(deal, player) > 0


def done(ctx: Ctx) -> bool:
    """Over when fewer than two are left in the betting, or each has acted and matched."""
    deal = ctx.deal
    left = contenders(deal)
    return len(left) < 2 or not any(_owes_action(deal, p) for p in left)


def run(ctx: Ctx) -> list[ev.Event]:
    """Open the next turn, clockwise from the last player to act (the dealer's left first)."""
    deal = ctx.deal
    if deal.awaiting:
        return []
    bets = betting_of(deal)
    n, left = len(deal.order), set(contenders(deal))
    for offset in range(n):
        player = deal.order[(bets.bet_turn + offset) % n]
        if player in left and _owes_action(deal, player):
            return [ev.BetTurnOpened(deal_no=deal.deal_no, player=player,
                                     to_call=to_call(deal, player), unit=unit_of(ctx.state, ctx.params),
                                     raises=bets.raises, deadline=deadline(ctx))]
    return []


def bet_events(state: TableState, player: str, action: str, amount: int, *,
               timed_out: bool = False) -> list[ev.Event]:
    """The player's action as a BetMade, with the transfer of his chips to the bets account."""
    table = state.table_id
    transfers = ([Transfer(seat_account(table, player), bets_account(table), amount, action).to_json()]
                 if amount > 0 else [])
    return [ev.BetMade(deal_no=state.deal_no, player=player, action=action, amount=amount,
                       timed_out=timed_out, transfers=transfers)]


def expire(ctx: Ctx) -> list[ev.Event]:
    """D-BET: a player whose turn expired checks if he can, else folds."""
    deal = ctx.deal
    return [event for player in deal.awaiting for event in bet_events(
        ctx.state, player, "fold" if to_call(deal, player) else "check", 0, timed_out=True)]


# --- the players' command: Bet (D-BET) -------------------------------------------------------------

def check_bet(ctx: Ctx, c: cmd.Bet) -> int:
    """D-BET: it is the player's turn in the betting round and the round offers `action` now
    (fixed limit, at most `raises` raises, within his stack by D-GEN-06); `amount`, if given, is
    the chips the action moves. Returns those chips."""
    state, player, action, params = ctx.state, c.player_id, c.action, ctx.params
    deal = check_acting(state, player, c.deal_no)
    if player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to bet", player=player)
    if action not in ACTIONS:
        raise DomainError("invalid_choice", f"bet one of {list(ACTIONS)}, not {action!r}")
    offered = betting_choices(state, params, player)
    if action not in offered:
        _refuse_bet(state, params, player, action)
    chips = offered[action]
    if c.amount is not None and c.amount != chips:
        raise DomainError("invalid_amount", f"{action} moves {chips} chips, not {c.amount!r} (fixed "
                          "limit)", action=action, amount=chips)
    return chips


def _refuse_bet(state: TableState, params: Mapping[str, Any], player: str, action: str) -> None:
    """Why the round does not offer `action`: the raise cap, the stack, or the situation."""
    deal = state.live
    assert deal is not None
    owed, unit, raises = to_call(deal, player), unit_of(state, params), betting_of(deal).raises
    opened = high(deal) > 0
    if action == "raise" and opened and raises >= params["raises"]:
        raise DomainError("raise_limit", f"at most {params['raises']} raises per round (D-BET)",
                          raises=raises)
    fits = {"check": owed == 0, "bet": not opened, "call": owed > 0, "raise": opened}
    if fits.get(action, True):
        needed = amount_of(deal, player, action, unit)
        raise DomainError("insufficient_stack", "the stack cannot cover this bet beside the pot "
                          "match it is liable for (D-GEN-06)", needed=needed,
                          available=free_chips(state, player))
    reason = "a bet is open" if opened else "no bet is open"
    raise DomainError("bet_not_allowed", f"cannot {action}: {reason}", action=action, to_call=owed,
                      allowed=sorted(betting_choices(state, params, player)))


def bet(ctx: Ctx, c: cmd.Bet, chips: int) -> list[ev.Event]:
    """A bet is accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    return bet_events(ctx.state, c.player_id, c.action, chips)


def offers(ctx: Ctx, player: str) -> list[dict[str, Any]]:
    """D-BET: the player's turn in the betting round: each action he may take with the chips it
    moves (`amounts`), what he must call, the bet/raise size and the raises left."""
    deal, params = ctx.deal, ctx.params
    if player not in deal.awaiting:
        return []
    amounts = betting_choices(ctx.state, params, player)
    return [{"action": "bet", "deal_no": deal.deal_no,
             "choices": [a for a in ACTIONS if a in amounts], "amounts": amounts,
             "to_call": to_call(deal, player), "unit": unit_of(ctx.state, params),
             "raises_left": max(params["raises"] - betting_of(deal).raises, 0),
             **turn_fields(deal, ctx.now)}]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """D-BET: the deal's bets (public): the bets account, each player's stake this round and in
    the deal, the raises and who folded. None when the deal has no betting."""
    bets = betting_of(deal)
    if not bets.bet_total:
        return {"betting": None}
    params = current(state)
    return {"betting": {
        "total": state.bets,
        "stakes": dict(zip(deal.order, bets.bet_round, strict=True)),
        "bets": dict(zip(deal.order, bets.bet_total, strict=True)),
        "high": high(deal), "raises": bets.raises,
        "unit": unit_of(state, params) if params is not None else None,
        "folded": list(deal.folded), "open": params is not None}}


# --- folds ---------------------------------------------------------------------------------------------

def start(deal: DealState, params: Mapping[str, Any]) -> DealState:
    zeros = (0,) * len(deal.order)
    slot = BettingSlot(bet_round=zeros, bet_total=betting_of(deal).bet_total or zeros)
    return with_slot(deal._replace(awaiting=(), deadline=None), NAME, slot)


def fold_opened(state: TableState, e: ev.BetTurnOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_made(state: TableState, e: ev.BetMade) -> TableState:
    deal = state.deal
    assert deal is not None
    bets = betting_of(deal)
    i = deal.position(e.player)
    zeros = (0,) * len(deal.order)
    stakes, totals = bets.bet_round or zeros, bets.bet_total or zeros
    bets = bets._replace(bet_round=set_at(stakes, i, stakes[i] + e.amount),
                         bet_total=set_at(totals, i, totals[i] + e.amount),
                         bet_turn=(i + 1) % len(deal.order), bet_acted=(*bets.bet_acted, e.player))
    moved = deal._replace(awaiting=(), deadline=None)
    if e.action in ("bet", "raise"):
        bets = bets._replace(bet_acted=(e.player,),               # everyone else must act on it again
                             raises=bets.raises + (1 if e.action == "raise" else 0))
    elif e.action == "fold":
        moved = moved._replace(folded=(*deal.folded, e.player))
    return state._replace(deal=with_slot(moved, NAME, bets))


KIND = StepKind(
    name=NAME,
    schema={"unit": Param((int,), 0), "raises": Param((int,), RAISES)},
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.BetTurnOpened: fold_opened, ev.BetMade: fold_made},
    commands={cmd.Bet: (check_bet, bet)},
    offers=offers,
    expire=expire,
    view=view,
    slot=BettingSlot,
)
