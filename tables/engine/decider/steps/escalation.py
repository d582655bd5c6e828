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
rule ``match_escalated`` reads `owed(deal)`. No chip moves in this step, so the pot a level
multiplies is the pot at the settlement too.

A turn not taken by its deadline (the timer's ExpireDeclare; an interpretation after D-BET's
"checks if he can, else folds"): the player accepts the current level when that costs him no more
than he had already accepted (his first turn at single), else he folds at the level he had
accepted. A timeout never raises what a player risks.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tables.engine.decider import events as ev
from tables.engine.decider.money import loser_cost, terms_of
from tables.engine.decider.state import DealState, TableState, is_in, set_at
from tables.engine.decider.steps.base import Ctx, Param, StepKind, deadline

KIND_NAME = "escalation"
LEVELS = ("single", "double", "triple")          # T38-03: keep, double, triple the pot
FOLD = "fold"                                    # T38-04


def _active(deal: DealState) -> list[int]:
    """Indices (in `order`) of the players still in the escalation: "in" and not folded."""
    return [i for i, (player, choice) in enumerate(zip(deal.order, deal.choices, strict=True))
            if is_in(choice) and player not in deal.folded]


def done(ctx: Ctx) -> bool:
    """Over when fewer than two remain, or each remaining player has had a turn and accepted the
    current level (Q-T38-02, D-T38-01)."""
    deal = ctx.deal
    active = _active(deal)
    return len(active) < 2 or all(deal.order[i] in deal.acted and deal.accepted[i] == deal.esc_level
                                  for i in active)


def next_turn(deal: DealState) -> int:
    """The next player to act, clockwise after the last one (the dealer's left first): the first
    remaining player who has not had a turn or has accepted less than the current level."""
    n = len(deal.order)
    active = set(_active(deal))
    for k in range(1, n + 1):
        i = (deal.esc_last + k) % n
        if i in active and (deal.order[i] not in deal.acted or deal.accepted[i] < deal.esc_level):
            return i
    raise AssertionError("escalation has nobody to act")        # done() is checked first


def run(ctx: Ctx) -> list[ev.Event]:
    deal = ctx.deal
    if deal.awaiting:
        return []
    i = next_turn(deal)
    return [ev.EscalationOpened(deal_no=deal.deal_no, player=deal.order[i], level=deal.esc_level,
                                accepted=deal.accepted[i], deadline=deadline(ctx))]


def expire(ctx: Ctx) -> list[ev.Event]:
    """The overdue player accepts when that costs him nothing more, else folds (see above)."""
    deal = ctx.deal
    names = tuple(ctx.params["levels"])
    out: list[ev.Event] = []
    for player in deal.awaiting:
        accepted = deal.accepted[deal.position(player)]
        if accepted == deal.esc_level:
            out.append(ev.Escalated(deal_no=deal.deal_no, player=player,
                                    action=names[accepted - 1], level=accepted, timed_out=True))
        else:
            out.append(ev.Escalated(deal_no=deal.deal_no, player=player, action=FOLD,
                                    level=accepted, timed_out=True))
    return out


def start(deal: DealState, params: Mapping[str, Any]) -> DealState:
    """Every "in" player has accepted the first level (EX-08's derived note)."""
    return deal._replace(esc_level=1, accepted=tuple(1 if is_in(c) else 0 for c in deal.choices),
                         acted=(), esc_last=-1, awaiting=(), deadline=None)


def fold_opened(state: TableState, e: ev.EscalationOpened) -> TableState:
    return state.with_deal(awaiting=(e.player,), deadline=e.deadline)


def fold_escalated(state: TableState, e: ev.Escalated) -> TableState:
    deal = state.deal
    assert deal is not None
    i = deal.position(e.player)
    moved = deal._replace(acted=(*deal.acted, e.player), esc_last=i, awaiting=(), deadline=None)
    if e.action == FOLD:                                        # T38-04: not shown, pays his level
        moved = moved._replace(folded=(*deal.folded, e.player))
    else:
        moved = moved._replace(accepted=set_at(deal.accepted, i, e.level),
                               esc_level=max(deal.esc_level, e.level))
    return state._replace(deal=moved)


# --- what the rest of the decider asks of it -------------------------------------------------------

def open_escalation(state: TableState) -> tuple[str, ...] | None:
    """The open escalation step's level names, or None when no escalation is the current step."""
    step = state.current_step()
    if step is None or step.kind != KIND_NAME:
        return None
    return tuple(step.param("levels", state.opts))


def most_levels(state: TableState) -> int:
    """D-GEN-06: the highest multiple of the pot an escalation of this program can reach (1 when
    the program has none), for what declaring "in" can cost."""
    most = 1
    for step in state.rules.program:
        if step.kind == KIND_NAME and step.enabled(state.opts):
            most = max(most, len(step.param("levels", state.opts)))
    return most


def level_cost(state: TableState, level: int) -> int:
    """What losing at `level` costs: `level` times the pot, capped like a match (max_loss)."""
    return loser_cost(level * state.pot, terms_of(state.opts))


def risks(state: TableState, player: str, names: Sequence[str]) -> dict[str, int]:
    """The amount each choice open to `player` risks: a level at or above the current one, what
    losing there costs; a fold, what he pays for certain (his accepted level, T38-04)."""
    deal = state.live
    assert deal is not None
    out = {name: level_cost(state, level) for level, name in enumerate(names, start=1)
           if level >= deal.esc_level}
    out[FOLD] = level_cost(state, deal.accepted[deal.position(player)])
    return out


def owed(deal: DealState) -> dict[str, int]:
    """T38-04/05: the level each player of the escalation pays unless he wins: a folder the
    highest he accepted, a remaining player the final level ({} when no escalation ran)."""
    if not deal.esc_level:
        return {}
    return {p: (deal.accepted[i] if p in deal.folded else deal.esc_level)
            for i, p in enumerate(deal.order) if is_in(deal.choices[i])}


KIND = StepKind(
    name=KIND_NAME,
    schema={"levels": Param((tuple, list), LEVELS)},
    run=run,
    interactive=True,
    done=done,
    start=start,
    folds={ev.EscalationOpened: fold_opened, ev.Escalated: fold_escalated},
    expire=expire,
)
