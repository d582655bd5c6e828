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

from tables.engine.decider.decide import (
    bid_range,
    bidding,
    buy_in_range,
    check_declare,
    check_escalate,
    check_exchange,
    check_leave,
    check_start_deal,
    declare_choices,
    in_cost,
)
from tables.engine.decider.errors import DomainError
from tables.engine.decider.program import declare_mode, parse_iso
from tables.engine.decider.state import DealState, TableState
from tables.engine.decider.steps import betting, escalation
from tables.engine.decider.steps.exchange import open_draw
from tables.engine.decider.visibility import ROLES, Viewer, redact_event, sees_cards, sees_ghost

__all__ = ["ROLES", "Viewer", "deal_is_over", "legal_actions", "phase", "redact_event", "table_view"]

_ANY_SEED = "00"          # legal_actions asks "could a deal start?"; the service draws the real seed


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
    cash = state.tournament_id is None          # issue 13: the tournament seats and moves players
    if seat is None:
        return _sit_down_action(state) if cash else []
    actions: list[dict[str, Any]] = []
    if _allowed(check_start_deal, state, player_id, _ANY_SEED):
        actions.append({"action": "start_deal"})
    deal = state.live
    most = open_draw(state)
    if deal is not None and deal.passing and player_id in deal.awaiting:      # AO-06, EXC-03
        action: dict[str, Any] = {"action": "pass", "deal_no": deal.deal_no,
                                  "choices": list(deal.hand_of(player_id)), "deadline": deal.deadline,
                                  "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)}
        step = state.current_step()
        if step is not None and step.kind == "exchange":
            action["direction"] = "left"                                    # EXC-03
        actions.append(action)
    elif (deal is not None and most is not None                                # EXC-01/02
          and _allowed(check_exchange, state, player_id, deal.deal_no, [])):
        actions.append({"action": "exchange", "deal_no": deal.deal_no, "min": 0, "max": most,
                        "choices": list(deal.hand_of(player_id)), "deadline": deal.deadline,
                        "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)})
    elif deal is not None and player_id in deal.awaiting and bidding(state):     # MCA-04
        low, high = bid_range(state, player_id)
        actions.append({"action": "bid", "deal_no": deal.deal_no, "min": low, "max": high,
                        "high_bid": deal.high_bid, "high_bidder": deal.high_bidder,
                        "deadline": deal.deadline,
                        "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)})
    elif deal is not None and player_id in deal.awaiting and escalation.open_escalation(state):
        actions += _escalation_actions(state, player_id, now)             # T38-03/04
    elif deal is not None and player_id in deal.awaiting and betting.current(state) is not None:
        actions.append(_bet_action(state, deal, player_id, now))                  # D-BET
    elif deal is not None and player_id in deal.awaiting:
        choices = [c for c in declare_choices(state)
                   if _allowed(check_declare, state, player_id, deal.deal_no, c)]
        if choices:
            actions.append({"action": "declare", "deal_no": deal.deal_no, "stage": deal.stage,
                            "choices": choices, "in_cost": in_cost(state), "deadline": deal.deadline,
                            "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)})
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


# --- Thirty Eight's escalation (T38-03/04, D-T38-01) -----------------------------------------------

def _escalation_actions(state: TableState, player_id: str, now: datetime) -> list[dict[str, Any]]:
    """The escalate action: the levels he may name (accept the current one or raise) and fold,
    with what each risks in chips (`risks`: losing at that level; for fold, what he pays)."""
    deal = state.live
    names = escalation.open_escalation(state)
    assert deal is not None
    assert names is not None
    choices = [c for c in (*names, escalation.FOLD)
               if _allowed(check_escalate, state, player_id, deal.deal_no, c)]
    if not choices:
        return []
    risks = escalation.risks(state, player_id, names)
    return [{"action": "escalate", "deal_no": deal.deal_no, "choices": choices,
             "level": names[deal.esc_level - 1],
             "accepted": names[deal.accepted[deal.position(player_id)] - 1],
             "risks": {c: risks[c] for c in choices}, "deadline": deal.deadline,
             "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)}]


def _escalation_view(state: TableState, deal: DealState) -> dict[str, Any] | None:
    """The escalation once it has started (T38-03): the level, what it is worth, each player's
    accepted level and folds. Public: every answer is said aloud."""
    names = _escalation_names(state)
    if not deal.esc_level or names is None:
        return None
    return {"level": names[deal.esc_level - 1], "multiple": deal.esc_level,
            "value": deal.esc_level * state.pot if deal.outcome is None else None,
            "players": [{"player": p, "accepted": names[deal.accepted[i] - 1] if deal.accepted[i] else None,
                         "folded": p in deal.folded}
                        for i, p in enumerate(deal.order) if deal.accepted[i]]}


def _escalation_names(state: TableState) -> tuple[str, ...] | None:
    for step in state.rules.program:
        if step.kind == escalation.KIND_NAME:
            return tuple(step.param("levels", state.opts))
    return None


def _bet_action(state: TableState, deal: DealState, player_id: str, now: datetime) -> dict[str, Any]:
    """D-BET: the player's turn in the betting round: each action he may take with the chips it
    moves (`amounts`), what he must call, the bet/raise size and the raises left."""
    params = betting.current(state)
    assert params is not None
    amounts = betting.betting_choices(state, params, player_id)
    return {"action": "bet", "deal_no": deal.deal_no,
            "choices": [a for a in betting.ACTIONS if a in amounts], "amounts": amounts,
            "to_call": betting.to_call(deal, player_id), "unit": betting.unit_of(state, params),
            "raises_left": max(params["raises"] - deal.raises, 0),
            "deadline": deal.deadline,
            "overdue": deal.deadline is not None and now >= parse_iso(deal.deadline)}


def _betting_view(state: TableState, deal: DealState) -> dict[str, Any] | None:
    """D-BET: the deal's bets (public): the bets account, each player's stake this round and in
    the deal, the raises and who folded. None when the deal has no betting."""
    if not deal.bet_total:
        return None
    params = betting.current(state)
    return {"total": state.bets,
            "stakes": dict(zip(deal.order, deal.bet_round, strict=True)),
            "bets": dict(zip(deal.order, deal.bet_total, strict=True)),
            "high": betting.high(deal), "raises": deal.raises,
            "unit": betting.unit_of(state, params) if params is not None else None,
            "folded": list(deal.folded), "open": params is not None}


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


def table_view(state: TableState, viewer: Viewer, now: datetime, *,
               deal_over: bool = False) -> dict[str, Any]:
    """The table for one viewer: seats, stacks, pot, reserve, the deal, legal actions."""
    deal = state.deal
    view: dict[str, Any] = {
        "table_id": state.table_id, "status": state.status, "variant": state.variant,
        "tournament_id": state.tournament_id, "unit": state.unit,
        "options": dict(state.options), "pot": state.pot, "reserve": state.reserve,
        "bets": state.bets,
        "deal_no": state.deal_no, "game_no": state.game_no,
        "dealer": deal.dealer if deal is not None else None,
        "phase": phase(state),
        "seats": [{"player": s.player, "seat": s.seat, "stack": s.stack, "legs": s.legs,
                   "sitting_out": s.sitting_out, "timeouts": s.timeouts,
                   "waiting": s.player in state.waiting} for s in state.seats],
        "deal": _deal_view(state, deal, viewer, deal_over) if deal is not None else None,
        "legal_actions": legal_actions(state, viewer.player_id, now),
    }
    return view


def phase(state: TableState) -> str:
    """new | closed | between_deals | pass (AO-06) | the kind of the live deal's current step.
    The one phase of a table, for the view and the projections alike."""
    if state.status != "open":
        return state.status
    live = state.live
    if live is None:
        return "between_deals"
    if live.passing:
        return "pass"
    step = state.current_step()
    return step.kind if step is not None else "dealing"


def _deal_view(state: TableState, deal: DealState, viewer: Viewer, deal_over: bool) -> dict[str, Any]:
    over = deal.over or deal_over
    players = []
    for i, player in enumerate(deal.order):
        own = viewer.player_id == player
        visible = sees_cards(viewer, player, shown=deal.shown, compared=deal.compared, over=over)
        choice = deal.choices[i]
        if choice is not None and deal.sealed and not own:
            choice = "sealed"
        players.append({"player": player, "cards": list(deal.hands[i]) if visible else None,
                        "face_up": list(deal.up[i]) if deal.up else [],
                        "card_count": len(deal.hands[i]), "declared": choice,
                        "timed_out": player in deal.timed_out,
                        "forced_in": deal.forced == player or player in deal.compulsory,   # CFR-01
                        "folded": player in deal.folded})                                  # D-BET
    return {
        "deal_no": deal.deal_no, "game_no": deal.game_no, "dealer": deal.dealer, "over": over,
        "stage": deal.stage or None, "board": list(deal.board),
        "mode": declare_mode(state) or None, "turn": list(deal.awaiting), "deadline": deal.deadline,
        "players": players, "ghost": _ghost_view(deal, viewer),
        "auction": ({"high_bid": deal.high_bid, "high_bidder": deal.high_bidder}
                    if bidding(state) and not over else None),
        "escalation": _escalation_view(state, deal),                      # T38-03
        "sides": ({"high": list(deal.sides[0]), "low": list(deal.sides[1])}
                  if deal.sides else None),                               # 43-05
        "betting": _betting_view(state, deal),                                            # D-BET
        "winners": list(deal.winners) if deal.outcome else [],
        "outcome": deal.outcome, "stacked": deal.stacked, "commitment": deal.commitment,
        "seed": deal.seed if over else None,
        "results": [{**r, "data": redact_event(r["type"], r["data"], viewer, deal_over=over)}
                    for r in deal.results],
    }


def _ghost_view(deal: DealState, viewer: Viewer) -> dict[str, Any] | None:
    """The ghost hand (GH-02): how many cards it holds; its cards once shown (GH-03), or to an
    auditor once the deal is over. None when no ghost was dealt."""
    if not deal.ghost:
        return None
    visible = sees_ghost(viewer, shown=deal.ghost_shown or deal.ghost_up, over=deal.over)
    return {"cards": list(deal.ghost) if visible else None, "card_count": len(deal.ghost),
            "shown": deal.ghost_shown, "won": deal.ghost_won, "face_up": deal.ghost_up}
