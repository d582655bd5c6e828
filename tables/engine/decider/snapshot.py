"""JSON snapshots of the whole decider state (DESIGN §2.5): a snapshot plus the fold of the
later events equals the full fold. Server-side only: a snapshot may hold a live seed and hole
cards. The variant is stored by name and looked up again on load."""

from __future__ import annotations

from typing import Any

from tables.engine.decider.state import DealState, Seat, TableState
from tables.engine.decider.steps import KINDS
from tables.engine.decider.variants import get_variant


def state_to_json(state: TableState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "status": state.status,
        "table_id": state.table_id,
        "variant": state.variant,
        "options": dict(state.options),
        "stacked_decks": [list(d) for d in state.stacked_decks] if state.stacked_decks else None,
        "seats": [list(s) for s in state.seats],
        "pot": state.pot,
        "reserve": state.reserve,
        "deal_no": state.deal_no,
        "game_no": state.game_no,
        "game_open": state.game_open,
        "button": state.button,
        "last_in": list(state.last_in),
        "ante_exempt": list(state.ante_exempt),
        "waiting": list(state.waiting),
        "deal": None,
    }
    if state.bets:  # D-BET: mid-deal only; other snapshots unchanged
        data["bets"] = state.bets
    if state.side_pots:  # D-IT-02: mid-deal only
        data["side_pots"] = list(state.side_pots)
    if state.tournament_id is not None:  # cash tables' snapshots unchanged
        data.update(tournament_id=state.tournament_id, next_ante=state.next_ante)
    if state.committed:  # the next deal's committed deck (decider.fair)
        data["committed"] = _jsonable(state.committed)
    if state.deal is not None:
        d = state.deal
        data["deal"] = {name: _jsonable(getattr(d, name)) for name in DealState._fields if name != "slots"}
        if d.slots:
            data["deal"]["slots"] = {name: _jsonable(tuple(slot)) for name, slot in d.slots.items()}
    return data


def state_from_json(data: dict[str, Any]) -> TableState:
    """The state of a snapshot; snapshots written before a field existed take its default."""
    deal = None
    if data["deal"] is not None:
        raw = data["deal"]
        deal = DealState(
            **{name: _tupled(raw[name]) for name in DealState._fields if name in raw and name != "slots"},
            slots=_slots(raw),
        )
    decks = data["stacked_decks"]
    return TableState(
        status=data["status"],
        table_id=data["table_id"],
        variant=data["variant"],
        options=tuple(sorted(data["options"].items())),
        stacked_decks=tuple(tuple(d) for d in decks) if decks else None,
        seats=tuple(Seat(*seat) for seat in data["seats"]),
        pot=data["pot"],
        reserve=data["reserve"],
        deal_no=data["deal_no"],
        game_no=data["game_no"],
        game_open=data["game_open"],
        button=data["button"],
        deal=deal,
        game=get_variant(data["variant"]) if data["variant"] else None,
        last_in=tuple(data.get("last_in", ())),
        ante_exempt=tuple(data.get("ante_exempt", ())),
        waiting=tuple(data.get("waiting", ())),
        tournament_id=data.get("tournament_id"),
        next_ante=data.get("next_ante"),
        bets=data.get("bets", 0),
        side_pots=tuple(data.get("side_pots", ())),
        committed=_tupled(data.get("committed", [])),
    )


def _slots(raw: dict[str, Any]) -> dict[str, Any]:
    """The step kinds' slots of a snapshot's deal; a snapshot written when those facts were
    fields of the deal itself carries them under the same names."""
    stored = raw.get("slots") or {}
    slots: dict[str, Any] = {}
    for name, kind in KINDS.items():
        if kind.slot is None:
            continue
        fields: tuple[str, ...] = getattr(kind.slot, "_fields")  # noqa: B009 (a named tuple's)
        if name in stored:
            slots[name] = kind.slot(*_tupled(stored[name]))
        elif any(field in raw for field in fields):
            empty = kind.slot()
            slot = kind.slot(**{f: _tupled(raw[f]) for f in fields if f in raw})
            if slot != empty:
                slots[name] = slot
    return slots


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


def _tupled(value: Any) -> Any:
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value
