"""declare: every eligible player chooses, in turn (G2-08) or all at once, sealed (SIM-01..05).

``compulsory`` (CFR-01, the table's ``compulsory_first_round``): on the first deal of a game
every player is "in" at once (`ForcedIn`), with no declare to make;
``mode`` ``sequential`` | ``simultaneous``; ``choices`` what may be declared (``["in", "out"]``);
``who`` ``all`` (TSG-02: everyone dealt in, out players too) | ``in_players`` (TPO-04: only the
players still "in" declare again; the others stay "out"); ``dealer_forced_in`` (G2-10, D-G2-05:
sequential only, the dealer is "in" when everyone before him is "out").
``timeout``: the choice a turn or window not taken in time gives (null: the table's
``timeout_effect``, "out"); 43-03's High/Low/Both declare, which offers no "out", names one.
Each declare step starts with its own choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine.decider import commands as cmd
from tables.engine.decider import events as ev
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.liability import in_cost
from tables.engine.decider.state import DealState, TableState, copy_with, with_seats
from tables.engine.decider.steps.base import Ctx, StepKind, deadline, param, turn_fields
from tables.engine.decider.visibility import Viewer

NAME = "declare"
MODES = ("sequential", "simultaneous")


def start(deal: DealState, params: DeclareParams) -> DealState:
    """Fresh choices; with ``who=in_players`` only the "in" players declare: the others stay
    "out", and a player who folded in a betting round (D-BET, 43-07) stays "in" without declaring."""
    keep_in = params.who == "in_players"
    choices = tuple(
        None if not keep_in or (c == "in" and p not in deal.folded) else c if c == "in" else "out"
        for p, c in zip(deal.order, deal.choices, strict=True)
    )
    return deal._replace(
        choices=choices, sealed=False, forced=None, awaiting=(), deadline=None, timed_out=(), compulsory=()
    )


def done(ctx: Ctx[DeclareParams]) -> bool:
    return not ctx.deal.sealed and None not in ctx.deal.choices


def run(ctx: Ctx[DeclareParams]) -> list[ev.Event]:
    """Open the next turn or the window, force the dealer in (G2-10), or reveal (SIM-04)."""
    deal = ctx.deal
    if deal.awaiting:
        return []
    if ctx.params.compulsory and deal.opens_game and all(c is None for c in deal.choices):
        return [ev.ForcedIn(deal_no=deal.deal_no, players=list(deal.order), rule="CFR-01")]
    mode = ctx.params.mode
    if mode == "simultaneous":
        if deal.sealed:  # everyone has declared or timed out: reveal together (SIM-04)
            return [
                ev.DeclaresRevealed(
                    deal_no=deal.deal_no,
                    choices={p: c or "out" for p, c in zip(deal.order, deal.choices, strict=True)},
                )
            ]
        waiting = [p for p, c in zip(deal.order, deal.choices, strict=True) if c is None]
        return [ev.DeclareOpened(deal_no=deal.deal_no, mode=mode, players=waiting, deadline=deadline(ctx))]
    nxt = deal.choices.index(None)
    player = deal.order[nxt]
    others_out = all(c == "out" for c in deal.choices[:nxt])
    if nxt == len(deal.order) - 1 and others_out and ctx.params.dealer_forced_in:
        return [
            ev.Declared(deal_no=deal.deal_no, player=player, choice="in", sealed=False, forced=True)
        ]  # G2-10, D-G2-05
    return [ev.DeclareOpened(deal_no=deal.deal_no, mode=mode, players=[player], deadline=deadline(ctx))]


# --- the players' command: Declare (G2-08, SIM-01..05, 43-03) ----------------------------------------


def check_declare(ctx: Ctx[DeclareParams], c: cmd.Declare) -> None:
    state, player, choice = ctx.state, c.player_id, c.choice
    deal = check_acting(state, player, c.deal_no)
    if c.stage is not None and c.stage != deal.stage:
        raise DomainError(
            "wrong_stage", f"the open declare is of stage {deal.stage}, not {c.stage}", stage=deal.stage
        )
    if player not in deal.order:
        raise DomainError("not_your_turn", f"{player} is not dealt into deal {c.deal_no}")
    if deal.choice_of(player) is not None:
        raise DomainError("already_declared", f"{player} has declared", player=player)
    allowed = tuple(ctx.params.choices)
    if player not in deal.awaiting or not allowed:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to declare", player=player)
    if choice not in allowed:
        raise DomainError("invalid_choice", f"declare one of {list(allowed)}, not {choice!r}")
    if (
        choice == "in"
        and state.opts.get("stack_policy", "default") == "default"
        and state.stack_of(player) < in_cost(state)
    ):
        raise DomainError(
            "insufficient_stack",
            "the stack cannot cover a loss in this deal",
            needed=in_cost(state),
            stack=state.stack_of(player),
        )


def declare(ctx: Ctx[DeclareParams], c: cmd.Declare, checked: None) -> list[ev.Event]:
    """A declare is accepted until the timeout is recorded (ExpireDeclare), even a little late.
    In a sequential declare it opens the next player's turn, unless the dealer is forced in
    (G2-10) or nobody is left."""
    sealed = ctx.params.mode == "simultaneous"
    turn = None if sealed else _next_turn(ctx, c.player_id, c.choice)
    return [
        ev.Declared(
            deal_no=c.deal_no,
            player=c.player_id,
            choice=c.choice,
            sealed=sealed,
            forced=False,
            turn=turn,
            deadline=deadline(ctx) if turn is not None else None,
        )
    ]


def _next_turn(ctx: Ctx[DeclareParams], player: str, choice: str) -> str | None:
    """Whose sequential turn follows `player`'s `choice`: the next undeclared player, unless he is
    the dealer and everyone before him is out (G2-10: run forces him in)."""
    deal = ctx.deal
    choices = tuple(choice if p == player else c for p, c in zip(deal.order, deal.choices, strict=True))
    if None not in choices:
        return None
    nxt = choices.index(None)
    if nxt == len(deal.order) - 1 and ctx.params.dealer_forced_in and all(c == "out" for c in choices[:nxt]):
        return None
    return deal.order[nxt]


def expire(ctx: Ctx[DeclareParams]) -> list[ev.Event]:
    """The awaited players time out: the step's ``timeout`` choice (43-03's High/Low/Both declare
    has no "out"), else the table's ``timeout_effect``; option sit_out_after sits a player out
    after K timeouts in a row (never at a tournament table: he stays dealt in, timed out)."""
    deal, state = ctx.deal, ctx.state
    effect = str(ctx.params.timeout or state.opts.get("timeout_effect", "out"))
    timed_out = ev.DeclareTimedOut(deal_no=deal.deal_no, players=list(deal.awaiting), effect=effect)
    limit = state.opts.get("sit_out_after", 0)
    if not limit or state.tournament_id is not None:
        return [timed_out]
    seats = [state.seat_of(p) for p in deal.awaiting]
    return [
        timed_out,
        *(
            ev.PlayerSatOut(player=s.player, reason="timeouts", timeouts=s.timeouts + 1)
            for s in seats
            if s is not None and not s.sitting_out and s.timeouts + 1 >= limit
        ),
    ]


def offers(ctx: Ctx[DeclareParams], player: str) -> list[dict[str, Any]]:
    deal = ctx.deal
    if player not in deal.awaiting:
        return []
    choices = [c for c in ctx.params.choices if _allowed(ctx, cmd.Declare(player, deal.deal_no, c))]
    if not choices:
        return []
    return [
        {
            "action": "declare",
            "deal_no": deal.deal_no,
            "stage": deal.stage,
            "choices": choices,
            "in_cost": in_cost(ctx.state),
            **turn_fields(deal, ctx.now),
        }
    ]


def _allowed(ctx: Ctx[DeclareParams], c: cmd.Declare) -> bool:
    try:
        check_declare(ctx, c)
    except DomainError:
        return False
    return True


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """The open declare's mode (sequential or simultaneous)."""
    step = state.current_step() if not deal.over else None
    return {"mode": step.param("mode", state.opts) if step is not None and step.kind == NAME else None}


# --- folds ---------------------------------------------------------------------------------------------


def _set_choices(deal: DealState, choices: Mapping[str, str]) -> tuple[str | None, ...]:
    return tuple(choices.get(p, c) for p, c in zip(deal.order, deal.choices, strict=True))


def fold_opened(state: TableState, e: ev.DeclareOpened) -> TableState:
    return state.with_deal(awaiting=tuple(e.players), deadline=e.deadline, sealed=e.mode == "simultaneous")


def fold_declared(state: TableState, e: ev.Declared) -> TableState:
    deal = state.deal
    assert deal is not None
    if not e.forced:
        state = with_seats(state, {e.player}, timeouts=0)
    awaiting = (e.turn,) if e.turn is not None else tuple(p for p in deal.awaiting if p != e.player)
    return state.with_deal(
        choices=_set_choices(deal, {e.player: e.choice}),
        awaiting=awaiting,
        deadline=e.deadline if e.turn is not None else deal.deadline,
        forced=e.player if e.forced else deal.forced,
    )


def fold_forced_in(state: TableState, e: ev.ForcedIn) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(
        choices=_set_choices(deal, dict.fromkeys(e.players, "in")),
        compulsory=tuple(e.players),
        awaiting=(),
        deadline=None,
        sealed=False,
    )


def fold_timed_out(state: TableState, e: ev.DeclareTimedOut) -> TableState:
    deal = state.deal
    assert deal is not None

    state = state._replace(
        seats=tuple(
            copy_with(s, timeouts=s.timeouts + 1) if s.player in e.players else s for s in state.seats
        )
    )
    return state.with_deal(
        choices=_set_choices(deal, dict.fromkeys(e.players, e.effect)),
        awaiting=tuple(p for p in deal.awaiting if p not in e.players),
        timed_out=(*deal.timed_out, *e.players),
        deadline=None,
    )


def fold_revealed(state: TableState, e: ev.DeclaresRevealed) -> TableState:
    deal = state.deal
    assert deal is not None
    return state.with_deal(choices=_set_choices(deal, e.choices), sealed=False, awaiting=(), deadline=None)


@dataclass(frozen=True, slots=True)
class DeclareParams:
    """The declare step's parameters."""

    mode: str = param(choices=MODES)
    choices: tuple[str, ...] = ("in", "out")
    who: str = param("all", choices=("all", "in_players"))
    dealer_forced_in: bool = False
    compulsory: bool = False
    timeout: str | None = None


KIND = StepKind(
    name=NAME,
    params=DeclareParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={
        ev.DeclareOpened: fold_opened,
        ev.Declared: fold_declared,
        ev.ForcedIn: fold_forced_in,
        ev.DeclareTimedOut: fold_timed_out,
        ev.DeclaresRevealed: fold_revealed,
    },
    commands={cmd.Declare: (check_declare, declare)},
    actions=("declare",),
    offers=offers,
    expire=expire,
    view=view,
    declares=True,
)
