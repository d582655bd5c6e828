"""`GET /me/seats` and the user's own live stream `GET /me/stream` ("my tables"), with its tickets.

Both read `tables.me` (my tables' views as `GET /tables/{id}` shows them to me); the stream adds
the parts other apps register (`tables.me.register_me_part`: the tournaments app's `tournaments`).
"""

from __future__ import annotations

import copy
from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.errors import problem_responses
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent
from tables.api import me_examples as examples
from tables.api.serializers import SeatSerializer, TableOutputSerializer
from tables.api.streams import (
    STREAM_AUTHENTICATION,
    STREAM_RENDERERS,
    ViewSource,
    view_stream_schema,
)
from tables.audit.sse import stream_response
from tables.audit.tickets import scoped_ticket_issue
from tables.me import me_snapshot, my_table_views, seats_body

TAGS = ["me"]


def same_as(serializer: type[serializers.Serializer], name: str, **changes: Any) -> serializers.Field:
    """A field exactly as `serializer` declares it (so this schema follows the table view's)."""
    field = copy.deepcopy(serializer._declared_fields[name])
    field._kwargs.update(changes)  # DRF copies a field from its arguments: change those
    return copy.deepcopy(field)


class MySeatSerializer(serializers.Serializer):
    """One of my tables: where I sit, whose turn it is, by when I must act and what I may do."""

    table_id = same_as(TableOutputSerializer, "table_id")
    name = same_as(TableOutputSerializer, "name")
    version = same_as(TableOutputSerializer, "version")
    variant = same_as(TableOutputSerializer, "variant")
    tournament_id = same_as(TableOutputSerializer, "tournament_id")
    tournament_name = same_as(TableOutputSerializer, "tournament_name")
    unit = same_as(TableOutputSerializer, "unit")
    seat = same_as(SeatSerializer, "seat")
    stack = same_as(SeatSerializer, "stack")
    sitting_out = same_as(SeatSerializer, "sitting_out")
    phase = same_as(TableOutputSerializer, "phase")
    deal_no = same_as(TableOutputSerializer, "deal_no")
    pot = same_as(TableOutputSerializer, "pot")
    turn = same_as(TableOutputSerializer, "turn", help_text="Whose turn it is (players awaited).")
    my_turn = serializers.BooleanField(help_text="Whether I am among them.")
    deadline = same_as(TableOutputSerializer, "deadline")
    my_deadline = same_as(
        TableOutputSerializer,
        "deadline",
        help_text="By when I must act: the earliest deadline of my legal actions (null: none).",
    )
    legal_actions = same_as(TableOutputSerializer, "legal_actions")
    names = same_as(
        TableOutputSerializer, "names", help_text="{player id: display name} of the turn's players."
    )

    class Meta:
        ref_name = "MySeat"


def listing_serializer(child: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """`{count, results}`: a short list of the caller's own, served whole (no pages)."""
    meta = type("Meta", (), {"ref_name": name})
    fields = {"count": serializers.IntegerField(), "results": child(many=True), "Meta": meta}
    return type(f"{name}Serializer", (serializers.Serializer,), fields)


MySeatsSerializer = listing_serializer(MySeatSerializer, "MySeats")


class MySeatsApi(APIView):
    """My tables: variant, seat, stack, whose turn, my deadline and my legal actions (the same as
    each table's view shows me). Where I must act come first, soonest deadline first."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="me_seats_list",
        tags=TAGS,
        summary="My seats",
        responses={200: MySeatsSerializer, **problem_responses("not_authenticated")},
        examples=[
            OpenApiExample("At one table", value=examples.MY_SEATS, response_only=True, status_codes=["200"])
        ],
    )
    def get(self, request: Request) -> Response:
        # Rendered as the selector built it: the legal actions are the table view's own JSON.
        return Response(seats_body(request.user, my_table_views(request.user, timezone.now())))


ME_EVENTS = {
    "seats": "MySeats, as GET /me/seats",
    "table": "Table, one of my tables as GET /tables/{id} shows it to me",
    "tournaments": "MyTournaments, as GET /me/tournaments",
}


class MyStreamApi(APIView):
    """My tables, live (Server-Sent Events): my seats (my turns, deadlines, legal actions), the view
    of each of my tables (deal results included) and my tournaments (moves to another table),
    each sent again whenever it changes. Redacted exactly as the GET views."""

    authentication_classes = STREAM_AUTHENTICATION
    renderer_classes = STREAM_RENDERERS
    permission_classes = (IsAuthenticated,)

    @staticmethod
    def ticket_scope(kwargs: dict[str, Any]) -> str:
        return "me"

    @extend_schema(
        operation_id="me_stream",
        tags=TAGS,
        summary="My tables, live (SSE)",
        responses={
            (200, "text/event-stream"): view_stream_schema(ME_EVENTS, examples.ME_STREAM_TEXT),
            **problem_responses("not_authenticated", "not_acceptable"),
        },
    )
    def get(self, request: Request) -> Any:
        user = request.user
        return stream_response(request, ViewSource(lambda: me_snapshot(user, timezone.now())))


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="Opaque; pass it as `?ticket=` to the stream.")
    expires_at = serializers.DateTimeField(help_text="Open the stream before this time.")
    stream_url = serializers.CharField(help_text="The stream's path with the ticket in it.")

    class Meta:
        ref_name = "ViewStreamTicket"


def ticket_response(request: Request, *, scope: str, path: str) -> Response:
    """A stream ticket for `scope` and the stream URL that carries it (201)."""
    ticket, expires_at = scoped_ticket_issue(user=request.user, scope=scope)
    body = {"ticket": ticket, "expires_at": expires_at, "stream_url": f"{path}?ticket={ticket}"}
    return Response(StreamTicketSerializer(body).data, status=201)


TICKET_EXAMPLE = {
    "ticket": "eyJ1c2VyIjozLCJzY29wZSI6Im1lIn0:1uQk2T:x7Qm…",
    "expires_at": "2026-11-29T12:01:05.120000Z",
    "stream_url": "/api/v1/me/stream?ticket=eyJ1c2VyIjozLCJzY29wZSI6Im1lIn0:1uQk2T:x7Qm…",
}


class MyStreamTicketApi(APIView):
    """A ticket that opens my stream for a minute (`?ticket=`): EventSource sends no headers, and
    an API token does not belong in a URL."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="me_stream_tickets_create",
        tags=TAGS,
        summary="A ticket for my stream",
        request=None,
        responses={
            201: StreamTicketSerializer,
            **problem_responses("not_authenticated", *IDEMPOTENCY_PROBLEMS),
        },
        examples=[OpenApiExample("A ticket", response_only=True, status_codes=["201"], value=TICKET_EXAMPLE)],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        return ticket_response(request, scope="me", path=reverse("me-stream"))
