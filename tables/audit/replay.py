"""Replay: a deal step by step, each event (redacted) with the table as it stood after it.

The fold is the decider's own `evolve`, started from the state before the deal (snapshot + tail,
see `deals.deal_load`), so a replay is pinned to the variant and options recorded in the table's
events, never to today's settings. The state after each step is the engine's `table_view` for the
caller, minus the legal actions (a replay shows what happened, not what one may do).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from tables.audit.deals import deal_load
from tables.audit.feeds import events_json
from tables.engine.decider.events import parse
from tables.engine.decider.evolve import evolve
from tables.engine.decider.state import TableState
from tables.engine.decider.view import Viewer, table_view
from tables.errors import VersionNotInDeal


def replay_state(
    state: TableState, viewer: Viewer, moment: datetime, *, deal_over: bool = False
) -> dict[str, Any]:
    """The table after a step as this viewer may see it (engine view; no legal actions). A replay
    of a finished deal shows each step as the deal's events are served now: what the end of the
    deal revealed to this viewer (an auditor: every hand) is visible at every step."""
    view = table_view(state, viewer, moment, deal_over=deal_over)
    view.pop("legal_actions", None)
    return view


def deal_replay(
    *, table_id: UUID | str, deal_no: int, viewer: Viewer, at: int | None = None
) -> dict[str, Any]:
    """Every step of the deal (or only the one at stream version `at`)."""
    record = deal_load(table_id=table_id, deal_no=deal_no)
    if at is not None and not any(event.version == at for event in record.events):
        raise VersionNotInDeal(at, deal_no, record.events[0].version, record.events[-1].version)
    state = record.before
    steps = []
    served = events_json(record.events, viewer, lambda _: record.over)
    for event, body in zip(record.events, served, strict=True):
        state = evolve(state, parse(event.type, event.data))
        if at is None or event.version == at:
            steps.append(
                {
                    "event": body,
                    "state": replay_state(state, viewer, event.recorded_at, deal_over=record.over),
                }
            )
    return {
        "table_id": record.table_id,
        "deal_no": deal_no,
        "finished": record.over,
        "rules": {"variant": record.before.variant, "options": dict(record.before.options)},
        "before": replay_state(record.before, viewer, record.events[0].recorded_at),
        "steps": steps,
    }
