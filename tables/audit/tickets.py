"""Stream tickets: short-lived credentials that open one table's SSE stream (`?ticket=`).

`EventSource` cannot send an Authorization header, and a credential in a URL travels where a
header does not (proxy logs, browser history, Referer). So a client asks
`POST /tables/{id}/stream-tickets`, authenticated as usual, and opens
`/tables/{id}/stream?ticket=<ticket>` instead of putting its API token in the URL.

A ticket names its user and table and is signed with SECRET_KEY (`django.core.signing`, with a
salt of its own so no other signed value passes as one); nothing is stored, so every web process
accepts it. It is refused after GUTS_SSE_TICKET_TTL seconds (60), for another table, or once the
user is inactive: 401 `authentication_failed`. It may open several streams within its minute (an
EventSource reconnecting after a network blip), so a leaked ticket is worth at most a minute of
one table's stream, as its user sees it. Access logs never record query strings
(guts_backend.asgi).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

SALT = "guts.tables.stream-ticket"
QUERY_PARAMETER = "ticket"


@dataclass(frozen=True, slots=True)
class StreamTicket:
    """A ticket as handed to its user."""

    ticket: str
    table_id: str
    expires_at: datetime


def ticket_ttl() -> int:
    return int(getattr(settings, "GUTS_SSE_TICKET_TTL", 60))


def stream_ticket_issue(*, user: AbstractBaseUser, table_id: object) -> StreamTicket:
    """A new ticket for `user` to open the stream of `table_id` within the next minute."""
    ticket = signing.dumps({"user": user.pk, "table": str(table_id)}, salt=SALT)
    return StreamTicket(
        ticket=ticket, table_id=str(table_id), expires_at=timezone.now() + timedelta(seconds=ticket_ttl())
    )


def stream_ticket_user(*, ticket: str, table_id: object) -> AbstractBaseUser:
    """The active user a live ticket for `table_id` names; 401 `authentication_failed` otherwise."""
    return _ticket_user(ticket, "table", str(table_id), "This stream ticket is for another table.")


def _ticket_user(ticket: str, claim: str, value: str, elsewhere: str) -> AbstractBaseUser:
    """The active user of a live, genuine ticket whose `claim` is `value` (401 otherwise)."""
    try:
        claims = signing.loads(ticket, salt=SALT, max_age=ticket_ttl())
    except signing.SignatureExpired as error:
        raise AuthenticationFailed("Stream ticket expired; ask for a new one.") from error
    except signing.BadSignature as error:
        raise AuthenticationFailed("Invalid stream ticket.") from error
    if not isinstance(claims, dict) or claims.get(claim) != value:
        raise AuthenticationFailed(elsewhere)
    user = get_user_model().objects.filter(pk=claims.get("user"), is_active=True).first()
    if user is None:
        raise AuthenticationFailed("User inactive or deleted.")
    return user


class StreamTicketAuthentication(BaseAuthentication):
    """`?ticket=<ticket>` on a table's stream (the view's `table_id` must be the ticket's)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        ticket = request.query_params.get(QUERY_PARAMETER)
        if not ticket:
            return None
        table_id = (getattr(request, "parser_context", None) or {}).get("kwargs", {}).get("table_id")
        return stream_ticket_user(ticket=ticket, table_id=table_id), None


class StreamTicketScheme(OpenApiAuthenticationExtension):
    """Documents `?ticket=` as an API-key scheme in the OpenAPI document."""

    target_class = "tables.audit.tickets.StreamTicketAuthentication"
    name = "streamTicketAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": QUERY_PARAMETER,
            "description": "A stream ticket from `POST /api/v1/tables/{table_id}/stream-tickets` "
            "(valid 60 s, for that table only): for EventSource, which cannot "
            "send headers.",
        }


# --- tickets for the live-view streams (a tournament's, the user's own) ---------------------------


def scoped_ticket_issue(*, user: AbstractBaseUser, scope: str) -> tuple[str, datetime]:
    """A new ticket for `user` to open the stream named by `scope` (`me`, `tournament:<id>`)
    within the next minute; (ticket, expires_at). Never valid for a table's stream, nor the reverse."""
    ticket = signing.dumps({"user": user.pk, "scope": scope}, salt=SALT)
    return ticket, timezone.now() + timedelta(seconds=ticket_ttl())


def scoped_ticket_user(*, ticket: str, scope: str) -> AbstractBaseUser:
    """The active user a live ticket for `scope` names; 401 `authentication_failed` otherwise."""
    return _ticket_user(ticket, "scope", scope, "This stream ticket is for another stream.")


class ScopedStreamTicketAuthentication(BaseAuthentication):
    """`?ticket=<ticket>` on a live-view stream; the view names the scope its tickets must carry
    (`ticket_scope(kwargs)`)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        ticket = request.query_params.get(QUERY_PARAMETER)
        if not ticket:
            return None
        context = getattr(request, "parser_context", None) or {}
        scope = context["view"].ticket_scope(context.get("kwargs", {}))
        return scoped_ticket_user(ticket=ticket, scope=scope), None


class ScopedStreamTicketScheme(OpenApiAuthenticationExtension):
    """Documents `?ticket=` on the live-view streams."""

    target_class = "tables.audit.tickets.ScopedStreamTicketAuthentication"
    name = "viewStreamTicketAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": QUERY_PARAMETER,
            "description": "A stream ticket from the stream's `stream-tickets` endpoint "
            "(`POST /api/v1/me/stream-tickets`, `POST /api/v1/tournaments/{id}/stream-tickets`; "
            "valid 60 s, for that stream only): for EventSource, which cannot send headers.",
        }
