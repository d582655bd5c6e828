"""The read side (pure): what a viewer may see and do. Every read path goes through here (§2.6).

- `redact_event(event_type, data, viewer, *, deal_over)`: one event as this viewer may see it
  (`deal_is_over(state, data.get("deal_no"))` gives `deal_over` from the current state). The
  rule itself, for every kind of secret fact, lives in `visibility` and is re-exported here.
- `table_view(state, viewer, now)`: the table as JSON for this viewer, with his legal actions.
- `legal_actions(state, player_id, now)`: what the player may do next, built from the same
  `check_*` guards decide uses, so the API never offers what decide refuses.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tables.engine.decider.errors import DomainError
from tables.engine.decider.guards import buy_in_range
from tables.engine.decider.program import current_ctx
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import KINDS
from tables.engine.decider.table import check_leave, check_start_deal
from tables.engine.decider.visibility import ROLES, Viewer, redact_event, sees_cards, sees_ghost

__all__ = ["ROLES", "Viewer", "deal_is_over", "legal_actions", "phase", "redact_event", "table_view"]

_ANY_SEED = "00"  # legal_actions asks "could a deal start?"; the service draws the real seed


def deal_is_over(state: TableState, deal_no: int | None) -> bool:
    """What `redact_event` needs as `deal_over` for an event of deal `deal_no` (events without a
    deal_no are table events: over)."""
    if deal_no is None:
        return True
    live = state.live
    return live is None or deal_no < live.deal_no


def legal_actions(state: TableState, player_id: str | None, now: datetime) -> list[dict[str, Any]]:
    """The caller's possible next commands with amounts and deadlines (JSON)."""
    if state.status != "open" or player_id is None:
        return []
    seat = state.seat_of(player_id)
    cash = state.tournament_id is None  # the tournament seats and moves players
    if seat is None:
        return _sit_down_action(state) if cash else []
    actions: list[dict[str, Any]] = []
    if _allowed(check_start_deal, state, player_id, _ANY_SEED):
        actions.append({"action": "start_deal"})
    deal, ctx, step = state.live, current_ctx(state, now), state.current_step()
    if ctx is not None and step is not None:
        offered = step.definition.offers(ctx, player_id)  # what the current step offers
        assert all(a["action"] in step.definition.actions for a in offered), "an action the kind names"
        actions += offered
    if deal is None and cash:
        _, high = buy_in_range(state, seat.stack)
        if high is None or high >= 1:
            actions.append({"action": "top_up", "min": 1, "max": high})
    if seat.sitting_out:
        actions.append({"action": "sit_in"})
    elif cash:
        actions.append({"action": "sit_out"})
    if _allowed(check_leave, state, player_id):
        actions.append({"action": "leave", "cash_out": seat.stack})
    return actions


def _sit_down_action(state: TableState) -> list[dict[str, Any]]:
    if len(state.seats) >= state.opts["seats"]:
        return []
    low, high = buy_in_range(state)
    return [{"action": "sit_down", "min": low, "max": high}]


def _allowed(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except DomainError:
        return False
    return True


def table_view(
    state: TableState, viewer: Viewer, now: datetime, *, deal_over: bool = False
) -> dict[str, Any]:
    """The table for one viewer: seats, stacks, pot, reserve, the deal, legal actions."""
    deal = state.deal
    view: dict[str, Any] = {
        "table_id": state.table_id,
        "status": state.status,
        "variant": state.variant,
        "tournament_id": state.tournament_id,
        "unit": state.unit,
        "options": dict(state.options),
        "pot": state.pot,
        "reserve": state.reserve,
        "bets": state.bets,
        "deal_no": state.deal_no,
        "game_no": state.game_no,
        "dealer": deal.dealer if deal is not None else None,
        "phase": phase(state),
        "seats": [
            {
                "player": s.player,
                "seat": s.seat,
                "stack": s.stack,
                "legs": s.legs,
                "sitting_out": s.sitting_out,
                "timeouts": s.timeouts,
                "waiting": s.player in state.waiting,
            }
            for s in state.seats
        ],
        "deal": _deal_view(state, deal, viewer, deal_over) if deal is not None else None,
        "legal_actions": legal_actions(state, viewer.player_id, now),
    }
    return view


def phase(state: TableState) -> str:
    """new | closed | between_deals | pass (AO-06) | the kind of the live deal's current step.
    The one phase of a table, for the view and the projections alike."""
    if state.status != "open":
        return state.status
    live, step = state.live, state.current_step()
    if live is None:
        return "between_deals"
    if step is None:
        return "dealing"
    kind = step.definition
    return kind.phase(live) if kind.phase is not None else kind.name


def _deal_view(state: TableState, deal: DealState, viewer: Viewer, deal_over: bool) -> dict[str, Any]:
    over = deal.over or deal_over
    players = []
    for i, player in enumerate(deal.order):
        own = viewer.player_id == player
        visible = sees_cards(viewer, player, shown=deal.shown, compared=deal.compared, over=over)
        choice = deal.choices[i]
        if choice is not None and deal.sealed and not own:
            choice = "sealed"
        players.append(
            {
                "player": player,
                "cards": list(deal.hands[i]) if visible else None,
                "face_up": list(deal.up[i]) if deal.up else [],
                "card_count": len(deal.hands[i]),
                "declared": choice,
                "timed_out": player in deal.timed_out,
                "forced_in": deal.forced == player or player in deal.compulsory,  # CFR-01
                "folded": player in deal.folded,
            }
        )  # D-BET
    return {
        "deal_no": deal.deal_no,
        "game_no": deal.game_no,
        "dealer": deal.dealer,
        "over": over,
        "stage": deal.stage or None,
        "board": list(deal.board),
        "turn": list(deal.awaiting),
        "deadline": deal.deadline,
        "players": players,
        "ghost": _ghost_view(deal, viewer),
        **_kinds_views(state, deal, viewer),
        "sides": ({"high": list(deal.sides[0]), "low": list(deal.sides[1])} if deal.sides else None),  # 43-05
        "winners": list(deal.winners) if deal.outcome else [],
        "outcome": deal.outcome,
        "stacked": deal.stacked,
        "commitment": deal.commitment,
        "seed": deal.seed if over else None,
        "results": [
            {**r, "data": redact_event(r["type"], r["data"], viewer, deal_over=over)} for r in deal.results
        ],
    }


def _kinds_views(state: TableState, deal: DealState, viewer: Viewer) -> dict[str, Any]:
    """Each step kind's part of the deal view (its slot's public facts: the auction's standing
    bid, the escalation, the bets, the open declare's mode), every key always present."""
    views: dict[str, Any] = {}
    for kind in KINDS.values():
        views.update(kind.view(state, deal, viewer))
    return views


def _ghost_view(deal: DealState, viewer: Viewer) -> dict[str, Any] | None:
    """The ghost hand (GH-02): how many cards it holds; its cards once shown (GH-03), or to an
    auditor once the deal is over. None when no ghost was dealt."""
    if not deal.ghost:
        return None
    visible = sees_ghost(viewer, shown=deal.ghost_shown or deal.ghost_up, over=deal.over)
    return {
        "cards": list(deal.ghost) if visible else None,
        "card_count": len(deal.ghost),
        "shown": deal.ghost_shown,
        "won": deal.ghost_won,
        "face_up": deal.ghost_up,
    }
