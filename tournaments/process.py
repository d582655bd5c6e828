"""The durable process that reacts to tournament tables (docs/tournaments.md).

The choice: a checkpointed reaction, not work inside the table's transaction. A player's declare
that ends a deal commits on the table alone (fast, and the table knows nothing of tournaments).
The reaction (eliminations, balancing, the next deal, completion) is `service.tournament_reconcile`:
it reads the tables and records a per-table checkpoint, `DealProcessed(table, deal_no)`, in the
SAME transaction as the table commands it issues. So it happens exactly once, however often it
runs. Three things run it:

1. this after-commit hook: a table command that appended `DealEnded` on a tournament table sends
   `tournaments.tick` for its tournament at once;
2. the ETA tasks the service sends (the pause's end, the next level, the start time);
3. the beat sweeper (`tournaments.sweep`), which ticks every running tournament: a crash between
   the table's commit and the hook (or a lost task, a dead worker) delays the reaction by at most
   one sweep interval and never loses it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from django.conf import settings

from ledger.store import StoredEvent
from tables.service import register_after_commit
from tournaments import service
from tournaments.models import TournamentTable

logger = logging.getLogger(__name__)

_tables: OrderedDict[str, str | None] = OrderedDict()  # table -> its tournament (None: a cash table)
_lock = threading.Lock()
KEPT = 4096


def tournament_of(table_id: str) -> str | None:
    """The tournament a table belongs to, None for a cash table. A table never changes tournament,
    and a tournament's table is mapped in the transaction that opens it, before any deal: so the
    answer is cached per process, a cash table's too (one query per table, not per deal)."""
    with _lock:
        if table_id in _tables:
            return _tables[table_id]
    found = TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True).first()
    answer = str(found) if found is not None else None
    with _lock:
        _tables[table_id] = answer
        while len(_tables) > KEPT:
            _tables.popitem(last=False)
    return answer


def on_table_commit(table_id: str, events: list[StoredEvent]) -> None:
    """After a table command: if it ended a deal of a tournament table, tick that tournament."""
    if not settings.GUTS_TOURNAMENT_TASKS or not any(e.type == service.DEAL_ENDED for e in events):
        return
    try:
        tournament_id = tournament_of(table_id)
        if tournament_id is not None:
            from tournaments.tasks import send_tick

            send_tick(tournament_id)
    except Exception:  # the broker down: the sweeper reacts instead
        logger.exception("could not send the reaction of table %s", table_id)


def register_process() -> None:
    from tournaments.tasks import schedule_after_commit

    register_after_commit(on_table_commit)
    service.set_scheduler(schedule_after_commit)
