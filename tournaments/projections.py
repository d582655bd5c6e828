"""The tournaments projector: TournamentView, TournamentTable and TournamentEntrant rows, inline in the append
transaction (DESIGN §2.5), rebuilt from the log by `rebuild_projections` like every projector."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import F

from ledger.projections import EventProjector, register_projector
from ledger.store import StoredEvent
from tournaments.engine import events as ev
from tournaments.engine.config import parse_time
from tournaments.models import TournamentEntrant, TournamentTable, TournamentView
from tournaments.state import cache

PREFIX = "tournament-"


class TournamentsProjector(EventProjector):
    name = "tournaments.views"
    models = (TournamentView, TournamentTable, TournamentEntrant)
    stream_prefix = PREFIX

    def wants(self, event: StoredEvent) -> bool:
        return event.stream.startswith(PREFIX)

    def reset(self) -> None:
        super().reset()
        cache.clear()

    def apply(self, event: StoredEvent, *, live: bool) -> None:
        tournament_id = event.stream.removeprefix(PREFIX)
        typed = ev.parse(event.type, event.data)
        if isinstance(typed, ev.TournamentCreated):
            config = typed.config
            TournamentView.objects.create(
                tournament_id=tournament_id,
                name=config["name"],
                variant=config["variant"],
                status="registering",
                start_at=parse_time(config["start_at"]),
                buy_in=config["buy_in"],
                fee=config["fee"],
                version=event.version,
                created_at=event.recorded_at,
                updated_at=event.recorded_at,
            )
            return
        _entrants(tournament_id, typed, event)
        changes = _changes(typed)
        tables = _tables(typed)
        if tables:
            TournamentTable.objects.bulk_create(
                [TournamentTable(table_id=t, tournament_id=tournament_id) for t in tables],
                ignore_conflicts=True,
            )
        TournamentView.objects.filter(tournament_id=tournament_id).update(
            version=event.version, updated_at=event.recorded_at, **changes
        )


def _entrants(tournament_id: str, typed: ev.Event, event: StoredEvent) -> None:
    """A player's registrations: one row while he is registered."""
    if isinstance(typed, ev.EntrantRegistered):
        TournamentEntrant.objects.get_or_create(
            tournament_id=tournament_id, player=typed.player, defaults={"registered_at": event.recorded_at}
        )
    elif isinstance(typed, ev.EntrantUnregistered):
        TournamentEntrant.objects.filter(tournament_id=tournament_id, player=typed.player).delete()


def _changes(event: ev.Event) -> dict[str, Any]:
    match event:
        case ev.EntrantRegistered():
            return {"entrants": F("entrants") + 1, "remaining": F("remaining") + 1}
        case ev.EntrantUnregistered():
            return {"entrants": F("entrants") - 1, "remaining": F("remaining") - 1}
        case ev.TournamentCancelRequested():
            return {"status": "cancelling"}
        case ev.TournamentCancelled():
            return {"status": "cancelled"}
        case ev.TournamentStarted():
            return {"status": "running", "level": event.level}
        case ev.LevelStarted():
            return {"level": event.level}
        case ev.EntrantsEliminated():
            return {"remaining": F("remaining") - len(event.placings)}
        case ev.TournamentCompleted():
            return {"status": "complete", "winner": event.winner or "", "remaining": 0}
    return {}


def _tables(event: ev.Event) -> Sequence[str]:
    if isinstance(event, ev.TournamentStarted):
        return [t["table_id"] for t in event.tables]
    if isinstance(event, ev.TableAdded):
        return [event.table_id]
    return []


_registered = False


def register_tournament_projections() -> None:
    global _registered
    if _registered:
        return
    register_projector(TournamentsProjector())
    _registered = True
