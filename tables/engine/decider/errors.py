"""DomainError: a command is not allowed now. Its `code` is stable; the API maps it to a problem.

The codes are `RuleCode`, one StrEnum: the engine raises only these, and the HTTP edge derives its
problem codes, their statuses and their OpenAPI documentation from it (http_edge.api.errors).
`detail` holds JSON-friendly specifics (e.g. the option's name).
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any, ClassVar


@unique
class RuleCode(StrEnum):
    """Every refusal of the rules engine; the value is the code clients see."""

    # seats and the table's lifecycle
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    TABLE_FULL = "table_full"
    TABLE_CLOSED = "table_closed"
    TABLE_ALREADY_OPEN = "table_already_open"  # OpenTable on an open table
    ALREADY_SITTING_OUT = "already_sitting_out"  # SitOut
    NOT_SITTING_OUT = "not_sitting_out"  # SitIn
    LIABILITY_OPEN = "liability_open"  # leaving while dealt into a deal
    INSUFFICIENT_STACK = "insufficient_stack"
    # options and amounts
    INVALID_OPTION = "invalid_option"
    UNKNOWN_VARIANT = "unknown_variant"
    INVALID_AMOUNT = "invalid_amount"
    STACKED_DECKS_NOT_ALLOWED = "stacked_decks_not_allowed"
    INVALID_CARD = "invalid_card"
    INVALID_SEED = "invalid_seed"  # StartDeal on an unstacked table without a valid hex seed
    INVALID_CLIENT_SEED = "invalid_client_seed"  # a player's seed: 32 to 128 hex digits (decider.fair)
    # deals and turns
    NOT_YOUR_TURN = "not_your_turn"
    DEAL_OVER = "deal_over"
    WRONG_DEAL = "wrong_deal"
    DEAL_IN_PROGRESS = "deal_in_progress"
    NO_DEAL = "no_deal"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    INVALID_CHOICE = "invalid_choice"  # a declare that is neither "in" nor "out", ...
    ALREADY_DECLARED = "already_declared"
    WRONG_STAGE = "wrong_stage"  # a declare naming another stage than the open one
    ALREADY_PASSED = "already_passed"  # AO-06
    BID_TOO_LOW = "bid_too_low"  # MCA-04: a bid not above the standing bid
    ALREADY_EXCHANGED = "already_exchanged"  # EXC-01/02: a second draw
    INVALID_DISCARDS = "invalid_discards"  # repeated cards, or more than the draw allows
    LEVEL_TOO_LOW = "level_too_low"  # T38-03: a level below the pot's current one
    BET_NOT_ALLOWED = "bet_not_allowed"  # D-BET: e.g. a check facing a bet, a call with no bet open
    RAISE_LIMIT = "raise_limit"  # D-BET: a fourth raise
    CARD_NOT_HELD = "card_not_held"  # BF-03, WL-07: a card given or played that is not held
    MUST_PLAY_TRUMP = "must_play_trump"  # D-WL-04: another suit while holding a trump
    CANNOT_OPEN = "cannot_open"  # IT-07, IT-08: an open without jacks or better
    INVALID_SPLIT = "invalid_split"  # IT-16, D-IT-03: discarding openers without split_openers
    # tournament tables
    TOURNAMENT_TABLE = "tournament_table"  # a cash-table command there
    NOT_A_TOURNAMENT_TABLE = "not_a_tournament_table"  # a tournament command on a cash table
    INVALID_SEAT = "invalid_seat"  # a seat named that is not free


CODES: frozenset[str] = frozenset(RuleCode)


class DomainError(Exception):
    """Raised by `decide` (and option validation); nothing is appended. Another pure decider (the
    tournaments') subclasses it with its own `CODES`, so the API and the tasks know one refusal."""

    CODES: ClassVar[frozenset[str]] = CODES

    def __init__(self, code: str, message: str = "", **detail: Any) -> None:
        assert code in self.CODES, code
        super().__init__(message or code)
        self.code = str(code)
        self.detail = detail

    def __repr__(self) -> str:
        return f"DomainError({self.code!r}, {str(self)!r})"
