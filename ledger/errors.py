"""Domain errors: what services and selectors raise when they refuse a request.

Each is a type with a stable `code`, a message (`str(error)`) and `detail`: the JSON-friendly
specifics a client needs (a balance, a version). None knows HTTP: the API maps codes to statuses
and renders problem details (http_edge.api.errors, guts_backend.handlers); a Celery task or
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


# --- disputes and holds ---------------------------------------------------------------------------


class UnknownDispute(DomainError):
    """No such dispute, or one the caller is no party to (the same answer: an outsider learns
    nothing, not even that it exists)."""

    code = "unknown_dispute"

    def __init__(self, dispute_id: object) -> None:
        super().__init__(f"No dispute {dispute_id}.")


class UnknownDisputeSubject(DomainError):
    """The deal or cashier transaction named does not exist."""

    code = "unknown_dispute_subject"


class SubjectNotFinished(DomainError):
    """Only a finished deal can be disputed (a live deal's facts are still secret)."""

    code = "deal_not_finished"


class NotAParty(DomainError):
    """A player may dispute only a deal he played or a transaction of his bankroll."""

    code = "not_a_party"


class DisputeExists(DomainError):
    """A player opens at most one dispute per deal (or transaction)."""

    code = "dispute_exists"


class DisputeWindowClosed(DomainError):
    """The subject ended more than GUTS_DISPUTE_WINDOW ago."""

    code = "dispute_window_closed"


class DisputeClosed(DomainError):
    """The dispute was decided, withdrawn or has expired: nothing more can happen to it."""

    code = "dispute_closed"


class HoldExists(DomainError):
    code = "hold_exists"


class HoldExceedsBalance(DomainError):
    """A hold never exceeds what the player has available."""

    code = "hold_exceeds_balance"


class FundsHeld(DomainError):
    """A payment needs chips that a dispute holds: they are the player's but not available."""

    code = "funds_held"


class PartyCannotDecide(DomainError):
    """An auditor who is a party to a dispute (its opener, a player of the deal) cannot decide it."""

    code = "party_cannot_decide"


class InvalidCorrection(DomainError):
    """A correcting transfer between accounts the dispute does not concern, or in the wrong unit."""

    code = "invalid_correction"


# --- checkpoints ------------------------------------------------------------------------------------


class UnknownCheckpoint(DomainError):
    code = "unknown_checkpoint"

    def __init__(self, number: object) -> None:
        super().__init__(f"No checkpoint {number}.")
