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

Poker betting (Italian poker, D-IT-02, IT-07..11, IT-17), by parameters whose defaults are D-BET:
``who`` ``all`` (no declare: every player dealt in bets); ``opens`` ``jacks`` (IT-07..09: with no
bet open a player holding jacks or better, judged by ``ranking``, may ``open`` or check, anyone
else may only check; an unqualified open is ``cannot_open``; when everyone has checked the round
records NobodyOpened, IT-11, and the rest of the deal is skipped: the pot stays); ``multiple`` (2
in the second round: the round's unit is twice the table's, D-IT-02); ``first`` ``opener`` (IT-17:
the round starts with the opener, or the next active player to his left); ``limit`` ``pot``
(standard pot limit: a bet from the round's unit up to the pot, a raise by at least the round's
unit and the round's last full bet or raise, up to the pot after calling); ``all_in`` (table
stakes as in poker: a player may put in his whole stack; a call he cannot cover is all in for
what he has, a bet or raise he cannot cover in full is all in; a player with no chips left acts
no more; an all-in raise of less than a full raise counts as a raise but does not reopen the
betting to a player who acted after the last full one: he may only call or fold). The opener's
qualifying cards travel with his open (BetMade.openers, secret to others until the `pots` step
shows them, D-IT-03).

Side pots are accounts (D-IT-02, poker betting only): while a round runs its bets sit in the bets
account; when it is over, `BetsGathered` moves the called chips into the pots as standard poker
forms them (`side_pots`): the main pot is the pot account (its antes, any pot carried from a
passed deal, and what everyone still in matched), each side pot an account of its own
(`sidepot:<table>:<n>`). An uncalled bet stays in the bets account until the `pots` step returns
it and pays each pot from its own account.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ledger.accounts import Transfer, bets_account, pot_account, seat_account, side_pot_account
from tables.engine import RANKINGS, evaluate
from tables.engine.cards import parse_card
from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.state import DealState, TableState, set_at
from tables.engine.decider.steps.base import (
    Ctx,
    StepKind,
    deadline,
    param,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class BettingSlot(NamedTuple):
    """The deal's bets, aligned with `order`: each player's stake in the current round and in the
    whole deal; the raises of the round (after its bet), who has acted since the round's last bet
    or raise, and the index in `order` from which the next turn is sought; in poker betting
    (Italian poker) who opened, on what, and whether nobody did; where each player stood when he
    last acted and the size of the last full raise (who may raise again after an all-in for
    less), and which round this is."""

    bet_round: tuple[int, ...] = ()
    bet_total: tuple[int, ...] = ()
    raises: int = 0
    bet_acted: tuple[str, ...] = ()
    bet_turn: int = 0
    opener: str | None = None  # IT-07: who opened the first round (poker betting)
    openers: tuple[str, ...] = ()  # D-IT-03: the cards that qualified him (secret)
    opener_hand: tuple[str, ...] = ()  # his hand when he opened (his discards are kept apart)
    no_open: bool = False  # IT-11: everyone checked; the deal is passed
    # poker betting only (all_in; empty in D-BET's rounds):
    acted_at: tuple[int, ...] = ()  # aligned with order: the round's highest stake when each last
    # acted (-1: not yet); a short all-in raise reopens the betting to nobody who acted after it
    full_raise: int = 0  # the round's last full bet or raise, in chips above the stake it raised
    round_no: int = 0  # the betting rounds started in the deal (1: before the draw, 2: after)


NAME = "betting"
ACTIONS = ("check", "bet", "open", "call", "raise", "fold")
RAISES = 3  # D-BET
OPENING = ("bet", "open")  # the round's first bet (IT-07: "open")
# IT-07: what holding "jacks or better" means: these categories, a pair only of jacks or higher.
_OPENING_CATEGORIES = frozenset(
    {
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "five_of_a_kind",
    }
)
_JACK = 11


_EMPTY = BettingSlot()


def betting_of(deal: DealState) -> BettingSlot:
    return slot_of(deal, NAME, _EMPTY)


def contenders(deal: DealState, who: str = "in_players") -> tuple[str, ...]:
    """The players still in the betting (not folded), from the dealer's left: the "in" players,
    or (``who`` ``all``, Italian poker) everyone dealt in."""
    players = deal.order if who == "all" else deal.in_players()
    return tuple(p for p in players if p not in deal.folded)


def opener_of(deal: DealState) -> str | None:
    """IT-07: who opened the first round (None: nobody, or no such round)."""
    return betting_of(deal).opener


def passed(deal: DealState) -> bool:
    """IT-11: nobody opened; the rest of the deal is skipped and the pot stays."""
    return betting_of(deal).no_open


def kept_apart(deal: DealState) -> tuple[str, ...]:
    """IT-16, D-IT-03: the opener's discards, kept apart (never reshuffled into the stock): the
    cards of his hand when he opened that he no longer holds."""
    bets = betting_of(deal)
    if bets.opener is None:
        return ()
    held = set(deal.hand_of(bets.opener))
    return tuple(card for card in bets.opener_hand if card not in held)


def openers(cards: Sequence[str], ranking: str, players: int) -> tuple[str, ...] | None:
    """IT-07: the cards of `cards` that make jacks or better (the pair of jacks or higher, both
    pairs, the set, or the whole made hand), or None when the hand cannot open."""
    options: dict[str, Any] = {"players": players} if "players" in RANKINGS[ranking].options else {}
    category = evaluate(list(cards), ranking, **options).category
    ranks = [parse_card(card).rank for card in cards]
    paired = tuple(card for card, rank in zip(cards, ranks, strict=True) if ranks.count(rank) >= 2)
    if category == "pair":
        return paired if parse_card(paired[0]).rank >= _JACK else None
    if category not in _OPENING_CATEGORIES:
        return None
    return paired if category in ("two_pair", "three_of_a_kind", "four_of_a_kind") else tuple(cards)


def high(deal: DealState) -> int:
    """The highest stake of this round (0: no bet open)."""
    return max(betting_of(deal).bet_round, default=0)


def to_call(deal: DealState, player: str) -> int:
    """What `player` must put in to match the highest stake of the round."""
    stakes = betting_of(deal).bet_round
    if not stakes:
        return 0
    return max(stakes) - stakes[deal.position(player)]


def unit_of(state: TableState, params: BettingParams) -> int:
    """The round's unit: the step's unit, or the table's ante (D-BET), times the round's
    `multiple` (D-IT-02: twice in Italian poker's second round); under fixed limit the size of
    every bet and raise, under pot limit the least bet and the least raise."""
    unit = int(params.unit) or int(state.opts.get("ante", 1))
    return unit * int(params.multiple)


def min_raise(state: TableState, deal: DealState, params: BettingParams) -> int:
    """The chips a full bet or raise adds to the highest stake: the round's unit; under pot limit
    at least the round's last full bet or raise as well (standard pot limit)."""
    unit = unit_of(state, params)
    return max(unit, betting_of(deal).full_raise) if params.limit == "pot" else unit


def table_chips(state: TableState) -> int:
    """The pot of pot limit before the caller's call: the pot, the side pots and the bets."""
    return state.pot + sum(state.side_pots) + state.bets


def reopened(state: TableState, deal: DealState, params: BettingParams, player: str) -> bool:
    """Poker betting: whether `player` may raise again: he has not acted in this round, or the
    highest stake has risen by a full raise since he did; an all-in raise of less than a full raise
    does not reopen the betting to him (several together may). Always true in D-BET's rounds."""
    acted = betting_of(deal).acted_at
    if not params.all_in or not acted:
        return True
    at = acted[deal.position(player)]
    return at < 0 or high(deal) - at >= min_raise(state, deal, params)


def amount_of(deal: DealState, player: str, action: str, unit: int) -> int:
    """The chips `action` moves from the player's seat into the bets account (fixed limit)."""
    if action == "call":
        return to_call(deal, player)
    if action in OPENING:
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


def can_open(state: TableState, params: BettingParams, player: str) -> bool:
    """IT-07, IT-08: the player holds jacks or better."""
    deal = state.live
    assert deal is not None
    return openers(deal.hand_of(player), params.ranking, len(deal.order)) is not None


def bet_ranges(state: TableState, params: BettingParams, player: str) -> dict[str, tuple[int, int]]:
    """The actions `player` may take now, each with the least and the most chips it may move
    (equal under fixed limit). The caller has checked it is his turn."""
    deal = state.live
    assert deal is not None
    unit, owed, jacks = unit_of(state, params), to_call(deal, player), params.opens == "jacks"
    pot_limit, pot = params.limit == "pot", table_chips(state)
    wanted: dict[str, tuple[int, int]] = {}
    if high(deal) == 0:
        wanted["check"] = (0, 0)
        opening = "open" if jacks else "bet"
        if not jacks or can_open(state, params, player):
            wanted[opening] = (unit, max(unit, pot) if pot_limit else unit)
        if not jacks:
            wanted["fold"] = (0, 0)
    else:
        wanted["call" if owed else "check"] = (owed, owed)
        wanted["fold"] = (0, 0)
        if betting_of(deal).raises < params.raises and reopened(state, deal, params, player):
            step = min_raise(state, deal, params)
            least = owed + step
            wanted["raise"] = (least, owed + max(step, pot + owed) if pot_limit else least)
    if params.all_in:
        return _all_in_ranges(wanted, state.stack_of(player), owed)
    free = free_chips(state, player)
    return {
        action: (low, high_ if free is None else min(high_, free))
        for action, (low, high_) in wanted.items()
        if free is None or low <= max(free, 0)
    }


def _all_in_ranges(wanted: dict[str, tuple[int, int]], stack: int, owed: int) -> dict[str, tuple[int, int]]:
    """Table stakes as in poker (D-IT-02): what the stack cannot cover is played all in for the
    stack: a short call, a short bet, a short raise (above the call)."""
    out: dict[str, tuple[int, int]] = {}
    for action, (low, high_) in wanted.items():
        if low <= stack:
            out[action] = (low, min(high_, stack))
        elif (action == "call" and stack > 0) or (action != "call" and stack > owed):
            out[action] = (stack, stack)
    return out


def betting_choices(state: TableState, params: BettingParams, player: str) -> dict[str, int]:
    """The actions `player` may take now, each with the (least) chips it moves."""
    return {action: low for action, (low, _) in bet_ranges(state, params, player).items()}


def current(state: TableState) -> BettingParams | None:
    """The open betting step's parameters, or None when no betting round is current."""
    step = state.current_step()
    if step is None or step.kind != NAME:
        return None
    params: BettingParams = step.resolved(state.opts)
    return params


def all_in(state: TableState, params: BettingParams, player: str) -> bool:
    """Under poker table stakes a player with no chips left acts no more (his pots are side pots)."""
    return bool(params.all_in) and state.stack_of(player) <= 0


def _owes_action(deal: DealState, player: str) -> bool:
    return player not in betting_of(deal).bet_acted or to_call(deal, player) > 0


def _to_act(ctx: Ctx[BettingParams]) -> list[str]:
    """The players still in the betting who must act before the round is over."""
    deal, params = ctx.deal, ctx.params
    left = contenders(deal, params.who)
    acting = [p for p in left if not all_in(ctx.state, params, p)]
    opened = high(deal) > 0 or betting_of(deal).opener is not None or params.opens != "jacks"
    if opened and len(acting) <= 1 and not any(to_call(deal, p) for p in acting):
        return []  # nobody left to bet against: the rest are all in
    return [p for p in acting if _owes_action(deal, p)]


def _unopened(ctx: Ctx[BettingParams]) -> bool:
    """IT-11: a round that must be opened with jacks or better, over with nobody opening."""
    bets = betting_of(ctx.deal)
    return ctx.params.opens == "jacks" and bets.opener is None and not bets.no_open


def _over(ctx: Ctx[BettingParams]) -> bool:
    """Over when fewer than two are left in the betting, or each has acted and matched (or is
    all in); IT-11: a round nobody opened is over once NobodyOpened says so."""
    deal = ctx.deal
    if betting_of(deal).no_open:
        return True
    if len(contenders(deal, ctx.params.who)) < 2:
        return True
    return not _to_act(ctx) and not _unopened(ctx)


def done(ctx: Ctx[BettingParams]) -> bool:
    """The round is over and, in poker betting, its bets are gathered into the pots."""
    return _over(ctx) and not (ctx.params.all_in and gather_moves(ctx.state, ctx.deal))


def run(ctx: Ctx[BettingParams]) -> list[ev.Event]:
    """Open the next turn, clockwise from the last player to act (the dealer's left first, or the
    opener, IT-17); IT-11: nobody opened, the deal is passed and the pot stays; poker betting: a
    round over gathers its bets into the pots (D-IT-02)."""
    deal = ctx.deal
    if _over(ctx):
        return gathered(ctx)
    if deal.awaiting:
        return []
    bets = betting_of(deal)
    n, owing = len(deal.order), set(_to_act(ctx))
    for offset in range(n):
        player = deal.order[(bets.bet_turn + offset) % n]
        if player in owing:
            return [
                ev.BetTurnOpened(
                    deal_no=deal.deal_no,
                    player=player,
                    to_call=to_call(deal, player),
                    unit=unit_of(ctx.state, ctx.params),
                    raises=bets.raises,
                    deadline=deadline(ctx),
                )
            ]
    if _unopened(ctx):
        return [ev.NobodyOpened(deal_no=deal.deal_no, pot=ctx.state.pot)]
    return []


def bet_events(
    state: TableState,
    player: str,
    action: str,
    amount: int,
    *,
    timed_out: bool = False,
    params: BettingParams | None = None,
) -> list[ev.Event]:
    """The player's action as a BetMade, with the transfer of his chips to the bets account;
    an open carries the cards that qualified it (D-IT-03), a stake of the whole stack is all in."""
    table = state.table_id
    transfers = (
        [Transfer(seat_account(table, player), bets_account(table), amount, action)] if amount > 0 else []
    )
    deal = state.live
    shown = None
    if action == "open" and params is not None and deal is not None:
        shown = list(openers(deal.hand_of(player), params.ranking, len(deal.order)) or ())
    went_all_in = bool(params and params.all_in and amount > 0 and amount >= state.stack_of(player))
    return [
        ev.BetMade(
            deal_no=state.deal_no,
            player=player,
            action=action,
            amount=amount,
            timed_out=timed_out,
            transfers=transfers,
            all_in=went_all_in,
            openers=shown,
        )
    ]


def expire(ctx: Ctx[BettingParams]) -> list[ev.Event]:
    """D-BET, D-IT-02: a player whose turn expired checks if he can, else folds."""
    deal = ctx.deal
    return [
        event
        for player in deal.awaiting
        for event in bet_events(
            ctx.state, player, "fold" if to_call(deal, player) else "check", 0, timed_out=True
        )
    ]


# --- the players' command: Bet (D-BET, D-IT-02) -----------------------------------------------------


def check_bet(ctx: Ctx[BettingParams], c: cmd.Bet) -> int:
    """D-BET: it is the player's turn in the betting round and the round offers `action` now
    (fixed limit or pot limit, at most `raises` raises, within his stack by D-GEN-06 or all in);
    `amount`, if given, is the chips the action moves. Returns those chips."""
    state, player, action, params = ctx.state, c.player_id, c.action, ctx.params
    deal = check_acting(state, player, c.deal_no)
    if player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to bet", player=player)
    if action not in ACTIONS:
        raise DomainError("invalid_choice", f"bet one of {list(ACTIONS)}, not {action!r}")
    offered = bet_ranges(state, params, player)
    if action not in offered:
        _refuse_bet(state, params, player, action)
    low, most = offered[action]
    if c.amount is not None and not low <= c.amount <= most:
        size = f"{low}" if low == most else f"{low} to {most}"
        raise DomainError(
            "invalid_amount",
            f"{action} moves {size} chips, not {c.amount!r} ({params.limit} limit)",
            action=action,
            amount=low,
            most=most,
        )
    return low if c.amount is None else c.amount


def _refuse_bet(state: TableState, params: BettingParams, player: str, action: str) -> None:
    """Why the round does not offer `action`: the raise cap, the openers, the stack, or the
    situation."""
    deal = state.live
    assert deal is not None
    owed, unit, raises = to_call(deal, player), unit_of(state, params), betting_of(deal).raises
    opened, jacks = high(deal) > 0, params.opens == "jacks"
    if action == "raise" and opened and raises >= params.raises:
        raise DomainError("raise_limit", f"at most {params.raises} raises per round (D-BET)", raises=raises)
    if action == "open" and jacks and not opened and not can_open(state, params, player):
        raise DomainError("cannot_open", "opening needs jacks or better (IT-07, IT-08)")
    fits = {
        "check": owed == 0,
        "bet": not opened and not jacks,
        "open": not opened and jacks,
        "call": owed > 0,
        "raise": opened,
        "fold": opened or not jacks,
    }
    if action == "raise" and opened and not reopened(state, deal, params, player):
        raise DomainError(
            "bet_not_allowed",
            "an all-in for less than a full raise does not reopen the betting: call or fold (D-IT-02)",
            action=action,
            to_call=owed,
            allowed=sorted(betting_choices(state, params, player)),
        )
    if fits.get(action, True):
        needed = amount_of(deal, player, action, unit)
        raise DomainError(
            "insufficient_stack",
            "the stack cannot cover this bet beside the pot match it is liable for (D-GEN-06)",
            needed=needed,
            available=free_chips(state, player),
        )
    reason = "a bet is open" if opened else "no bet is open"
    raise DomainError(
        "bet_not_allowed",
        f"cannot {action}: {reason}",
        action=action,
        to_call=owed,
        allowed=sorted(betting_choices(state, params, player)),
    )


def bet(ctx: Ctx[BettingParams], c: cmd.Bet, chips: int) -> list[ev.Event]:
    """A bet is accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    return bet_events(ctx.state, c.player_id, c.action, chips, params=ctx.params)


def offers(ctx: Ctx[BettingParams], player: str) -> list[dict[str, Any]]:
    """D-BET: the player's turn in the betting round: each action he may take with the chips it
    moves (`amounts`; under pot limit the least, and `most` the most), what he must call, the
    bet/raise size and the raises left."""
    deal, params = ctx.deal, ctx.params
    if player not in deal.awaiting:
        return []
    ranges = bet_ranges(ctx.state, params, player)
    offer = {
        "action": "bet",
        "deal_no": deal.deal_no,
        "choices": [a for a in ACTIONS if a in ranges],
        "amounts": {action: low for action, (low, _) in ranges.items()},
        "to_call": to_call(deal, player),
        "unit": unit_of(ctx.state, params),
        "raises_left": max(params.raises - betting_of(deal).raises, 0),
        **turn_fields(deal, ctx.now),
    }
    if params.limit == "pot" or params.all_in:
        offer["most"] = {action: most for action, (_, most) in ranges.items()}
        offer["limit"] = params.limit
    return [offer]


# --- side pots (D-IT-02: as in standard poker) ----------------------------------------------------------


def uncalled(deal: DealState) -> tuple[str, int] | None:
    """The part of the largest stake nobody matched: (its bettor, the chips), returned to him."""
    totals = list(zip(deal.order, betting_of(deal).bet_total or (0,) * len(deal.order), strict=True))
    ranked = sorted(totals, key=lambda item: -item[1])
    if len(ranked) < 2 or ranked[0][1] <= ranked[1][1]:
        return None
    return ranked[0][0], ranked[0][1] - ranked[1][1]


def before_betting(state: TableState, deal: DealState) -> int:
    """The main pot's chips that no bet of the deal put there: its antes and any pot carried from
    a passed deal (IT-11). Every chip bet is in the bets account or a pot until the award."""
    staked = sum(betting_of(deal).bet_total)
    return state.pot + sum(state.side_pots) + state.bets - staked


def pot_account_of(table: str, number: int) -> str:
    """Pot 0 is the pot account; side pot n its own account (D-IT-02)."""
    return pot_account(table) if number == 0 else side_pot_account(table, number)


def side_pots(state: TableState, deal: DealState, who: str = "all") -> list[dict[str, Any]]:
    """The pots as standard poker forms them from the deal's stakes (the uncalled part left out):
    the main pot (the pot's chips before the betting, the antes and what every player still in
    matched) and a side pot for each larger stake an all-in player could not match, each with its
    account, its contributors and each one's chips in it (`contributions`: bets only; the main
    pot's other chips are `before_betting`), and the players still in who may win it
    (`eligible`), from the dealer's left."""
    order = deal.order
    totals = dict(zip(order, betting_of(deal).bet_total or (0,) * len(order), strict=True))
    back = uncalled(deal)
    if back is not None:
        totals[back[0]] -= back[1]
    live = contenders(deal, who)
    levels = sorted({totals[p] for p in live}) or [0]
    carried = before_betting(state, deal)
    pots: list[dict[str, Any]] = []
    below = 0
    for n, level in enumerate(levels):
        layer = {p: min(t, level) - min(t, below) for p, t in totals.items()}
        if n and not any(layer.values()):
            continue
        pots.append(
            {
                "pot": len(pots),
                "account": pot_account_of(state.table_id, len(pots)),
                "amount": sum(layer.values()) + (carried if n == 0 else 0),
                "before_betting": carried if n == 0 else 0,
                "contributors": [p for p in order if layer[p] > 0 or n == 0],
                "contributions": {p: layer[p] for p in order if layer[p] > 0},
                "eligible": [p for p in live if totals[p] >= level],
            }
        )
        below = level
    rest = {p: t - below for p, t in totals.items() if t > below}  # folders' chips above every live stake
    if rest:
        top = pots[-1]
        top["amount"] += sum(rest.values())
        top["contributors"] = [p for p in order if p in top["contributors"] or p in rest]
        top["contributions"] = {
            p: top["contributions"].get(p, 0) + rest.get(p, 0)
            for p in order
            if p in top["contributions"] or p in rest
        }
    return pots


def held(state: TableState, deal: DealState) -> dict[int, int]:
    """The chips of the deal's bets each pot account holds now, by pot number."""
    sides = dict(enumerate(state.side_pots, start=1))
    staked = sum(betting_of(deal).bet_total)
    return {0: staked - state.bets - sum(sides.values()), **sides}


def gather_moves(state: TableState, deal: DealState) -> list[Transfer]:
    """D-IT-02: the transfers that bring every pot account to its pot's share of the stakes, from
    the bets account (only the uncalled part stays there); none once the round's bets are in."""
    table, bets = state.table_id, bets_account(state.table_id)
    target = {pot["pot"]: sum(pot["contributions"].values()) for pot in side_pots(state, deal)}
    now = held(state, deal)
    out = [
        Transfer(pot_account_of(table, n), bets, chips - target.get(n, 0), "regathered")
        for n, chips in now.items()
        if chips > target.get(n, 0)
    ]  # a pot formed differently gives back first (never seen: pots only grow)
    into = [
        Transfer(bets, pot_account_of(table, n), chips - now.get(n, 0), "gathered")
        for n, chips in target.items()
        if chips > now.get(n, 0)
    ]
    return out + into


def gathered(ctx: Ctx[BettingParams]) -> list[ev.Event]:
    """The round's bets into the pots (D-IT-02), once it is over; nothing to gather: []."""
    state, deal = ctx.state, ctx.deal
    moves = gather_moves(state, deal) if ctx.params.all_in else []
    if not moves:
        return []
    pots = side_pots(state, deal)
    return [
        ev.BetsGathered(
            deal_no=deal.deal_no,
            round=betting_of(deal).round_no,
            pots=pots,
            transfers=list(moves),
        )
    ]


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """D-BET: the deal's bets (public): the bets account, each player's stake this round and in
    the deal, the raises and who folded; in poker betting also who opened (IT-07), whether the
    deal was passed (IT-11), who is all in and the pots with their contributors. None when the
    deal has no betting."""
    bets = betting_of(deal)
    if not bets.bet_total:
        return {"betting": None}
    params = current(state)
    betting: dict[str, Any] = {
        "total": state.bets,
        "stakes": dict(zip(deal.order, bets.bet_round, strict=True)),
        "bets": dict(zip(deal.order, bets.bet_total, strict=True)),
        "high": high(deal),
        "raises": bets.raises,
        "unit": unit_of(state, params) if params is not None else None,
        "folded": list(deal.folded),
        "open": params is not None,
    }
    if _poker_params(state):
        betting.update(
            {
                "opener": bets.opener,
                "passed": bets.no_open,
                "round": int(params.multiple) if params is not None else None,
                "limit": state.opts.get("limit", "fixed"),
                "all_in": [p for p in deal.order if state.stack_of(p) <= 0 and p not in deal.folded],
                "to_call": _to_call_view(state, deal, params),
                "pots": None if deal.over else _pots_view(state, deal),
            }
        )
    return {"betting": betting}


def _to_call_view(state: TableState, deal: DealState, params: BettingParams | None) -> dict[str, int]:
    """While a round is open: what each player still betting must put in to call (public)."""
    if params is None:
        return {}
    return {p: to_call(deal, p) for p in contenders(deal, params.who) if not all_in(state, params, p)}


def _pots_view(state: TableState, deal: DealState) -> list[dict[str, Any]]:
    """The pots as formed from the stakes so far, each with the chips its account holds now
    (`held`: the bets of a round still open are not gathered yet)."""
    now = held(state, deal)
    return [{**pot, "held": now.get(pot["pot"], 0) + pot["before_betting"]} for pot in side_pots(state, deal)]


def _poker_params(state: TableState) -> bool:
    """Whether the table's betting is poker betting with all-ins (its pots are side pots)."""
    game = state.game
    return game is not None and any(s.kind == NAME and s.resolved(state.opts).all_in for s in game.program)


# --- folds ---------------------------------------------------------------------------------------------


def start(deal: DealState, params: BettingParams) -> DealState:
    """A new round: fresh stakes and raises; the deal's totals and the opener stay; IT-17: the
    second round starts with the opener (the next player still in to his left if he folded)."""
    zeros = (0,) * len(deal.order)
    prev = betting_of(deal)
    turn = deal.position(prev.opener) if params.first == "opener" and prev.opener else 0
    slot = prev._replace(
        bet_round=zeros, bet_total=prev.bet_total or zeros, raises=0, bet_acted=(), bet_turn=turn
    )
    if params.all_in:  # poker: nobody has acted in the new round
        slot = slot._replace(acted_at=(-1,) * len(deal.order), full_raise=0, round_no=prev.round_no + 1)
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
    bets = bets._replace(
        bet_round=set_at(stakes, i, stakes[i] + e.amount),
        bet_total=set_at(totals, i, totals[i] + e.amount),
        bet_turn=(i + 1) % len(deal.order),
        bet_acted=(*bets.bet_acted, e.player),
    )
    params = current(state)
    if params is not None and params.all_in:
        bets = _poker_acted(state, deal, params, bets, i, e.action)
    moved = deal._replace(awaiting=(), deadline=None)
    if e.action in (*OPENING, "raise"):
        bets = bets._replace(
            bet_acted=(e.player,),  # everyone else must act on it again
            raises=bets.raises + (1 if e.action == "raise" else 0),
        )
        if e.action == "open":  # IT-07, D-IT-03
            bets = bets._replace(
                opener=e.player, openers=tuple(e.openers or ()), opener_hand=deal.hand_of(e.player)
            )
    elif e.action == "fold":
        moved = moved._replace(folded=(*deal.folded, e.player))
    return state._replace(deal=with_slot(moved, NAME, bets))


def _poker_acted(
    state: TableState, deal: DealState, params: BettingParams, bets: BettingSlot, i: int, action: str
) -> BettingSlot:
    """Poker betting: where the player now stands (the round's highest stake after his action)
    and, if his bet or raise was a full one, its size (an all-in for less leaves it)."""
    before, now = high(deal), max(bets.bet_round)
    acted = set_at(bets.acted_at or (-1,) * len(deal.order), i, now)
    full = bets.full_raise
    if action in (*OPENING, "raise") and now - before >= min_raise(state, deal, params):
        full = now - before
    return bets._replace(acted_at=acted, full_raise=full)


def fold_nobody_opened(state: TableState, e: ev.NobodyOpened) -> TableState:
    """IT-11: the deal is passed; nothing more is played in it."""
    deal = state.deal
    assert deal is not None
    slot = betting_of(deal)._replace(no_open=True)
    return state._replace(
        deal=with_slot(deal._replace(outcome="no_open", awaiting=(), deadline=None), NAME, slot)
    )


@dataclass(frozen=True, slots=True)
class BettingParams:
    """The betting step's parameters."""

    unit: int = 0
    raises: int = RAISES
    who: str = param("in_players", choices=("in_players", "all"))  # Italian: all
    opens: str = param("any", choices=("any", "jacks"))  # IT-07..11
    ranking: str = param("poker", choices=tuple(RANKINGS))  # judges openers
    multiple: int = 1  # D-IT-02
    first: str = param("dealer_left", choices=("dealer_left", "opener"))  # IT-17
    limit: str = param("fixed", choices=("fixed", "pot"))  # D-IT-02
    all_in: bool = False


KIND = StepKind(
    name=NAME,
    params=BettingParams,  # D-IT-02
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.BetTurnOpened: fold_opened, ev.BetMade: fold_made, ev.NobodyOpened: fold_nobody_opened},
    commands={cmd.Bet: (check_bet, bet)},
    actions=("bet",),
    offers=offers,
    expire=expire,
    view=view,
    slot=BettingSlot,
)
