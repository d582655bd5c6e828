"""RFC 9457 problem details: the one shape every API error takes, and THE map from codes to statuses.

Services and selectors raise domain errors (`ledger.errors.DomainError`, the engine's
`DomainError`): a stable `code`, a message and details, no HTTP. The HTTP layer itself (views,
idempotency, authentication, query parsing) raises `Problem`. Either way the status comes from
`PROBLEM_STATUS` below, and nowhere else; docs/api.md and docs/audit.md reproduce it (tests keep
them in step). `guts_backend.api.handlers` renders the errors; `problem_responses` documents them
in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers
from rest_framework.response import Response

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_MEMBERS = frozenset({"type", "title", "status", "code", "detail"})  # details never overwrite them
REFUSED = 409  # a code missing from the table is a refusal, not a 500 (tests keep it complete)

# code -> (HTTP status, an example detail for the OpenAPI problem catalogue).
PROBLEM_STATUS: dict[str, tuple[int, str]] = {
    # the HTTP layer: bodies, queries, headers, credentials
    "malformed_request": (400, "JSON parse error - Expecting value: line 1 column 1 (char 0)"),
    "invalid_input": (400, "The request body is not valid."),
    "invalid_query": (400, "Bad query parameter: limit."),
    "invalid_idempotency_key": (400, "Idempotency-Key must be 1 to 255 printable ASCII characters."),
    "invalid_credentials": (400, "Unable to log in with the given username and password."),
    "not_authenticated": (
        401,
        "Authentication credentials were not provided. Send `Authorization: Bearer <token>` (or "
        "`Authorization: Token <token>`); get a token from POST /api/v1/auth/token with your username "
        "and password.",
    ),
    "authentication_failed": (401, "Token expired; log in again."),
    "forbidden": (403, "You do not have permission to perform this action."),
    "not_found": (404, "No such resource."),
    "not_acceptable": (406, "Unknown format 'xyz'; this resource is available as: json, api."),
    "idempotency_in_progress": (409, "A request with this Idempotency-Key is still being processed."),
    "unsupported_media_type": (415, 'Unsupported media type "text/plain" in request.'),
    "idempotency_key_reused": (422, "This Idempotency-Key was used with a different request."),
    "throttled": (429, "Too many failed logins for this username. Expected available in 300 seconds."),
    "service_unavailable": (503, "The database is unavailable; retry after 1 s (Retry-After)."),
    # players and the cashier (ledger)
    "unknown_player": (404, "No player with id 42."),
    "username_taken": (409, "The username 'alice' is taken."),
    "invalid_display_name": (400, "a name is not all digits (it would read as a player id): '42'"),
    "display_name_taken": (409, "The name 'Alice' is taken by another player; choose another."),
    "insufficient_funds": (409, "player:7 holds 100 chips; cannot pay 250."),
    "concurrency_conflict": (409, "The table changed concurrently 5 times; retry the request."),
    # tables: the rules engine's codes and the service's own
    "invalid_option": (400, "invalid value for option ante: -5"),
    "unknown_variant": (400, "unknown variant: 'guts9'"),
    "invalid_amount": (400, "the buy-in must be between 100 and any"),
    "invalid_card": (400, "not a card: 'Zz'"),
    "invalid_choice": (400, "declare 'in' or 'out', not 'maybe'"),
    "invalid_seed": (400, "a deal on an unstacked table needs a seed"),
    "invalid_client_seed": (400, "a client_seed is 32 to 128 hex digits"),
    "stacked_decks_not_allowed": (400, "stacked decks are switched off"),
    "invalid_table_name": (
        400,
        "a table name is 1 to 100 printable characters with no word that reads as a card",
    ),
    "not_seated": (403, "7 is not seated at this table"),
    "unknown_table": (404, "No table 6f1c0c52-0000-4000-8000-000000000000."),
    "not_your_turn": (409, "it is not 7's turn to declare"),
    "deal_over": (409, "deal 3 is over"),
    "wrong_deal": (409, "deal 9 is not the live deal 4"),
    "deal_in_progress": (409, "a deal is in progress"),
    "no_deal": (409, "no deal is in progress"),
    "already_declared": (409, "7 has declared"),
    "already_passed": (409, "7 has passed a card"),
    "already_exchanged": (409, "7 has exchanged"),
    "invalid_discards": (400, "discard at most 2 different cards of your hand"),
    "wrong_stage": (409, "the open declare is of stage 2, not 1"),
    "bid_too_low": (409, "bid more than the standing bid of 20"),
    "level_too_low": (409, "the pot stands at double: accept it, raise it or fold"),  # T38-03
    "bet_not_allowed": (409, "cannot check: a bet is open"),  # D-BET
    "raise_limit": (409, "at most 3 raises per round (D-BET)"),  # D-BET
    "card_not_held": (409, "Kd is not in the player's hand"),  # BF-03, WL-07
    "must_play_trump": (409, "you hold a trump (h): play one"),  # D-WL-04
    "cannot_open": (409, "opening needs jacks or better (IT-07, IT-08)"),  # IT-07
    "invalid_split": (409, "discarding openers needs split_openers (IT-16)"),  # IT-16
    "not_enough_players": (409, "a deal needs two players who can play"),
    "insufficient_stack": (409, "the stack cannot cover a loss in this deal"),
    "liability_open": (409, "7 is dealt into deal 4"),
    "table_closed": (409, "the table is not open"),
    "table_full": (409, "every seat is taken"),
    "already_seated": (409, "7 is already seated"),
    "already_sitting_out": (409, "7 is already sitting out"),
    "not_sitting_out": (409, "7 is not sitting out"),
    "table_already_open": (409, "the table is already open"),
    "stale_version": (412, "The table is at version 12, not 10 (If-Match)."),
    # tournament tables
    "tournament_table": (409, "a tournament table: the tournament seats and moves its players"),
    "not_a_tournament_table": (409, "a cash table: no tournament commands here"),
    "invalid_seat": (400, "seat 9 is not a free seat of this table"),
    # tournaments
    "unknown_tournament": (404, "No tournament 2b1f6a0e-7c55-4a53-9a4e-1d5c0b7e2f10."),
    "invalid_tournament": (400, "levels: a list of 1 to 100 levels"),
    "invalid_payouts": (400, "payouts sum to 90, not 100"),
    "start_in_past": (
        400,
        "start_at 2020-01-05T19:00:00Z is in the past (it is 2026-12-01T12:00:00Z); choose a later start.",
    ),
    "already_registered": (409, "7 is registered"),
    "not_registered": (409, "7 is not registered"),
    "registration_closed": (409, "registration is closed"),
    "tournament_full": (409, "60 entrants are registered"),
    "tournament_started": (409, "the tournament is running"),
    "tournament_over": (409, "the tournament is complete"),
    "not_enough_entrants": (409, "3 entrants, at least 6 needed"),
    "tournament_already_open": (409, "the tournament exists already"),
    # the audit API
    "unknown_deal": (404, "Table 0b7f3c9e-… has no deal 12."),
    "version_not_in_deal": (404, "Version 40 is not an event of deal 3 (versions 12 to 31)."),
    "deal_not_finished": (409, "Deal 12 is still being played; its seed is secret until it ends."),
    # disputes and holds
    "unknown_dispute": (404, "No dispute 5b0e6c7a-2f1d-4b8e-9c3a-7d6e5f4a3b21."),
    "unknown_dispute_subject": (404, "No cashier transaction at position 42."),
    "not_a_party": (403, "You may dispute only a deal you played or a transaction of your bankroll."),
    "party_cannot_decide": (403, "You are a party to this dispute; another auditor must decide it."),
    "dispute_exists": (409, "You have disputed deal 3 at table 0b7f3c9e-… already."),
    "dispute_window_closed": (409, "Disputes on deal 3 at table 0b7f… closed at 2026-12-08T12:00:00+00:00."),
    "dispute_closed": (409, "The dispute is rejected."),
    "hold_exists": (409, "This dispute holds chips already."),
    "hold_exceeds_balance": (409, "player:7 has 60 chips available; cannot hold 80."),
    "funds_held": (409, "player:7 holds 100 chips, of which 80 are held by disputes; 20 are available."),
    "invalid_correction": (400, "house is not an account of this dispute."),
    # checkpoints
    "unknown_checkpoint": (404, "No checkpoint 12."),
}

# Codes many operations share, for `problem_responses(...)`.
AUTH_PROBLEMS = ("not_authenticated", "forbidden")
BODY_PROBLEMS = ("malformed_request", "invalid_input", "unsupported_media_type")


def status_of(code: str) -> int:
    """The HTTP status of a problem code (409 for a code the table lacks)."""
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
    code = serializers.CharField(help_text="Stable machine-readable error code.")
    detail = serializers.CharField()
    errors = serializers.JSONField(
        required=False, help_text="For `invalid_input`: the errors of each field, by field name."
    )


def problem_responses(*codes: str) -> dict[tuple[int, str], OpenApiResponse]:
    """OpenAPI responses for the given problem codes, grouped by status, one example per code, as
    `application/problem+json` (what the server sends). An operation that can answer
    `not_authenticated` can also answer `authentication_failed` (a bad or expired token)."""
    if "not_authenticated" in codes:
        codes = tuple(dict.fromkeys((*codes, "authentication_failed")))
    by_status: dict[int, list[str]] = {}
    for code in codes:
        status, _ = PROBLEM_STATUS[code]
        by_status.setdefault(status, []).append(code)
    return {
        (status, PROBLEM_CONTENT_TYPE): _problem_openapi_response(status, status_codes)
        for status, status_codes in sorted(by_status.items())
    }


def _problem_openapi_response(status: int, codes: list[str]) -> OpenApiResponse:
    examples = [
        OpenApiExample(
            code,
            value=problem_body(status, code, PROBLEM_STATUS[code][1]),
            response_only=True,
            status_codes=[str(status)],
        )
        for code in codes
    ]
    description = "Problem details; `code` is one of: " + ", ".join(f"`{code}`" for code in codes)
    return OpenApiResponse(response=ProblemSerializer, description=description, examples=examples)
