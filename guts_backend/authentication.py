"""`Authorization: Token <key>` checked against the API tokens of `guts_backend.tokens`.

DRF's TokenAuthentication parses the header (and keeps its OpenAPI scheme, `tokenAuth`); only
the lookup is ours, so expired and revoked tokens answer 401 `authentication_failed`. The lookup
is served by the per-process auth cache in the common case (`guts_backend.principal`): no query
for the token, the user or the user's roles, which the user object carries for every role check.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import TokenAuthentication

from guts_backend.tokens import token_authenticate


class ApiTokenAuthentication(TokenAuthentication):
    """The header scheme of every API view; `request.auth` is the `ApiToken` used, `request.user`
    its user (a fresh instance per request, password deferred, roles attached)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = token_authenticate(key)
        return token.user, token
