"""DomainError of the tournament decider: a command is not allowed now. Its `code` is stable; the
API derives its status and documentation from `TournamentCode` (http_edge.api.errors).

A subclass of the tables engine's DomainError (pure too) with the tournament's codes, so the API
and the tasks handle one kind of refusal.
"""

from __future__ import annotations

from enum import StrEnum, unique

from tables.engine.decider.errors import DomainError as RulesError


@unique
class TournamentCode(StrEnum):
    """Every refusal of the tournament decider; the value is the code clients see."""

    INVALID_TOURNAMENT = "invalid_tournament"  # a bad field of a new tournament (detail["field"])
    INVALID_PAYOUTS = "invalid_payouts"  # percentages that do not sum to 100, ...
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    REGISTRATION_CLOSED = "registration_closed"  # after the start, or after late registration's level
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_STARTED = "tournament_started"  # start once running
    TOURNAMENT_OVER = "tournament_over"  # complete or cancelled
    NOT_ENOUGH_ENTRANTS = "not_enough_entrants"  # an admin's start below the minimum
    TOURNAMENT_ALREADY_OPEN = "tournament_already_open"


CODES: frozenset[str] = frozenset(TournamentCode)


class DomainError(RulesError):
    """Raised by `decide` (and config validation); nothing is appended."""

    CODES = CODES
