"""The tournament service's own refusals (the decider's are tournaments.engine.errors)."""

from __future__ import annotations

from ledger.errors import DomainError


class UnknownTournament(DomainError):
    code = "unknown_tournament"

    def __init__(self, tournament_id: object) -> None:
        super().__init__(f"No tournament {tournament_id}.")


class StartInPast(DomainError):
    """A club admin scheduled a tournament to start before now: it would be due (and, short of
    entrants, cancelled by the sweeper) at once."""

    code = "start_in_past"

    def __init__(self, start_at: str, now: str) -> None:
        super().__init__(
            f"start_at {start_at} is in the past (it is {now}); choose a later start.", field="start_at"
        )
