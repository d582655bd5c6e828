"""RFC 9457 problem details: the one shape every API error takes, with a stable `code`.

Services and views raise `Problem`; DRF's own exceptions are translated here, so no error
escapes as HTML or as a 500 for bad input. A database outage is 503 `service_unavailable` with
`Retry-After`, in DRF views and (through handler500) everywhere else.
"""
from __future__ import annotations

import logging
import sys
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

PROBLEM_CONTENT_TYPE = "application/problem+json"
# The database is unreachable or dropped the connection mid-request: a retry may well succeed.
# Django wraps its driver's errors; ledger.dbapi's raw psycopg cursors raise psycopg's own.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
DATABASE_RETRY_AFTER = 1   # seconds: connections are re-checked on every request, so retry soon
logger = logging.getLogger(__name__)


class Problem(Exception):
    """An error with an HTTP status and a machine-readable code (`insufficient_funds`, ...)."""

    def __init__(self, code: str, detail: str, *, status: int = 400, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return problem_body(self.status, self.code, self.detail, **self.extra)


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    title = code.replace("_", " ").capitalize()
    return {"type": f"/problems/{code}", "title": title, "status": status, "code": code,
            "detail": detail, **extra}


def problem_response(status: int, code: str, detail: str, **extra: Any) -> Response:
    return Response(problem_body(status, code, detail, **extra), status=status,
                    content_type=PROBLEM_CONTENT_TYPE)


_DRF_CODES: list[tuple[type[Exception], str]] = [
    (exceptions.ParseError, "malformed_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (Http404, "not_found"),     # DRF answers it as NotFound but hands us the bare Http404
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
]


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error becomes problem+json with a stable code."""
    if isinstance(exc, Problem):
        return Response(exc.body(), status=exc.status, content_type=PROBLEM_CONTENT_TYPE)
    if isinstance(exc, exceptions.ValidationError):
        return problem_response(400, "invalid_input", "The request body is not valid.",
                                errors=exc.detail)
    if isinstance(exc, DATABASE_UNAVAILABLE):
        logger.warning("database unavailable: %s", exc)
        return Response(service_unavailable_body(), status=503, content_type=PROBLEM_CONTENT_TYPE,
                        headers={"Retry-After": str(DATABASE_RETRY_AFTER)})
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = "error"
    for exc_type, exc_code in _DRF_CODES:
        if isinstance(exc, exc_type):
            code = exc_code
            break
    detail = str(getattr(exc, "detail", exc)) or response.status_text
    response.data = problem_body(response.status_code, code, detail)
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def not_found_view(request: HttpRequest, exception: Http404 | None = None) -> JsonResponse:
    """handler404 outside DRF views: still a problem document, not an HTML page."""
    return JsonResponse(problem_body(404, "not_found", "No such resource."), status=404,
                        content_type=PROBLEM_CONTENT_TYPE)


def server_error_view(request: HttpRequest) -> JsonResponse:
    """handler500 (outside DRF views, and errors raised by middleware): a database outage is 503."""
    if isinstance(sys.exc_info()[1], DATABASE_UNAVAILABLE):
        return JsonResponse(service_unavailable_body(), status=503, content_type=PROBLEM_CONTENT_TYPE,
                            headers={"Retry-After": str(DATABASE_RETRY_AFTER)})
    return JsonResponse(problem_body(500, "server_error", "Internal error; it has been logged."),
                        status=500, content_type=PROBLEM_CONTENT_TYPE)


def service_unavailable_body() -> dict[str, Any]:
    detail = f"The database is unavailable; retry after {DATABASE_RETRY_AFTER} s (Retry-After)."
    return problem_body(503, "service_unavailable", detail)


class ProblemSerializer(serializers.Serializer):
    """Schema of an error response (RFC 9457) for the OpenAPI document."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    code = serializers.CharField(help_text="Stable machine-readable error code.")
    detail = serializers.CharField()
    errors = serializers.JSONField(required=False,
                                   help_text="For `invalid_input`: the errors of each field, by field name.")


# The documented problem codes: code -> (HTTP status, an example detail). APIs document the codes
# an operation can answer with `problem_responses(...)`; other apps add theirs with
# `document_problem`.
PROBLEM_CATALOGUE: dict[str, tuple[int, str]] = {
    "malformed_request": (400, "JSON parse error - Expecting value: line 1 column 1 (char 0)"),
    "invalid_input": (400, "The request body is not valid."),
    "invalid_idempotency_key": (400, "Idempotency-Key must be 1 to 255 printable ASCII characters."),
    "invalid_credentials": (400, "Unable to log in with the given username and password."),
    "not_authenticated": (401, "Authentication credentials were not provided."),
    "authentication_failed": (401, "Token expired; log in again."),
    "forbidden": (403, "You do not have permission to perform this action."),
    "not_found": (404, "No such resource."),
    "unknown_player": (404, "No player with id 42."),
    "username_taken": (409, "The username 'alice' is taken."),
    "insufficient_funds": (409, "player:7 holds 100 chips; cannot withdraw 250."),
    "concurrency_conflict": (409, "The stream changed under us too many times; retry the request."),
    "idempotency_in_progress": (409, "A request with this Idempotency-Key is still being processed."),
    "idempotency_key_reused": (422, "This Idempotency-Key was used with a different request."),
    "not_acceptable": (406, "Unknown format 'xyz'; this resource is available as: json, api."),
    "unsupported_media_type": (415, 'Unsupported media type "text/plain" in request.'),
    "throttled": (429, "Too many failed logins for this username. Expected available in 300 seconds."),
    "service_unavailable": (503, "The database is unavailable; retry after 1 s (Retry-After)."),
}


def document_problem(code: str, status: int, example_detail: str) -> None:
    """Add a problem code to the catalogue so `problem_responses` can document it."""
    PROBLEM_CATALOGUE[code] = (status, example_detail)


def problem_responses(*codes: str) -> dict[tuple[int, str], OpenApiResponse]:
    """OpenAPI responses for the given problem codes, grouped by status, one example per code, as
    `application/problem+json` (what the server sends). An operation that can answer
    `not_authenticated` can also answer `authentication_failed` (a bad or expired token)."""
    if "not_authenticated" in codes:
        codes = tuple(dict.fromkeys((*codes, "authentication_failed")))
    by_status: dict[int, list[str]] = {}
    for code in codes:
        status, _ = PROBLEM_CATALOGUE[code]
        by_status.setdefault(status, []).append(code)
    return {(status, PROBLEM_CONTENT_TYPE): _problem_openapi_response(status, status_codes)
            for status, status_codes in sorted(by_status.items())}


def _problem_openapi_response(status: int, codes: list[str]) -> OpenApiResponse:
    examples = [
        OpenApiExample(code, value=problem_body(status, code, PROBLEM_CATALOGUE[code][1]),
                       response_only=True, status_codes=[str(status)])
        for code in codes
    ]
    description = "Problem details; `code` is one of: " + ", ".join(f"`{code}`" for code in codes)
    return OpenApiResponse(response=ProblemSerializer, description=description, examples=examples)
