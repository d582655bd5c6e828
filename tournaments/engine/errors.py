"""DomainError of the tournament decider: a command is not allowed now. Its `code` is stable; the
API maps it to a problem (guts_backend.api.errors.PROBLEM_STATUS, docs/api.md).

A subclass of the tables engine's DomainError (pure too) with the tournament's codes, so the API
and the tasks handle one kind of refusal.
"""

from __future__ import annotations

from tables.engine.decider.errors import DomainError as RulesError

CODES = frozenset(
    {
        "invalid_tournament",  # a bad field of a new tournament (detail["field"] names it)
        "invalid_payouts",  # the payout table: percentages that do not sum to 100, ...
        "already_registered",
        "not_registered",
        "registration_closed",  # after the start (unregister) or after late registration's level
        "tournament_full",
        "tournament_started",  # start once running
        "tournament_over",  # complete or cancelled
        "not_enough_entrants",  # an admin's start below the minimum
        "tournament_already_open",
    }
)


class DomainError(RulesError):
    """Raised by `decide` (and config validation); nothing is appended."""

    CODES = CODES
