"""The tournament service's own refusals (the decider's are tournaments.engine.errors)."""

from __future__ import annotations

from ledger.errors import DomainError


class UnknownTournament(DomainError):
    code = "unknown_tournament"

    def __init__(self, tournament_id: object) -> None:
        super().__init__(f"No tournament {tournament_id}.")
