"""`Authorization: Bearer <key>` (what generated clients send) or `Authorization: Token <key>`,
checked against the API tokens of `http_edge.tokens`.

DRF's TokenAuthentication parses the header; only the schemes and the lookup are ours, so
expired and revoked tokens answer 401 `authentication_failed`. The lookup is served by the
per-process auth cache in the common case (`http_edge.principal`): no query for the token, the
user or the user's roles, which the user object carries for every role check.

A request with no credentials, or with a scheme this API does not read (`Basic ...`), is 401
`not_authenticated` whose detail says how to authenticate (`AUTH_HINT`; the handler reads the
scheme noted on the request). The OpenAPI document declares both header schemes (`bearerAuth`,
`tokenAuth`), either of which will do.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.request import Request

from http_edge.tokens import token_authenticate

SCHEMES = ("bearer", "token")  # compared case-insensitively, as RFC 9110 says schemes are
AUTH_HINT = (
    "Send `Authorization: Bearer <token>` (or `Authorization: Token <token>`); "
    "get a token from POST /api/v1/auth/token with your username and password."
)
UNREAD_SCHEME = "_guts_unread_auth_scheme"


class ApiTokenAuthentication(TokenAuthentication):
    """The header scheme of every API view; `request.auth` is the `ApiToken` used, `request.user`
    its user (a fresh instance per request, password deferred, roles attached)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = get_authorization_header(request).split()
        if words and words[0].lower().decode(errors="replace") not in SCHEMES:
            setattr(request, UNREAD_SCHEME, words[0].decode(errors="replace")[:20])
            return None  # another authenticator may read it (none does): then 401 with the hint
        self.keyword = words[0].decode().capitalize() if words else "Token"
        return super().authenticate(request)

    def authenticate_header(self, request: Request) -> str:
        """The challenge of a 401: Bearer to a client that sent Bearer, else Token."""
        words = get_authorization_header(request).split()
        return "Bearer" if words and words[0].lower() == b"bearer" else "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = token_authenticate(key)
        return token.user, token


def not_authenticated_detail(request: Any) -> str:
    """What a 401 `not_authenticated` says: what was wrong and how to authenticate."""
    scheme = getattr(request, UNREAD_SCHEME, None) if request is not None else None
    if scheme is not None:
        return f"The Authorization scheme {scheme!r} is not accepted here. {AUTH_HINT}"
    return f"Authentication credentials were not provided. {AUTH_HINT}"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Both header schemes in the OpenAPI document, as alternatives (either one authenticates)."""

    target_class = "http_edge.authentication.ApiTokenAuthentication"
    name = ["bearerAuth", "tokenAuth"]
    priority = 1  # over drf-spectacular's own TokenAuthentication scheme

    def get_security_definition(self, auto_schema: Any) -> list[dict[str, str]]:
        return [
            {
                "type": "http",
                "scheme": "bearer",
                "description": "`Authorization: Bearer <token>`, a token from POST /api/v1/auth/token.",
            },
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": 'The same token with the prefix "Token": `Authorization: Token <token>`.',
            },
        ]

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, list[Any]]]:
        return [{"bearerAuth": []}, {"tokenAuth": []}]
