"""escalation: instead of betting, the "in" players raise the value of the pot step by step
(Thirty Eight: T38-03..05, EX-08, Q-T38-02, D-T38-01).

``levels`` names the levels in order (``["single", "double", "triple"]``): level k is k times the
pot as it stands when the step starts, and the last is the maximum (D-T38-01). Being "in" is
accepting the first level. Turns go clockwise among the "in" players from the dealer's left and
come round again (Q-T38-02, D-T38-01): on his turn a player accepts the current level, raises it
to any higher level, or folds. The step is over when every player who has not folded has had a
turn and has accepted the current level, or when only one has not folded. A player who said
single may raise later (EX-08 step 5); nobody may name a level below the current one.

A folder stays "in" for the settlement but is listed in `DealState.folded` (as a folder in D-BET's
betting), so he is not shown; he pays the highest level he had accepted (T38-04); the players who
remain show, the best hand takes the existing pot and the
others pay the final level; every payment forms the next pot (T38-05, D-T38-01): the settlement
rule ``match_escalated`` reads `owed(deal)` (the kind's `owes`). No chip moves in this step, so
the pot a level multiplies is the pot at the settlement too.

A turn not taken by its deadline (the timer's ExpireDeclare; an interpretation after D-BET's
"checks if he can, else folds"): the player accepts the current level when that costs him no more
than he had already accepted (his first turn at single), else he folds at the level he had
accepted. A timeout never raises what a player risks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tables.engine.decider import events as ev
from tables.engine.decider.commands import StepCommand
from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import check_acting
from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.state import DealState, TableState, is_in, set_at
from tables.engine.decider.steps.base import (
    Ctx,
    StepKind,
    deadline,
    slot_of,
    turn_fields,
    with_slot,
)
from tables.engine.decider.visibility import Viewer


class EscalationSlot(NamedTuple):
    """The pot's level now (a multiple of the pot; 0: no escalation ran), the highest level each
    player (aligned with `order`) accepted, who has had a turn, and the index in `order` of the
    last to act (-1: nobody yet)."""

    esc_level: int = 0
    accepted: tuple[int, ...] = ()
    acted: tuple[str, ...] = ()
    esc_last: int = -1


KIND_NAME = "escalation"
ACTION = "escalate"  # the legal action it offers; the command that answers it is Escalate
LEVELS = ("single", "double", "triple")  # T38-03: keep, double, triple the pot
FOLD = "fold"  # T38-04


_EMPTY = EscalationSlot()


def escalation_of(deal: DealState) -> EscalationSlot:
    return slot_of(deal, KIND_NAME, _EMPTY)


def _active(deal: DealState) -> list[int]:
    """Indices (in `order`) of the players still in the escalation: "in" and not folded."""
    return [
        i
        for i, (player, choice) in enumerate(zip(deal.order, deal.choices, strict=True))
        if is_in(choice) and player not in deal.folded
    ]


def done(ctx: Ctx[EscalationParams]) -> bool:
    """Over when fewer than two remain, or each remaining player has had a turn and accepted the
    current level (Q-T38-02, D-T38-01)."""
    deal = ctx.deal
    esc = escalation_of(deal)
    active = _active(deal)
    return len(active) < 2 or all(
        deal.order[i] in esc.acted and esc.accepted[i] == esc.esc_level for i in active
    )


def next_turn(deal: DealState) -> int:
    """The next player to act, clockwise after the last one (the dealer's left first): the first
    remaining player who has not had a turn or has accepted less than the current level."""
    n, esc = len(deal.order), escalation_of(deal)
    active = set(_active(deal))
    for k in range(1, n + 1):
        i = (esc.esc_last + k) % n
        if i in active and (deal.order[i] not in esc.acted or esc.accepted[i] < esc.esc_level):
            return i
    raise AssertionError("escalation has nobody to act")  # done() is checked first


def run(ctx: Ctx[EscalationParams]) -> list[ev.Event]:
    deal = ctx.deal
    if deal.awaiting:
        return []
    i, esc = next_turn(deal), escalation_of(deal)
    return [
        ev.EscalationOpened(
            deal_no=deal.deal_no,
            player=deal.order[i],
            level=esc.esc_level,
            accepted=esc.accepted[i],
            deadline=deadline(ctx),
        )
    ]


def expire(ctx: Ctx[EscalationParams]) -> list[ev.Event]:
    """The overdue player accepts when that costs him nothing more, else folds (see above)."""
    deal, esc = ctx.deal, escalation_of(ctx.deal)
    names = tuple(ctx.params.levels)
    out: list[ev.Event] = []
    for player in deal.awaiting:
        accepted = esc.accepted[deal.position(player)]
        if accepted == esc.esc_level:
            out.append(
                ev.Escalated(
                    deal_no=deal.deal_no,
                    player=player,
                    action=names[accepted - 1],
                    level=accepted,
                    timed_out=True,
                )
            )
        else:
            out.append(
                ev.Escalated(deal_no=deal.deal_no, player=player, action=FOLD, level=accepted, timed_out=True)
            )
    return out


# --- the players' command: Escalate (T38-03/04, D-T38-01) ----------------------------------------


@dataclass(frozen=True)
class Escalate(StepCommand):
    action: str  # T38-03/04: single | double | triple (accept or raise to it) | fold


def check_escalate(ctx: Ctx[EscalationParams], c: Escalate) -> int:
    """T38-03/04: the player's turn in the open escalation; `action` names a level at or above the
    pot's current one (accept or raise; the last level is the maximum) or folds. Returns the level
    he stands at after it (for a fold, the level he pays at)."""
    state, player, action = ctx.state, c.player_id, c.action
    deal = check_acting(state, player, c.deal_no)
    names, esc = tuple(ctx.params.levels), escalation_of(deal)
    if player not in deal.awaiting:
        raise DomainError("not_your_turn", f"it is not {player}'s turn to escalate", player=player)
    accepted = esc.accepted[deal.position(player)]
    if action == FOLD:
        return accepted
    if action not in names:
        raise DomainError(
            "invalid_choice",
            f"escalate to one of {list(names)} or fold, not {action!r}",
            choices=[*names, FOLD],
        )
    level = names.index(action) + 1
    if level < esc.esc_level:
        raise DomainError(
            "level_too_low",
            f"the pot stands at {names[esc.esc_level - 1]}: accept it, raise it or fold",
            level=names[esc.esc_level - 1],
        )
    cost = level_cost(state, level)
    if state.opts.get("stack_policy", "default") == "default" and state.stack_of(player) < cost:
        raise DomainError(
            "insufficient_stack",
            "the stack cannot cover a loss at this level",
            needed=cost,
            stack=state.stack_of(player),
        )
    return level


def escalate(ctx: Ctx[EscalationParams], c: Escalate, level: int) -> list[ev.Event]:
    """Accepted until the timeout is recorded (ExpireDeclare), like a declare."""
    return [ev.Escalated(deal_no=c.deal_no, player=c.player_id, action=c.action, level=level)]


def offers(ctx: Ctx[EscalationParams], player: str) -> list[dict[str, Any]]:
    """The escalate action: the levels he may name (accept the current one or raise) and fold,
    with what each risks in chips (`risks`: losing at that level; for fold, what he pays)."""
    deal, esc = ctx.deal, escalation_of(ctx.deal)
    if player not in deal.awaiting:
        return []
    names = tuple(ctx.params.levels)
    choices = [c for c in (*names, FOLD) if _allowed(ctx, Escalate(player, deal.deal_no, c))]
    if not choices:
        return []
    risk = risks(ctx.state, player, names)
    return [
        {
            "action": ACTION,
            "deal_no": deal.deal_no,
            "choices": choices,
            "level": names[esc.esc_level - 1],
            "accepted": names[esc.accepted[deal.position(player)] - 1],
            "risks": {c: risk[c] for c in choices},
            **turn_fields(deal, ctx.now),
        }
    ]


def _allowed(ctx: Ctx[EscalationParams], c: Escalate) -> bool:
    try:
        check_escalate(ctx, c)
    except DomainError:
        return False
    return True


def view(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """The escalation once it has started (T38-03): the level, what it is worth, each player's
    accepted level and folds. Public: every answer is said aloud."""
    esc = escalation_of(deal)
    names = _level_names(state)
    if not esc.esc_level or names is None:
        return {"escalation": None}
    return {
        "escalation": {
            "level": names[esc.esc_level - 1],
            "multiple": esc.esc_level,
            "value": esc.esc_level * state.pot if deal.outcome is None else None,
            "players": [
                {
                    "player": p,
                    "accepted": names[esc.accepted[i] - 1] if esc.accepted[i] else None,
                    "folded": p in deal.folded,
                }
                for i, p in enumerate(deal.order)
                if esc.accepted[i]
            ],
        }
    }


def _level_names(state: TableState) -> tuple[str, ...] | None:
    for step in state.rules.program:
        if step.kind == KIND_NAME:
            return tuple(step.param("levels", state.opts))
    return None


# --- folds ---------------------------------------------------------------------------------------------


def start(deal: DealState, params: EscalationParams) -> DealState:
    """Every "in" player has accepted the first level (EX-08's derived note)."""
    slot = EscalationSlot(esc_level=1, accepted=tuple(1 if is_in(c) else 0 for c in deal.choices))
    return with_slot(deal._replace(awaiting=(), deadline=None), KIND_NAME, slot)


def fold_opened(state: TableState, e: ev.EscalationOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_escalated(state: TableState, e: ev.Escalated) -> TableState:
    deal = state.deal
    assert deal is not None
    esc = escalation_of(deal)
    i = deal.position(e.player)
    esc = esc._replace(acted=(*esc.acted, e.player), esc_last=i)
    moved = deal._replace(awaiting=(), deadline=None)
    if e.action == FOLD:  # T38-04: not shown, pays his level
        moved = moved._replace(folded=(*deal.folded, e.player))
    else:
        esc = esc._replace(accepted=set_at(esc.accepted, i, e.level), esc_level=max(esc.esc_level, e.level))
    return state._replace(deal=with_slot(moved, KIND_NAME, esc))


# --- what the rest of the decider asks of it -------------------------------------------------------


def pot_multiple(params: EscalationParams) -> int:
    """D-GEN-06: the highest multiple of the pot this escalation can reach (what "in" can cost)."""
    return len(params.levels)


def level_cost(state: TableState, level: int) -> int:
    """What losing at `level` costs: `level` times the pot, capped like a match (max_loss)."""
    return loser_cost(level * state.pot, terms_of(state.opts))


def risks(state: TableState, player: str, names: Sequence[str]) -> dict[str, int]:
    """The amount each choice open to `player` risks: a level at or above the current one, what
    losing there costs; a fold, what he pays for certain (his accepted level, T38-04)."""
    deal = state.live
    assert deal is not None
    esc = escalation_of(deal)
    out = {
        name: level_cost(state, level) for level, name in enumerate(names, start=1) if level >= esc.esc_level
    }
    out[FOLD] = level_cost(state, esc.accepted[deal.position(player)])
    return out


def owed(deal: DealState) -> dict[str, int]:
    """T38-04/05: the level each player of the escalation pays unless he wins: a folder the
    highest he accepted, a remaining player the final level ({} when no escalation ran)."""
    esc = escalation_of(deal)
    if not esc.esc_level:
        return {}
    return {
        p: (esc.accepted[i] if p in deal.folded else esc.esc_level)
        for i, p in enumerate(deal.order)
        if is_in(deal.choices[i])
    }


@dataclass(frozen=True, slots=True)
class EscalationParams:
    """The escalation step's parameters."""

    levels: tuple[str, ...] = LEVELS


KIND = StepKind(
    name=KIND_NAME,
    params=EscalationParams,
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.EscalationOpened: fold_opened, ev.Escalated: fold_escalated},
    commands={Escalate: (check_escalate, escalate)},
    actions=(ACTION,),
    offers=offers,
    expire=expire,
    view=view,
    pot_multiple=pot_multiple,
    owes=owed,
    slot=EscalationSlot,
)
