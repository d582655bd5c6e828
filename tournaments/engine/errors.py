"""DomainError of the tournament decider: a command is not allowed now. Its `code` is stable; the
API maps it to a problem (guts_backend.api.errors.PROBLEM_STATUS, docs/api.md).

The engine is pure, so this is its own class with the same three members as the tables engine's
(`code`, message, `detail`); the API renders both alike.
"""
from __future__ import annotations

from typing import Any

CODES = frozenset({
    "invalid_tournament",        # a bad field of a new tournament (detail["field"] names it)
    "invalid_payouts",           # the payout table: percentages that do not sum to 100, ...
    "already_registered",
    "not_registered",
    "registration_closed",       # after the start (unregister) or after late registration's level
    "tournament_full",
    "tournament_started",        # cancel or start once running
    "tournament_over",           # complete or cancelled
    "not_enough_entrants",       # an admin's start below the minimum
    "tournament_already_open",
})


class DomainError(Exception):
    """Raised by `decide` (and config validation); nothing is appended."""

    def __init__(self, code: str, message: str = "", **detail: Any) -> None:
        assert code in CODES, code
        super().__init__(message or code)
        self.code = code
        self.detail = detail

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {str(self)!r})"
