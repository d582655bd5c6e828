"""Token authentication from the query string, for the SSE stream only.

Browsers' EventSource cannot set an Authorization header, so `GET .../stream?token=<token>` is
accepted too. Tokens in URLs reach access logs: front ends that can send headers should.
The key is resolved by `http_edge.tokens.token_authenticate`, as for the header.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.request import Request

from http_edge.authentication import ApiTokenAuthentication


class QueryTokenAuthentication(ApiTokenAuthentication):
    """`?token=<key>` when no Authorization header was sent."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        key = request.query_params.get("token")
        if not key:
            return None
        return self.authenticate_credentials(key)


class QueryTokenScheme(OpenApiAuthenticationExtension):
    """Documents `?token=` as an API-key scheme in the OpenAPI document."""

    target_class = "tables.audit.authentication.QueryTokenAuthentication"
    name = "queryTokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": "token",
            "description": "The API token in the query string (for EventSource).",
        }
