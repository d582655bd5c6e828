"""Loading a tournament's decider state: the stream folded, behind a small cache (DESIGN §2.5).

A tournament writes a few events per deal of each table, so a reconcile must not refold its
stream: an in-process cache keeps the last state with the version and hash it reflects, and a
load reads only the events after it (the first row's hash must match, so a rolled-back append
can never be served, as in tables.state).
"""
from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

from ledger.store import StoredEvent, lock_and_read_head, read_stream
from tables.state import StateCache
from tournaments.engine.events import parse
from tournaments.engine.evolve import evolve
from tournaments.engine.state import TournamentState, initial_state
from tournaments.errors import UnknownTournament

TOURNAMENT_LOCK_CLASS = 0x746F7572        # "tour": first key of the per-tournament advisory locks
CACHE_SIZE = 256


def tournament_stream(tournament_id: object) -> str:
    return f"tournament-{tournament_id}"


def canonical_tournament_id(tournament_id: object) -> str:
    try:
        return str(uuid.UUID(str(tournament_id)))
    except ValueError:
        raise UnknownTournament(tournament_id) from None


def tournament_lock(tournament_id: str) -> tuple[int, int]:
    key = int.from_bytes(hashlib.sha256(tournament_id.encode()).digest()[:4], "big", signed=True)
    return TOURNAMENT_LOCK_CLASS, key


@dataclass(frozen=True, slots=True)
class Loaded:
    state: TournamentState
    version: int
    hash: str


cache: StateCache[Loaded] = StateCache(CACHE_SIZE)


def fold_stored(state: TournamentState, events: list[StoredEvent]) -> TournamentState:
    for event in events:
        state = evolve(state, parse(event.type, event.data))
    return state


def load_tournament(tournament_id: str) -> Loaded:
    """The current state (no lock): the cache and the events after it, or the whole stream."""
    stream = tournament_stream(tournament_id)
    cached = cache.get(tournament_id)
    if cached is not None and cached.version > 0:
        tail = read_stream(stream, from_version=cached.version)
        if tail and tail[0].hash == cached.hash:
            loaded = _folded(cached, tail[1:])
            cache.put(tournament_id, loaded)
            return loaded
    loaded = _folded(Loaded(initial_state(), 0, ""), read_stream(stream))
    cache.put(tournament_id, loaded)
    return loaded


def load_tournament_locked(tournament_id: str) -> Loaded:
    """Take the tournament's lock (held to commit: its commands queue) and load its state."""
    version, digest = lock_and_read_head(tournament_lock(tournament_id), tournament_stream(tournament_id))
    cached = cache.get(tournament_id)
    if cached is not None and (cached.version, cached.hash) == (version, digest):
        return cached
    if version == 0:
        return Loaded(initial_state(), 0, "")
    return load_tournament(tournament_id)


def _folded(start: Loaded, tail: list[StoredEvent]) -> Loaded:
    if not tail:
        return start
    return Loaded(fold_stored(start.state, tail), tail[-1].version, tail[-1].hash)
