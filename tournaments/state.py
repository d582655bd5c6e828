"""Loading a tournament's decider state: the stream folded, behind a small cache (DESIGN §2.5).

A tournament writes a few events per deal of each table, so a reconcile must not refold its
stream: the one stream loader (`ledger.streams.StreamKind`) keeps the last state with the version
and hash it reflects, and a load reads only the events after it (never serving a rolled-back
append, as for tables). Tournaments take no snapshots.
"""

from __future__ import annotations

import uuid

from ledger.store import StoredEvent
from ledger.streams import Loaded, StateCache, StreamKind
from tournaments.engine.events import parse
from tournaments.engine.evolve import evolve
from tournaments.engine.state import TournamentState, initial_state
from tournaments.errors import UnknownTournament

__all__ = [
    "TOURNAMENTS",
    "Loaded",
    "cache",
    "canonical_tournament_id",
    "fold_stored",
    "load_tournament",
    "load_tournament_locked",
    "tournament_lock",
    "tournament_stream",
]

TOURNAMENT_LOCK_CLASS = 0x746F7572  # "tour": first key of the per-tournament advisory locks
CACHE_SIZE = 256


def tournament_stream(tournament_id: object) -> str:
    return f"tournament-{tournament_id}"


def canonical_tournament_id(tournament_id: object) -> str:
    try:
        return str(uuid.UUID(str(tournament_id)))
    except ValueError:
        raise UnknownTournament(tournament_id) from None


def _evolve_stored(state: TournamentState, event: StoredEvent) -> TournamentState:
    return evolve(state, parse(event.type, event.data))


TOURNAMENTS: StreamKind[TournamentState] = StreamKind(
    prefix="tournament-",
    lock_class=TOURNAMENT_LOCK_CLASS,
    initial=initial_state,
    evolve_stored=_evolve_stored,
    cache_size=CACHE_SIZE,
)
cache: StateCache[Loaded[TournamentState]] = TOURNAMENTS.cache


def tournament_lock(tournament_id: str) -> tuple[int, int]:
    return TOURNAMENTS.lock(tournament_id)


def fold_stored(state: TournamentState, events: list[StoredEvent]) -> TournamentState:
    return TOURNAMENTS.fold_stored(state, events)


def load_tournament(tournament_id: str) -> Loaded[TournamentState]:
    """The current state (no lock): the cache and the events after it, or the whole stream."""
    return TOURNAMENTS.load(tournament_id)


def load_tournament_locked(tournament_id: str) -> Loaded[TournamentState]:
    """Take the tournament's lock (held to commit: its commands queue) and load its state."""
    return TOURNAMENTS.load_locked(tournament_id)
