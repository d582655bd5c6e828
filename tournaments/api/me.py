"""`GET /me/tournaments`, and one tournament live: `GET /tournaments/{id}/stream` and its tickets.

The stream's views are the tournament detail (as `GET /tournaments/{id}`) and each of its playing
tables as `GET /tables/{id}` shows them to the caller (tournaments.me); the streaming itself is
`tables.api.streams`.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.errors import problem_responses
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent
from tables.api.me import TICKET_EXAMPLE, StreamTicketSerializer, listing_serializer, ticket_response
from tables.api.me_examples import sse_text
from tables.api.streams import (
    STREAM_AUTHENTICATION,
    STREAM_RENDERERS,
    ViewSource,
    view_stream_schema,
)
from tables.audit.sse import stream_response
from tables.selectors import viewer_of
from tournaments.api import examples
from tournaments.me import my_tournaments_body, tournament_snapshot
from tournaments.service import tournament_get

TOURNAMENT_ID = OpenApiParameter("tournament_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
ENTRIES = ["registered", "waiting", "playing", "eliminated", "winner", "chopped", "refunded"]


class MyTournamentSerializer(serializers.Serializer):
    """One tournament I registered for, and where I am in it."""

    tournament_id = serializers.UUIDField()
    name = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.CharField(
        help_text="The tournament's status: registering | running | cancelling | complete | cancelled "
        "(as TournamentDetail.status)."
    )
    version = serializers.IntegerField(help_text="The tournament stream's version (its ETag).")
    start_at = serializers.DateTimeField()
    entry = serializers.ChoiceField(
        choices=ENTRIES,
        help_text="Mine: registered (before the start), waiting (late, for a seat), playing, "
        "eliminated, winner, chopped (shared by chips at a cancellation), refunded.",
    )
    place = serializers.IntegerField(allow_null=True, help_text="My place once out (or at the end).")
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="[first, last] of a shared place."
    )
    chips = serializers.IntegerField(allow_null=True, help_text="My tournament chips.")
    prize = serializers.IntegerField(allow_null=True, help_text="What the prize pool paid me.")
    table_id = serializers.UUIDField(allow_null=True, help_text="The table I sit at (null: none).")
    seat = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "MyTournament"


MyTournamentsSerializer = listing_serializer(MyTournamentSerializer, "MyTournaments")


MY_TOURNAMENT = {
    "tournament_id": examples.DETAIL["tournament_id"],
    "name": "Sunday",
    "variant": "guts2",
    "status": "running",
    "version": examples.DETAIL["version"],
    "start_at": "2026-12-01T01:00:00Z",
    "entry": "playing",
    "place": None,
    "places": None,
    "chips": 1040,
    "prize": None,
    "table_id": "6f1c0c52-8d7e-4c3b-9a51-3d2f0e9b7a10",
    "seat": 2,
}


class MyTournamentsApi(APIView):
    """My tournaments: their status, mine, my place, chips, table and seat (unfinished first)."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="me_tournaments_list",
        tags=["me"],
        summary="My tournaments",
        responses={200: MyTournamentsSerializer, **problem_responses("not_authenticated")},
        examples=[
            OpenApiExample(
                "Playing one",
                value={"count": 1, "results": [MY_TOURNAMENT]},
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(MyTournamentsSerializer(my_tournaments_body(request.user)).data)


TOURNAMENT_EVENTS = {
    "tournament": "TournamentDetail, as GET /tournaments/{id}",
    "table": "Table, one of its playing tables as GET /tables/{id} shows it to me",
}


class TournamentStreamApi(APIView):
    """A tournament, live (Server-Sent Events): its detail (standings, levels, tables, results) and
    each of its playing tables as you may see it, each sent again whenever it changes."""

    authentication_classes = STREAM_AUTHENTICATION
    renderer_classes = STREAM_RENDERERS
    permission_classes = (IsAuthenticated,)

    @staticmethod
    def ticket_scope(kwargs: dict[str, Any]) -> str:
        return f"tournament:{kwargs.get('tournament_id')}"

    @extend_schema(
        operation_id="tournaments_stream",
        tags=["tournaments"],
        summary="A tournament, live (SSE)",
        parameters=[TOURNAMENT_ID],
        responses={
            (200, "text/event-stream"): view_stream_schema(
                TOURNAMENT_EVENTS, sse_text(("tournament", examples.DETAIL))
            ),
            **problem_responses("not_authenticated", "unknown_tournament", "not_acceptable"),
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> Any:
        tournament_get(tournament_id=str(tournament_id))  # 404 unknown_tournament before streaming
        viewer = viewer_of(request.user)

        def snapshot() -> Any:
            return tournament_snapshot(tournament_id=str(tournament_id), viewer=viewer, now=timezone.now())

        return stream_response(request, ViewSource(snapshot))


class TournamentStreamTicketApi(APIView):
    """A ticket that opens this tournament's stream for a minute (`?ticket=`)."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="tournaments_stream_tickets_create",
        tags=["tournaments"],
        summary="A ticket for a tournament's stream",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={
            201: StreamTicketSerializer,
            **problem_responses("not_authenticated", "unknown_tournament", *IDEMPOTENCY_PROBLEMS),
        },
        examples=[OpenApiExample("A ticket", response_only=True, status_codes=["201"], value=TICKET_EXAMPLE)],
    )
    @idempotent
    def post(self, request: Request, tournament_id: UUID) -> Response:
        tournament_get(tournament_id=str(tournament_id))
        path = reverse("tournament-stream", kwargs={"tournament_id": tournament_id})
        return ticket_response(request, scope=f"tournament:{tournament_id}", path=path)
