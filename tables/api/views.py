"""Tables API views: parse, call a service or selector, serialise. Nothing else lives here.

Every command is one `TableCommandApi`: a subclass names its body (`InputSerializer`), how the
request becomes an engine command (`command`) and its OpenAPI operation (`@command_schema`);
the one `post` validates, calls `service.table_command`, and answers with the fresh table as the
caller may see it, its version as a strong ETag. Every command is `@idempotent` and honours
`If-Match: "<version>"` (412 `stale_version` when the table has moved on). Error codes and their
statuses: `http_edge.api.errors.PROBLEM_STATUS` (reproduced in docs/api.md). The table's own
commands are here; a step kind's is an `ActionApi` of its own module in tables.api.actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.conditional import etag
from http_edge.api.errors import AUTH_PROBLEMS, BODY_PROBLEMS, Problem, problem_responses
from http_edge.api.fields import JsonObjectField, JsonObjectListField
from http_edge.api.input import ChipAmountField, JsonIntegerField, validated, validated_query
from http_edge.api.paging import PAGE_PARAMETERS, PageQuerySerializer, page_serializer, paginate
from http_edge.api.parsers import JSONParser
from http_edge.api.permissions import IsClubAdmin, IsSelfOrAuditorOrAdmin
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent, request_meta
from http_edge.roles import is_club_admin, player_id_of
from tables import selectors, service
from tables.api import examples
from tables.api.long_poll import WAIT_PARAMETER, table_wait
from tables.api.serializers import (
    DealHistorySerializer,
    TableOutputSerializer,
    TableSummarySerializer,
)
from tables.engine.decider import commands as cmd
from tables.engine.variants import variant_catalog

MAX_CHIPS = 10**12
IF_MATCH = OpenApiParameter(
    name="If-Match",
    type=OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description='The table version you acted on, as its ETag (`"12"`). If the table has moved on the '
    "command is refused with 412 `stale_version` and nothing is appended.",
)
# what any step kind's command may answer on top: not his to play now, or not this deal's
TURN_PROBLEMS = ("forbidden", "not_seated", "not_your_turn", "deal_over", "wrong_deal", "no_deal")

COMMAND_PROBLEMS = (
    *BODY_PROBLEMS,
    *AUTH_PROBLEMS,
    "unknown_table",
    "table_closed",
    "stale_version",
    "concurrency_conflict",
    *IDEMPOTENCY_PROBLEMS,
)


def if_match_version(request: Request) -> int | None:
    """The version named by If-Match (None without the header; `*` matches any version)."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise Problem("stale_version", f"If-Match {header!r} names no version of this table.")
    return int(text)


def acting_player(request: Request) -> str:
    """The caller's player id as the engine spells it ("7"); 403 forbidden if not a player."""
    player_id = player_id_of(request.user)
    if player_id is None:
        raise Problem("forbidden", "Only players sit, declare, top up and leave.")
    return str(player_id)


def table_response(result: service.CommandResult, request: Request, *, code: int = 200) -> Response:
    sight = selectors.table_sight(
        state=result.state,
        version=result.version,
        viewer=selectors.viewer_of(request.user),
        now=timezone.now(),
    )
    return sight_response(sight, code=code)


def sight_response(sight: selectors.TableSight, *, code: int = 200) -> Response:
    """The engine's table view is plain JSON already and this is the hot path, so it is rendered
    as is; TableOutputSerializer documents exactly this shape (a test holds them together)."""
    return Response(sight.view, status=code, headers={"ETag": etag(sight.version)})


class SeededInput(serializers.Serializer):
    """A player's command body with his optional entropy for the next committed deck."""

    client_seed = serializers.RegexField(
        r"^[0-9a-fA-F]{32,128}$",
        required=False,
        help_text="Optional: 32 to 128 random hex digits (clients send a fresh one with each action). "
        "Your first seed while the next deal's deck is committed keys its permutation "
        "(docs/deck.md); it stays sealed until that deal starts.",
    )

    class Meta:
        ref_name = "SeededInput"


def client_seed_of(request: Request, data: dict[str, Any]) -> tuple[str, str] | None:
    """(player, seed) when the body carried a client_seed (removed from `data`)."""
    seed = data.pop("client_seed", None)
    return (acting_player(request), seed.lower()) if seed is not None else None


def deal_page(queryset: Any, request: Request, view: APIView) -> Response:
    """One page of deal summaries, each redacted for the caller."""
    paginator, page = paginate(queryset, request)
    viewer = selectors.viewer_of(request.user)
    rows = selectors.deals_json(page, viewer)
    return paginator.get_paginated_response(DealHistorySerializer(rows, many=True).data)


class TableCommandApi(APIView, ABC):
    """Base of the command views (not routed itself); see the module docstring."""

    parser_classes = (JSONParser,)
    InputSerializer: ClassVar[type[serializers.Serializer] | None] = None

    @abstractmethod
    def command(self, request: Request, data: dict[str, Any]) -> service.TableCommand:
        """The engine command this request asks for (the caller and the validated body given)."""

    @idempotent
    def post(self, request: Request, table_id: str) -> Response:
        data = validated(self.InputSerializer, request) if self.InputSerializer is not None else {}
        seed = client_seed_of(request, data)
        result = service.table_command(
            table_id=table_id,
            command=self.command(request, data),
            meta=request_meta(request),
            expected_version=if_match_version(request),
            client_seed=seed,
        )
        return table_response(result, request)


def command_operation(
    operation_id: str,
    summary: str,
    request: Any,
    example: dict[str, Any] | None,
    problems: tuple[str, ...],
    code: int = 200,
) -> Any:
    """The OpenAPI operation of a command: its body, the If-Match header, the table it answers with
    and the problems it may answer (beside the ones every command may)."""
    request_examples = (
        [OpenApiExample(summary, value=example, request_only=True)] if example is not None else []
    )
    return extend_schema(
        operation_id=operation_id,
        tags=["tables"],
        summary=summary,
        request=request,
        parameters=[IF_MATCH],
        responses={code: TableOutputSerializer, **problem_responses(*COMMAND_PROBLEMS, *problems)},
        examples=[
            *request_examples,
            OpenApiExample(
                "The table after it", value=examples.TABLE, response_only=True, status_codes=[str(code)]
            ),
        ],
    )


CommandView = type[TableCommandApi]


def command_schema(
    operation_id: str, summary: str, *, example: dict[str, Any] | None = None, problems: tuple[str, ...] = ()
) -> Callable[[CommandView], CommandView]:
    """Class decorator: the operation of a TableCommandApi's `post`, its body the view's InputSerializer."""

    def decorate(view: CommandView) -> CommandView:
        operation = command_operation(operation_id, summary, view.InputSerializer, example, problems)
        return extend_schema_view(post=operation)(view)

    return decorate


class ActionApi(TableCommandApi):
    """A step kind's command (tables.api.actions, one module each). Beside its body and command it
    names its `route` under tables/{id}/ (URL name `table-<route>`) and describes, in its
    `LegalActionSerializer`, the legal action of the table view that offers it, and in `deal_view`
    the keys its kind adds to the deal view: the urls, the union of legal actions and TableDeal are
    built from these, so a kind's HTTP edge is its one module."""

    route: ClassVar[str]
    LegalActionSerializer: ClassVar[type[serializers.Serializer]]
    deal_view: ClassVar[Mapping[str, serializers.Field]] = {}  # its kind's keys of the deal view


class VariantsApi(APIView):
    """The games a table can play: their programs, options, defaults and options JSON schema."""

    permission_classes = (IsAuthenticated,)

    class OutputSerializer(serializers.Serializer):
        name = serializers.CharField()
        title = serializers.CharField()
        rules = serializers.CharField()
        deck = serializers.CharField()
        cards_per_player = serializers.IntegerField()
        max_seats = serializers.IntegerField()
        game_ends = serializers.CharField()
        new_players_wait = serializers.BooleanField(
            help_text="Players seated during a game (a Monte Carlo round) are dealt in from the next (MC-07)."
        )
        min_buy_in_antes = serializers.IntegerField(
            help_text="The smallest buy-in in antes, 0 = no such rule (MC-08: 100)."
        )
        stages = JsonObjectListField()
        options = JsonObjectListField()
        defaults = JsonObjectField()
        options_schema = JsonObjectField()

        class Meta:
            ref_name = "Variant"

    @extend_schema(
        operation_id="variants_list",
        summary="List the variants (games) a table can play",
        tags=["tables"],
        responses={200: OutputSerializer(many=True), **problem_responses("not_authenticated")},
        examples=[
            OpenApiExample("Two-card Guts", value=examples.VARIANT, response_only=True, status_codes=["200"])
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer(variant_catalog(), many=True).data)


class TableListQuerySerializer(PageQuerySerializer):
    status = serializers.ChoiceField(
        choices=list(selectors.TABLE_STATUSES), required=False, help_text="Only tables of this status."
    )

    class Meta:
        ref_name = "TableListQuery"


class TableCollectionApi(APIView):
    """Tables: club admins open them; any signed-in user lists them."""

    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        variant = serializers.CharField(max_length=50, help_text="A name from GET /variants.")
        name = serializers.CharField(
            max_length=100,
            required=False,
            help_text="What people call the table; default: the variant's title and a number (\"Two-card "
            'Guts #3").',
        )
        options = serializers.DictField(
            required=False, default=dict, help_text="Table options (stakes included); see GET /variants."
        )
        stacked_decks = serializers.ListField(
            child=serializers.ListField(child=serializers.CharField(max_length=4), max_length=52),
            required=False,
            allow_null=True,
            default=None,
            max_length=1000,
            help_text="Only while the server setting GUTS_ALLOW_STACKED_DECKS is on: card orders, "
            "deal n uses deck (n-1) mod len.",
        )

        class Meta:
            ref_name = "TableOpenInput"

    def get_permissions(self) -> list[BasePermission]:
        return [IsClubAdmin()] if self.request.method == "POST" else [IsAuthenticated()]

    @extend_schema(
        operation_id="tables_list",
        summary="List tables",
        tags=["tables"],
        parameters=[TableListQuerySerializer],
        responses={
            200: page_serializer(TableSummarySerializer, "TablePage"),
            **problem_responses("not_authenticated", "invalid_query"),
        },
        examples=[
            OpenApiExample(
                "Open tables",
                response_only=True,
                status_codes=["200"],
                value={"count": 1, "next": None, "previous": None, "results": [examples.TABLE_SUMMARY]},
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = validated_query(TableListQuerySerializer, request)
        paginator, page = paginate(selectors.table_list(status=query.get("status")), request, query=query)
        return paginator.get_paginated_response(TableSummarySerializer(page, many=True).data)

    @command_operation(
        "tables_create",
        "Open a table",
        InputSerializer,
        examples.OPEN_TABLE,
        (
            "invalid_option",
            "unknown_variant",
            "invalid_card",
            "stacked_decks_not_allowed",
            "invalid_table_name",
        ),
        code=201,
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request)
        result = service.table_open(
            variant=data["variant"],
            options=data["options"],
            stacked_decks=data["stacked_decks"],
            meta=request_meta(request),
            name=data.get("name"),
        )
        return table_response(result, request, code=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    """One table as the caller may see it; ETag = stream version; If-None-Match gives 304."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="tables_retrieve",
        summary="Get a table as you may see it",
        tags=["tables"],
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                required=False,
                description="A version's ETag: 304 if unchanged.",
            ),
            WAIT_PARAMETER,
        ],
        responses={
            200: TableOutputSerializer,
            304: None,
            **problem_responses("not_authenticated", "unknown_table", "invalid_query"),
        },
        examples=[
            OpenApiExample(
                "A table in a declare", value=examples.TABLE, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request, table_id: str) -> Response:
        seen = request.headers.get("If-None-Match")
        table_wait(request, table_id=table_id, seen=seen)  # ?wait=: long-poll (tables.api.long_poll)
        if seen is not None and seen == etag(selectors.table_version(table_id=table_id) or -1):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": seen})
        sight = selectors.table_get(
            table_id=table_id, viewer=selectors.viewer_of(request.user), now=timezone.now()
        )
        return sight_response(sight)


def live_deal_no() -> JsonIntegerField:
    """The `deal_no` every action in a deal names: a JSON integer; a stale one is refused."""
    return JsonIntegerField(
        min_value=1, max_value=2**31 - 1, help_text="The live deal's number (stale ones are refused)."
    )


@command_schema(
    "tables_seats_create",
    "Sit down",
    example={"buy_in": 500},
    problems=(
        "forbidden",
        "invalid_amount",
        "already_seated",
        "table_full",
        "insufficient_funds",
        "tournament_table",
    ),
)
class SeatsApi(TableCommandApi):
    """Sit down: take the lowest free seat, buying in from your bankroll."""

    class InputSerializer(SeededInput):
        buy_in = ChipAmountField(max_value=MAX_CHIPS, help_text="Chips from your bankroll (JSON integer).")

        class Meta:
            ref_name = "SitDownInput"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.SitDown:
        return cmd.SitDown(acting_player(request), data["buy_in"])


@command_schema(
    "tables_top_ups_create",
    "Top up",
    example={"amount": 200},
    problems=(
        "forbidden",
        "not_seated",
        "invalid_amount",
        "deal_in_progress",
        "insufficient_funds",
        "tournament_table",
    ),
)
class TopUpsApi(TableCommandApi):
    """Bring more chips from your bankroll to your stack, between deals."""

    class InputSerializer(SeededInput):
        amount = ChipAmountField(max_value=MAX_CHIPS, help_text="Chips (JSON integer).")

        class Meta:
            ref_name = "TopUpInput"

    def command(self, request: Request, data: dict[str, Any]) -> cmd.TopUp:
        return cmd.TopUp(acting_player(request), data["amount"])


@command_schema(
    "tables_leave_create", "Leave", problems=("forbidden", "not_seated", "liability_open", "tournament_table")
)
class LeaveApi(TableCommandApi):
    """Leave the table: your stack goes back to your bankroll."""

    def command(self, request: Request, data: dict[str, Any]) -> cmd.Leave:
        return cmd.Leave(acting_player(request))


@command_schema(
    "tables_sit_out_create",
    "Sit out",
    problems=("forbidden", "not_seated", "already_sitting_out", "tournament_table"),
)
class SitOutApi(TableCommandApi):
    """Sit out: keep your seat and stack, skip the coming deals."""

    InputSerializer = SeededInput

    def command(self, request: Request, data: dict[str, Any]) -> cmd.SitOut:
        return cmd.SitOut(acting_player(request))


@command_schema("tables_sit_in_create", "Sit in", problems=("forbidden", "not_seated", "not_sitting_out"))
class SitInApi(TableCommandApi):
    """Sit in again: be dealt in from the next deal."""

    InputSerializer = SeededInput

    def command(self, request: Request, data: dict[str, Any]) -> cmd.SitIn:
        return cmd.SitIn(acting_player(request))


@command_schema("tables_close_create", "Close a table", problems=("deal_in_progress", "tournament_table"))
class CloseApi(TableCommandApi):
    """Close the table (club admin): pot and reserve shared among the seated, all cashed out."""

    permission_classes = (IsClubAdmin,)

    def command(self, request: Request, data: dict[str, Any]) -> cmd.CloseTable:
        return cmd.CloseTable()


@command_schema(
    "tables_deals_create",
    "Start a deal (a seated player or a club admin)",
    problems=("forbidden", "not_seated", "deal_in_progress", "not_enough_players", "tournament_table"),
)
class DealsApi(TableCommandApi):
    """A table's deals: the history (newest first, redacted for you), or start the next one."""

    InputSerializer = SeededInput

    @extend_schema(
        operation_id="tables_deals_list",
        summary="List a table's finished deals",
        tags=["deals"],
        parameters=PAGE_PARAMETERS,
        responses={
            200: page_serializer(DealHistorySerializer, "DealPage"),
            **problem_responses("not_authenticated", "invalid_query", "unknown_table"),
        },
        examples=[
            OpenApiExample(
                "A finished deal",
                response_only=True,
                status_codes=["200"],
                value={"count": 1, "next": None, "previous": None, "results": [examples.DEAL]},
            )
        ],
    )
    def get(self, request: Request, table_id: str) -> Response:
        return deal_page(selectors.table_deals(table_id=table_id), request, self)

    def command(self, request: Request, data: dict[str, Any]) -> cmd.StartDeal:
        by = player_id_of(request.user)
        if by is None and not is_club_admin(request.user):
            raise Problem("forbidden", "Only a seated player or a club admin starts a deal.")
        if by is not None and is_club_admin(request.user):
            by = None  # an admin who also plays starts deals as the admin
        return cmd.StartDeal(by_player_id=None if by is None else str(by))


class PlayerDealsApi(APIView):
    """The deals a player was dealt into (the player, club admins and auditors), redacted."""

    permission_classes = (IsSelfOrAuditorOrAdmin,)

    @extend_schema(
        operation_id="players_deals_list",
        summary="List the deals a player was dealt into",
        tags=["deals"],
        parameters=PAGE_PARAMETERS,
        responses={
            200: page_serializer(DealHistorySerializer, "PlayerDealPage"),
            **problem_responses(*AUTH_PROBLEMS, "invalid_query", "unknown_player"),
        },
        examples=[
            OpenApiExample(
                "A finished deal",
                response_only=True,
                status_codes=["200"],
                value={"count": 1, "next": None, "previous": None, "results": [examples.DEAL]},
            )
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        return deal_page(selectors.player_deals(player_id=player_id), request, self)
