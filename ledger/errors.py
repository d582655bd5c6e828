"""Domain errors: what services and selectors raise when they refuse a request.

Each is a type with a stable `code`, a message (`str(error)`) and `detail`: the JSON-friendly
specifics a client needs (a balance, a version). None knows HTTP: the API maps codes to statuses
and renders problem details (guts_backend.api.errors, guts_backend.api.handlers); a Celery task or
a management command catches them like any exception.

The rules engine raises its own `DomainError` (tables.engine.decider.errors) with the same three
members: the engine is pure and imports nothing of the ledger but `ledger.accounts`, so it cannot
derive from this one. The API renders both alike.
"""
from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """Base of the services' refusals; subclasses name their `code`."""

    code: ClassVar[str] = "domain_error"

    def __init__(self, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.detail = detail

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self)!r})"


class InvalidInput(DomainError):
    """A value the API's validation should have refused already (a service's own guard)."""

    code = "invalid_input"


class AccessDenied(DomainError):
    """The caller may not see this (another player's account, say)."""

    code = "forbidden"


class UnknownPlayer(DomainError):
    code = "unknown_player"

    def __init__(self, player_id: object) -> None:
        super().__init__(f"No player with id {player_id}.")


class UsernameTaken(DomainError):
    code = "username_taken"

    def __init__(self, username: str) -> None:
        super().__init__(f"The username {username!r} is taken.")


class Overdraft(DomainError):
    """A payment would take an account below zero that may not go there (DESIGN §2.4)."""

    code = "insufficient_funds"


class ConcurrencyConflict(DomainError):
    """A stream kept changing under a command: every retry clashed. A retry may well succeed."""

    code = "concurrency_conflict"
