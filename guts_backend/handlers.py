"""Every error becomes problem+json (http_edge.api.errors): DRF's exception handler and Django's
404 and 500 views.

Domain errors (the services' `ledger.errors.DomainError`, the rules engine's `DomainError`) are
rendered with the status their code maps to; `Problem`s of the HTTP layer likewise; DRF's own
exceptions get a stable code; a database outage is 503 `service_unavailable` with `Retry-After`, in
DRF views and (through handler500) everywhere else. So no error escapes as HTML, and bad input is
never a 500.

This module, unlike `errors`, knows the apps' error types, so only settings and URL confs name it
(by string): the ledger's API imports `errors` without importing the tables app.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from http_edge.api.errors import (
    PROBLEM_CONTENT_TYPE,
    Problem,
    problem_body,
    problem_response,
    refusal_response,
)
from http_edge.authentication import not_authenticated_detail
from http_edge.roles import player_id_of
from ledger.errors import DomainError
from ledger.names import player_name
from tables.engine.decider import errors as rules

DOMAIN_ERRORS = (DomainError, rules.DomainError)
# The database is unreachable or dropped the connection mid-request: a retry may well succeed.
# Django wraps its driver's errors; ledger.dbapi's raw psycopg cursors raise psycopg's own.
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
DATABASE_RETRY_AFTER = 1  # seconds: connections are re-checked on every request, so retry soon
logger = logging.getLogger(__name__)

_DRF_CODES: list[tuple[type[Exception], str]] = [
    (exceptions.ParseError, "malformed_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (Http404, "not_found"),  # DRF answers it as NotFound but hands us the bare Http404
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
]


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every error becomes problem+json with a stable code."""
    if isinstance(exc, DOMAIN_ERRORS):
        message, detail = str(exc), exc.detail
        if context.get("request") is not None:  # the names live in the database: only for requests
            message, detail = named_refusal(message, detail, caller=player_id_of(context["request"].user))
        return refusal_response(exc.code, message, detail)
    if isinstance(exc, Problem):
        return Response(exc.body(), status=exc.status, content_type=PROBLEM_CONTENT_TYPE)
    if isinstance(exc, exceptions.ValidationError):
        return problem_response(400, "invalid_input", "The request body is not valid.", errors=exc.detail)
    if isinstance(exc, DATABASE_UNAVAILABLE):
        logger.warning("database unavailable: %s", exc)
        return Response(
            service_unavailable_body(),
            status=503,
            content_type=PROBLEM_CONTENT_TYPE,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
        )
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = "error"
    for exc_type, exc_code in _DRF_CODES:
        if isinstance(exc, exc_type):
            code = exc_code
            break
    detail = str(getattr(exc, "detail", exc)) or response.status_text
    if code == "not_authenticated":  # say how to authenticate (and what was wrong with the header)
        detail = not_authenticated_detail(context.get("request"))
    response.data = problem_body(response.status_code, code, detail)
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


# Where a refusal's message names a player by id: "it is not 7's turn", "7 is not seated".
_POSSESSIVE = r"(?<![\w:-])({id})(?='s\b)"
_SUBJECT = r"^({id})(?= (?:is|has|already)\b)"


def named_refusal(
    message: str, detail: Mapping[str, Any], *, caller: int | None
) -> tuple[str, dict[str, Any]]:
    """A refusal about a player, told with his display name: the player its details name (else
    the caller, when the message speaks of him) is named in the message in place of his id, and
    `player` and `player_name` are added to the details."""
    detail = dict(detail)
    named = detail.get("player")
    candidates = [str(named)] if isinstance(named, str | int) else []
    if caller is not None and str(caller) not in candidates:
        candidates.append(str(caller))
    for player in candidates:
        patterns = [pattern.format(id=re.escape(player)) for pattern in (_POSSESSIVE, _SUBJECT)]
        if player != str(named) and not any(re.search(p, message) for p in patterns):
            continue
        name = player_name(player)
        if name is None:
            continue
        for pattern in patterns:
            message = re.sub(pattern, lambda _, name=name: name, message)  # the name taken literally
        detail.setdefault("player", player)
        detail["player_name"] = name
        break
    return message, detail


def not_found_view(request: HttpRequest, exception: Http404 | None = None) -> JsonResponse:
    """handler404 outside DRF views: still a problem document, not an HTML page."""
    return JsonResponse(
        problem_body(404, "not_found", "No such resource."), status=404, content_type=PROBLEM_CONTENT_TYPE
    )


def server_error_view(request: HttpRequest) -> JsonResponse:
    """handler500 (outside DRF views, and errors raised by middleware): a database outage is 503."""
    if isinstance(sys.exc_info()[1], DATABASE_UNAVAILABLE):
        return JsonResponse(
            service_unavailable_body(),
            status=503,
            content_type=PROBLEM_CONTENT_TYPE,
            headers={"Retry-After": str(DATABASE_RETRY_AFTER)},
        )
    return JsonResponse(
        problem_body(500, "server_error", "Internal error; it has been logged."),
        status=500,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def service_unavailable_body() -> dict[str, Any]:
    detail = f"The database is unavailable; retry after {DATABASE_RETRY_AFTER} s (Retry-After)."
    return problem_body(503, "service_unavailable", detail)
