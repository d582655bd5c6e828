"""RFC 9457 problem details: the one shape every API error takes, and THE codes with their statuses.

Services and selectors raise domain errors (`ledger.errors.DomainError`, the engine's
`DomainError`): a stable `code`, a message and details, no HTTP. The HTTP layer itself (views,
idempotency, authentication, query parsing) raises `Problem`. Either way the status comes from
`ProblemCode` below (and `PROBLEM_STATUS`, derived from it), and nowhere else; docs/api.md and
docs/audit.md reproduce it (tests keep them in step). `guts_backend.handlers` renders the
errors; `problem_responses` documents them in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers
from rest_framework.response import Response

from http_edge.api.fields import JsonObjectField

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_MEMBERS = frozenset({"type", "title", "status", "code", "detail"})  # details never overwrite them
REFUSED = 409  # a code missing from the table is a refusal, not a 500 (tests keep it complete)


@unique
class ProblemCode(StrEnum):
    """Every problem code the API answers with: its value is the code, and each member carries its
    HTTP status and an example detail (the OpenAPI catalogue). The rules engines name their codes in
    their own StrEnums (`RuleCode`, `TournamentCode`: pure Python, no HTTP) and the services on
    their error classes; the ledger's API imports this module and the ledger imports nothing of
    tables, so those are members here by value, and a test holds each of them to a member.
    `PROBLEM_STATUS`, the schema's `Problem.code` enum and each operation's problem list derive
    from this class."""

    status: int
    example: str

    def __new__(cls, code: str, status: int, example: str) -> ProblemCode:
        member = str.__new__(cls, code)
        member._value_ = str(code)
        member.status = status
        member.example = example
        return member

    # the HTTP layer: bodies, queries, headers, credentials
    MALFORMED_REQUEST = (
        "malformed_request",
        400,
        "JSON parse error - Expecting value: line 1 column 1 (char 0)",
    )
    INVALID_INPUT = "invalid_input", 400, "The request body is not valid."
    INVALID_QUERY = "invalid_query", 400, "Bad query parameter: limit."
    INVALID_IDEMPOTENCY_KEY = (
        "invalid_idempotency_key",
        400,
        "Idempotency-Key must be 1 to 255 printable ASCII characters.",
    )
    INVALID_CREDENTIALS = "invalid_credentials", 400, "Unable to log in with the given username and password."
    NOT_AUTHENTICATED = (
        "not_authenticated",
        401,
        "Authentication credentials were not provided. Send `Authorization: Bearer <token>` (or "
        "`Authorization: Token <token>`); get a token from POST /api/v1/auth/token with your username "
        "and password.",
    )
    AUTHENTICATION_FAILED = "authentication_failed", 401, "Token expired; log in again."
    FORBIDDEN = "forbidden", 403, "You do not have permission to perform this action."
    NOT_FOUND = "not_found", 404, "No such resource."
    NOT_ACCEPTABLE = "not_acceptable", 406, "Unknown format 'xyz'; this resource is available as: json, api."
    IDEMPOTENCY_IN_PROGRESS = (
        "idempotency_in_progress",
        409,
        "A request with this Idempotency-Key is still being processed.",
    )
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", 415, 'Unsupported media type "text/plain" in request.'
    IDEMPOTENCY_KEY_REUSED = (
        "idempotency_key_reused",
        422,
        "This Idempotency-Key was used with a different request.",
    )
    THROTTLED = (
        "throttled",
        429,
        "Too many failed logins for this username. Expected available in 300 seconds.",
    )
    SERVICE_UNAVAILABLE = (
        "service_unavailable",
        503,
        "The database is unavailable; retry after 1 s (Retry-After).",
    )
    # players and the cashier (ledger)
    UNKNOWN_PLAYER = "unknown_player", 404, "No player with id 42."
    USERNAME_TAKEN = "username_taken", 409, "The username 'alice' is taken."
    INVALID_DISPLAY_NAME = (
        "invalid_display_name",
        400,
        "a name is not all digits (it would read as a player id): '42'",
    )
    DISPLAY_NAME_TAKEN = (
        "display_name_taken",
        409,
        "The name 'Alice' is taken by another player; choose another.",
    )
    INSUFFICIENT_FUNDS = "insufficient_funds", 409, "player:7 holds 100 chips; cannot pay 250."
    CONCURRENCY_CONFLICT = (
        "concurrency_conflict",
        409,
        "The table changed concurrently 5 times; retry the request.",
    )
    # tables: the rules engine's codes and the service's own
    INVALID_OPTION = "invalid_option", 400, "invalid value for option ante: -5"
    UNKNOWN_VARIANT = "unknown_variant", 400, "unknown variant: 'guts9'"
    INVALID_AMOUNT = "invalid_amount", 400, "the buy-in must be between 100 and any"
    INVALID_CARD = "invalid_card", 400, "not a card: 'Zz'"
    INVALID_CHOICE = "invalid_choice", 400, "declare 'in' or 'out', not 'maybe'"
    INVALID_SEED = "invalid_seed", 400, "a deal on an unstacked table needs a seed"
    INVALID_CLIENT_SEED = "invalid_client_seed", 400, "a client_seed is 32 to 128 hex digits"
    STACKED_DECKS_NOT_ALLOWED = "stacked_decks_not_allowed", 400, "stacked decks are switched off"
    INVALID_TABLE_NAME = (
        "invalid_table_name",
        400,
        "a table name is 1 to 100 printable characters with no word that reads as a card",
    )
    NOT_SEATED = "not_seated", 403, "7 is not seated at this table"
    UNKNOWN_TABLE = "unknown_table", 404, "No table 6f1c0c52-0000-4000-8000-000000000000."
    NOT_YOUR_TURN = "not_your_turn", 409, "it is not 7's turn to declare"
    DEAL_OVER = "deal_over", 409, "deal 3 is over"
    WRONG_DEAL = "wrong_deal", 409, "deal 9 is not the live deal 4"
    DEAL_IN_PROGRESS = "deal_in_progress", 409, "a deal is in progress"
    NO_DEAL = "no_deal", 409, "no deal is in progress"
    ALREADY_DECLARED = "already_declared", 409, "7 has declared"
    ALREADY_PASSED = "already_passed", 409, "7 has passed a card"
    ALREADY_EXCHANGED = "already_exchanged", 409, "7 has exchanged"
    INVALID_DISCARDS = "invalid_discards", 400, "discard at most 2 different cards of your hand"
    WRONG_STAGE = "wrong_stage", 409, "the open declare is of stage 2, not 1"
    BID_TOO_LOW = "bid_too_low", 409, "bid more than the standing bid of 20"
    LEVEL_TOO_LOW = (
        "level_too_low",
        409,
        "the pot stands at double: accept it, raise it or fold",
    )  # T38-03
    BET_NOT_ALLOWED = "bet_not_allowed", 409, "cannot check: a bet is open"  # D-BET
    RAISE_LIMIT = "raise_limit", 409, "at most 3 raises per round (D-BET)"  # D-BET
    CARD_NOT_HELD = "card_not_held", 409, "Kd is not in the player's hand"  # BF-03, WL-07
    MUST_PLAY_TRUMP = "must_play_trump", 409, "you hold a trump (h): play one"  # D-WL-04
    CANNOT_OPEN = "cannot_open", 409, "opening needs jacks or better (IT-07, IT-08)"  # IT-07
    INVALID_SPLIT = "invalid_split", 409, "discarding openers needs split_openers (IT-16)"  # IT-16
    NOT_ENOUGH_PLAYERS = "not_enough_players", 409, "a deal needs two players who can play"
    INSUFFICIENT_STACK = "insufficient_stack", 409, "the stack cannot cover a loss in this deal"
    LIABILITY_OPEN = "liability_open", 409, "7 is dealt into deal 4"
    TABLE_CLOSED = "table_closed", 409, "the table is not open"
    TABLE_FULL = "table_full", 409, "every seat is taken"
    ALREADY_SEATED = "already_seated", 409, "7 is already seated"
    ALREADY_SITTING_OUT = "already_sitting_out", 409, "7 is already sitting out"
    NOT_SITTING_OUT = "not_sitting_out", 409, "7 is not sitting out"
    TABLE_ALREADY_OPEN = "table_already_open", 409, "the table is already open"
    STALE_VERSION = "stale_version", 412, "The table is at version 12, not 10 (If-Match)."
    # tournament tables
    TOURNAMENT_TABLE = (
        "tournament_table",
        409,
        "a tournament table: the tournament seats and moves its players",
    )
    NOT_A_TOURNAMENT_TABLE = "not_a_tournament_table", 409, "a cash table: no tournament commands here"
    INVALID_SEAT = "invalid_seat", 400, "seat 9 is not a free seat of this table"
    # tournaments
    UNKNOWN_TOURNAMENT = "unknown_tournament", 404, "No tournament 2b1f6a0e-7c55-4a53-9a4e-1d5c0b7e2f10."
    INVALID_TOURNAMENT = "invalid_tournament", 400, "levels: a list of 1 to 100 levels"
    INVALID_PAYOUTS = "invalid_payouts", 400, "payouts sum to 90, not 100"
    START_IN_PAST = (
        "start_in_past",
        400,
        "start_at 2020-01-05T19:00:00Z is in the past (it is 2026-12-01T12:00:00Z); choose a later start.",
    )
    ALREADY_REGISTERED = "already_registered", 409, "7 is registered"
    NOT_REGISTERED = "not_registered", 409, "7 is not registered"
    REGISTRATION_CLOSED = "registration_closed", 409, "registration is closed"
    TOURNAMENT_FULL = "tournament_full", 409, "60 entrants are registered"
    TOURNAMENT_STARTED = "tournament_started", 409, "the tournament is running"
    TOURNAMENT_OVER = "tournament_over", 409, "the tournament is complete"
    NOT_ENOUGH_ENTRANTS = "not_enough_entrants", 409, "3 entrants, at least 6 needed"
    TOURNAMENT_ALREADY_OPEN = "tournament_already_open", 409, "the tournament exists already"
    # the audit API
    UNKNOWN_DEAL = "unknown_deal", 404, "Table 0b7f3c9e-… has no deal 12."
    VERSION_NOT_IN_DEAL = (
        "version_not_in_deal",
        404,
        "Version 40 is not an event of deal 3 (versions 12 to 31).",
    )
    DEAL_NOT_FINISHED = (
        "deal_not_finished",
        409,
        "Deal 12 is still being played; its seed is secret until it ends.",
    )
    # disputes and holds
    UNKNOWN_DISPUTE = "unknown_dispute", 404, "No dispute 5b0e6c7a-2f1d-4b8e-9c3a-7d6e5f4a3b21."
    UNKNOWN_DISPUTE_SUBJECT = "unknown_dispute_subject", 404, "No cashier transaction at position 42."
    NOT_A_PARTY = (
        "not_a_party",
        403,
        "You may dispute only a deal you played or a transaction of your bankroll.",
    )
    PARTY_CANNOT_DECIDE = (
        "party_cannot_decide",
        403,
        "You are a party to this dispute; another auditor must decide it.",
    )
    DISPUTE_EXISTS = "dispute_exists", 409, "You have disputed deal 3 at table 0b7f3c9e-… already."
    DISPUTE_WINDOW_CLOSED = (
        "dispute_window_closed",
        409,
        "Disputes on deal 3 at table 0b7f… closed at 2026-12-08T12:00:00+00:00.",
    )
    DISPUTE_CLOSED = "dispute_closed", 409, "The dispute is rejected."
    HOLD_EXISTS = "hold_exists", 409, "This dispute holds chips already."
    HOLD_EXCEEDS_BALANCE = "hold_exceeds_balance", 409, "player:7 has 60 chips available; cannot hold 80."
    FUNDS_HELD = (
        "funds_held",
        409,
        "player:7 holds 100 chips, of which 80 are held by disputes; 20 are available.",
    )
    INVALID_CORRECTION = "invalid_correction", 400, "house is not an account of this dispute."
    # checkpoints
    UNKNOWN_CHECKPOINT = "unknown_checkpoint", 404, "No checkpoint 12."


PROBLEM_CODES = tuple(code.value for code in ProblemCode)  # the schema's ProblemCode enum

# code -> (HTTP status, an example detail for the OpenAPI problem catalogue), derived.
PROBLEM_STATUS: dict[str, tuple[int, str]] = {code: (code.status, code.example) for code in ProblemCode}

# Codes many operations share, for `problem_responses(...)`.
AUTH_PROBLEMS = ("not_authenticated", "forbidden")
BODY_PROBLEMS = ("malformed_request", "invalid_input", "unsupported_media_type")


def status_of(code: str) -> int:
    """The HTTP status of a problem code (409 for a code `ProblemCode` lacks)."""
    return PROBLEM_STATUS.get(code, (REFUSED, ""))[0]


class Problem(Exception):
    """An error of the HTTP layer itself (a header, a query, a role), with a code from the table."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    @property
    def status(self) -> int:
        return status_of(self.code)

    def body(self) -> dict[str, Any]:
        return problem_body(self.status, self.code, self.detail, **self.extra)


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    title = code.replace("_", " ").capitalize()
    return {
        "type": f"/problems/{code}",
        "title": title,
        "status": status,
        "code": code,
        "detail": detail,
        **extra,
    }


def problem_response(status: int, code: str, detail: str, **extra: Any) -> Response:
    return Response(
        problem_body(status, code, detail, **extra), status=status, content_type=PROBLEM_CONTENT_TYPE
    )


def refusal_response(code: str, message: str, details: Mapping[str, Any]) -> Response:
    """A domain error as problem+json: its code's status, its details beside (never over) the members."""
    extra = {key: value for key, value in details.items() if key not in PROBLEM_MEMBERS}
    return problem_response(status_of(code), code, message, **extra)


class ProblemSerializer(serializers.Serializer):
    """Schema of an error response (RFC 9457) for the OpenAPI document."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    code = serializers.ChoiceField(choices=PROBLEM_CODES, help_text="Stable machine-readable error code.")
    detail = serializers.CharField()
    errors = JsonObjectField(
        required=False,
        help_text="For `invalid_input` and `invalid_query`: the errors of each field, by field name (a "
        "list of messages, or for a list or object field its items' errors by index or key).",
    )


def problem_responses(*codes: str) -> dict[tuple[int, str], OpenApiResponse]:
    """OpenAPI responses for the given problem codes, grouped by status, one example per code, as
    `application/problem+json` (what the server sends). An operation that can answer
    `not_authenticated` can also answer `authentication_failed` (a bad or expired token)."""
    if "not_authenticated" in codes:
        codes = tuple(dict.fromkeys((*codes, "authentication_failed")))
    by_status: dict[int, list[ProblemCode]] = {}
    for code in map(ProblemCode, codes):
        by_status.setdefault(code.status, []).append(code)
    return {
        (status, PROBLEM_CONTENT_TYPE): _problem_openapi_response(status, status_codes)
        for status, status_codes in sorted(by_status.items())
    }


def _problem_openapi_response(status: int, codes: list[ProblemCode]) -> OpenApiResponse:
    examples = [
        OpenApiExample(
            code,
            value=problem_body(status, code.value, code.example),
            response_only=True,
            status_codes=[str(status)],
        )
        for code in codes
    ]
    description = "Problem details; `code` is one of: " + ", ".join(f"`{code}`" for code in codes)
    return OpenApiResponse(response=ProblemSerializer, description=description, examples=examples)
