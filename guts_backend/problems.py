"""RFC 9457 problem details: the one shape every API error takes, with a stable `code`.

Services and views raise `Problem`; DRF's own exceptions are translated here, so no error
escapes as HTML or as a 500 for bad input.
"""
from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

PROBLEM_CONTENT_TYPE = "application/problem+json"


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


_DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "malformed_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
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
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = "error"
    for exc_type, exc_code in _DRF_CODES:
        if isinstance(exc, exc_type):
            code = exc_code
            break
    detail = str(getattr(exc, "detail", exc))
    response.data = problem_body(response.status_code, code, detail)
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def not_found_view(request: HttpRequest, exception: Http404 | None = None) -> JsonResponse:
    """handler404 outside DRF views: still a problem document, not an HTML page."""
    return JsonResponse(problem_body(404, "not_found", "No such resource."), status=404,
                        content_type=PROBLEM_CONTENT_TYPE)


def server_error_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse(problem_body(500, "server_error", "Internal error; it has been logged."),
                        status=500, content_type=PROBLEM_CONTENT_TYPE)


class ProblemSerializer(serializers.Serializer):
    """Schema of an error response (RFC 9457) for the OpenAPI document."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    code = serializers.CharField(help_text="Stable machine-readable error code.")
    detail = serializers.CharField()
