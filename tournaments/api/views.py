"""Tournaments API views: parse, call the service or selector, serialise.

Club admins create, start and cancel; any signed-in user lists and reads; a player registers and
unregisters himself, a club admin may name the player. Every POST is `@idempotent`. Problem codes:
http_edge.api.errors.PROBLEM_STATUS (docs/api.md, "Tournaments").
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.conditional import etag
from http_edge.api.errors import AUTH_PROBLEMS, BODY_PROBLEMS, Problem, problem_responses
from http_edge.api.input import ChipAmountField, JsonIntegerField, validated, validated_query
from http_edge.api.paging import PageQuerySerializer, page_serializer, paginate
from http_edge.api.parsers import JSONParser
from http_edge.api.permissions import IsClubAdmin
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent, request_meta
from http_edge.roles import is_club_admin, player_id_of
from tournaments import selectors, service
from tournaments.api import examples
from tournaments.api.serializers import TournamentDetailSerializer, TournamentSummarySerializer

MAX_CHIPS = 10**12
COMMON = (*BODY_PROBLEMS, *AUTH_PROBLEMS, "unknown_tournament", "concurrency_conflict", *IDEMPOTENCY_PROBLEMS)


def detail_response(tournament_id: str, *, code: int = 200) -> Response:
    body = selectors.tournament_detail(tournament_id=tournament_id, now=timezone.now())
    return Response(body, status=code, headers={"ETag": etag(body["version"])})


def operation(
    operation_id: str,
    summary: str,
    request: Any,
    problems: tuple[str, ...],
    *,
    code: int = 200,
    example: dict[str, Any] | None = None,
) -> Any:
    request_examples = [OpenApiExample(summary, value=example, request_only=True)] if example else []
    return extend_schema(
        operation_id=operation_id,
        tags=["tournaments"],
        summary=summary,
        request=request,
        responses={code: TournamentDetailSerializer, **problem_responses(*COMMON, *problems)},
        examples=[
            *request_examples,
            OpenApiExample(
                "The tournament after it", value=examples.DETAIL, response_only=True, status_codes=[str(code)]
            ),
        ],
    )


class LevelSerializer(serializers.Serializer):
    ante = ChipAmountField(max_value=MAX_CHIPS)
    minutes = JsonIntegerField(min_value=1, max_value=7 * 24 * 60)

    class Meta:
        ref_name = "TournamentLevel"


class TournamentListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(choices=list(selectors.STATUSES), required=False)

    class Meta:
        ref_name = "TournamentListQuery"


class TournamentCollectionApi(APIView):
    """Tournaments: club admins create them; any signed-in user lists them."""

    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        variant = serializers.CharField(max_length=50, help_text="A name from GET /variants.")
        options = serializers.DictField(
            required=False, default=dict, help_text="Table options but seats and ante (the tournament's)."
        )
        buy_in = ChipAmountField(min_value=0, max_value=MAX_CHIPS, help_text="Cash chips to the prize pool.")
        fee = ChipAmountField(
            min_value=0, max_value=MAX_CHIPS, default=0, help_text="Cash chips to the house."
        )
        starting_chips = ChipAmountField(max_value=MAX_CHIPS, help_text="Tournament chips per entrant.")
        seats_per_table = JsonIntegerField(min_value=2, max_value=100)
        min_entrants = JsonIntegerField(min_value=2, max_value=10_000)
        max_entrants = JsonIntegerField(min_value=2, max_value=10_000)
        start_at = serializers.DateTimeField(
            help_text="When it starts: not in the past (400 `start_in_past`)."
        )
        levels = serializers.ListField(child=LevelSerializer(), min_length=1, max_length=100)
        late_registration_level = JsonIntegerField(min_value=0, max_value=100, default=0)
        payouts = serializers.ListField(
            child=JsonIntegerField(min_value=0, max_value=100),
            min_length=1,
            max_length=10_000,
            help_text="Whole percentages by place, summing to 100.",
        )
        pause_seconds = JsonIntegerField(min_value=0, max_value=3600, default=0)
        cancel_settlement = serializers.ChoiceField(
            choices=["chip_chop", "refund"],
            default="chip_chop",
            help_text="If cancelled after the start: chip_chop (every buy-in back before any "
            "elimination; after one, the prize pool not yet won shared by chips among the "
            "players still in) or refund (every buy-in back). Fees follow the club's "
            "setting, recorded at creation.",
        )

        class Meta:
            ref_name = "TournamentCreateInput"

    def get_permissions(self) -> list[BasePermission]:
        return [IsClubAdmin()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(
        operation_id="tournaments_list",
        summary="List tournaments",
        tags=["tournaments"],
        parameters=[TournamentListQuerySerializer],
        responses={
            200: page_serializer(TournamentSummarySerializer, "TournamentPage"),
            **problem_responses("not_authenticated", "invalid_query"),
        },
    )
    def get(self, request: Request) -> Response:
        query = validated_query(TournamentListQuerySerializer, request)
        rows = selectors.tournament_list(status=query.get("status"))
        paginator, page = paginate(rows, request, query=query)
        return paginator.get_paginated_response(TournamentSummarySerializer(page, many=True).data)

    @operation(
        "tournaments_create",
        "Create a tournament",
        InputSerializer,
        ("invalid_tournament", "invalid_payouts", "invalid_option", "unknown_variant", "start_in_past"),
        code=201,
        example=examples.CREATE,
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = dict(validated(self.InputSerializer, request))
        data["start_at"] = data["start_at"].isoformat()
        data["levels"] = [dict(level) for level in data["levels"]]
        result = service.tournament_create(fields=data, meta=request_meta(request), refuse_past_start=True)
        return detail_response(result.tournament_id, code=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="Get a tournament",
        tags=["tournaments"],
        responses={
            200: TournamentDetailSerializer,
            **problem_responses("not_authenticated", "unknown_tournament"),
        },
        examples=[
            OpenApiExample(
                "A running tournament", value=examples.DETAIL, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return detail_response(str(tournament_id))


class PlayerInputSerializer(serializers.Serializer):
    player_id = JsonIntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        help_text="Club admins only: the player to (un)register; a player always acts for himself.",
    )

    class Meta:
        ref_name = "TournamentPlayerInput"


def acting_player(request: Request, data: dict[str, Any]) -> int:
    """The caller, or for a club admin the player he names."""
    named = data.get("player_id")
    if named is not None and is_club_admin(request.user):
        return int(named)
    player = player_id_of(request.user)
    if player is None or (named is not None and named != player):
        raise Problem("forbidden", "Players register themselves; club admins may name a player.")
    return player


class RegistrationsApi(APIView):
    parser_classes = (JSONParser,)
    permission_classes = (IsAuthenticated,)

    @operation(
        "tournaments_registrations_create",
        "Register",
        PlayerInputSerializer,
        (
            "forbidden",
            "unknown_player",
            "insufficient_funds",
            "already_registered",
            "registration_closed",
            "tournament_full",
            "tournament_over",
        ),
        code=201,
    )
    @idempotent
    def post(self, request: Request, tournament_id: str) -> Response:
        data = validated(PlayerInputSerializer, request)
        service.tournament_register(
            tournament_id=str(tournament_id),
            player_id=acting_player(request, data),
            meta=request_meta(request),
        )
        return detail_response(str(tournament_id), code=status.HTTP_201_CREATED)


class UnregisterApi(APIView):
    parser_classes = (JSONParser,)
    permission_classes = (IsAuthenticated,)

    @operation(
        "tournaments_unregister_create",
        "Unregister (refunds buy-in and fee)",
        PlayerInputSerializer,
        ("forbidden", "not_registered", "registration_closed", "tournament_over"),
    )
    @idempotent
    def post(self, request: Request, tournament_id: str) -> Response:
        data = validated(PlayerInputSerializer, request)
        service.tournament_unregister(
            tournament_id=str(tournament_id),
            player_id=acting_player(request, data),
            meta=request_meta(request),
        )
        return detail_response(str(tournament_id))


class StartApi(APIView):
    parser_classes = (JSONParser,)
    permission_classes = (IsClubAdmin,)

    @operation(
        "tournaments_start_create",
        "Start now",
        None,
        ("not_enough_entrants", "tournament_started", "tournament_over"),
    )
    @idempotent
    def post(self, request: Request, tournament_id: str) -> Response:
        service.tournament_start(tournament_id=str(tournament_id), meta=request_meta(request))
        return detail_response(str(tournament_id))


class CancelApi(APIView):
    parser_classes = (JSONParser,)
    permission_classes = (IsClubAdmin,)

    @operation(
        "tournaments_cancel_create",
        "Cancel: before the start, every buy-in and fee back; "
        "running, no new deals, the tables finish theirs, then the settlement",
        None,
        ("tournament_over",),
    )
    @idempotent
    def post(self, request: Request, tournament_id: str) -> Response:
        service.tournament_cancel(tournament_id=str(tournament_id), meta=request_meta(request))
        return detail_response(str(tournament_id))
