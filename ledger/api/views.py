"""Ledger API views: parse, call a service or selector, serialise. Nothing else lives here."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.conditional import etag
from http_edge.api.errors import AUTH_PROBLEMS, BODY_PROBLEMS, problem_responses
from http_edge.api.fields import JsonObjectField, JsonObjectListField
from http_edge.api.input import ChipAmountField, QueryIntegerField, validated, validated_query
from http_edge.api.paging import (
    PAGE_PARAMETERS,
    PageQuerySerializer,
    page_serializer,
    paginate,
    paginated_response,
)
from http_edge.api.parsers import JSONParser
from http_edge.api.permissions import (
    IsAuditorOrAdmin,
    IsClubAdmin,
    IsSelfOrAuditorOrAdmin,
    IsSelfOrClubAdmin,
)
from http_edge.authentication import ApiTokenAuthentication
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent, request_meta
from http_edge.login import login_with_password
from http_edge.roles import can_view_player
from http_edge.tokens import token_issue, token_revoke, tokens_revoke_all
from ledger.api.serializers import (
    EventRefSerializer,
    MeOutputSerializer,
    PlayerIdField,
    PlayerOutputSerializer,
    PlayerProfileSerializer,
    player_display_name,
)
from ledger.cashier import (
    MAX_CASHIER_AMOUNT,
    CashierResult,
    cashier_deposit,
    cashier_withdraw,
    player_create,
    player_rename,
)
from ledger.disputes.events import STREAM_PREFIX as DISPUTE_PREFIX
from ledger.names import account_names
from ledger.proofs import statement_proof
from ledger.selectors import player_balance, player_get, player_list, player_statement

RETRY_AFTER_HEADER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429],
    description="Seconds until the username or address is unlocked (429 `throttled`).",
)


class TokenApi(APIView):
    """Exchange a username and password for a new API token; failed logins are throttled."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)

        class Meta:
            ref_name = "TokenInput"

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(
            help_text="Send as `Authorization: Bearer <token>` (or `Token <token>`). Shown only here."
        )
        expires_at = serializers.DateTimeField(
            help_text="The token stops working then (a fixed lifetime from login); log in again."
        )

        class Meta:
            ref_name = "Token"

    @extend_schema(
        operation_id="auth_token_create",
        summary="Log in: exchange a password for a token",
        tags=["auth"],
        auth=[],
        request=InputSerializer,
        parameters=[RETRY_AFTER_HEADER],
        responses={
            200: OutputSerializer,
            **problem_responses(*BODY_PROBLEMS, "invalid_credentials", "throttled"),
        },
        examples=[
            OpenApiExample(
                "Log in", request_only=True, value={"username": "alice", "password": "alice-demo"}
            ),
            OpenApiExample(
                "Token",
                response_only=True,
                status_codes=["200"],
                value={
                    "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
                    "expires_at": "2026-12-06T12:00:00Z",
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request)
        user = login_with_password(request=request, username=data["username"], password=data["password"])
        issued = token_issue(user=user)
        return Response(self.OutputSerializer({"token": issued.key, "expires_at": issued.expires_at}).data)


class LogoutApi(APIView):
    """Revoke the token this request is sent with; the caller's other tokens keep working."""

    authentication_classes = (ApiTokenAuthentication,)

    @extend_schema(
        operation_id="auth_logout_create",
        summary="Log out (revoke this token)",
        tags=["auth"],
        request=None,
        responses={
            204: OpenApiResponse(description="The token is revoked."),
            **problem_responses("not_authenticated", *IDEMPOTENCY_PROBLEMS),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        token_revoke(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    """Who am I: id, roles and player id of the caller."""

    @extend_schema(
        operation_id="me_retrieve",
        summary="Who am I",
        tags=["auth"],
        responses={200: MeOutputSerializer, **problem_responses("not_authenticated")},
        examples=[
            OpenApiExample(
                "A player",
                response_only=True,
                status_codes=["200"],
                value={
                    "id": "3",
                    "username": "alice",
                    "display_name": "Alice",
                    "roles": ["player"],
                    "player_id": "3",
                },
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(MeOutputSerializer(request.user).data)


PLAYER_EXAMPLE = {
    "id": "3",
    "username": "alice",
    "display_name": "Alice",
    "account": "player:3",
    "date_joined": "2026-11-29T12:00:00Z",
}


class PlayerCollectionApi(APIView):
    """Players: club admins register them; club admins and auditors list them."""

    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        username = serializers.RegexField(
            r"^[\w.@+-]{1,150}$", max_length=150, help_text="Letters, digits and @.+-_ only."
        )
        password = serializers.CharField(
            style={"input_type": "password"}, trim_whitespace=False, max_length=128
        )
        display_name = serializers.CharField(max_length=150, required=False, default="", allow_blank=True)

        class Meta:
            ref_name = "PlayerCreate"

        def validate_password(self, value: str) -> str:
            try:
                validate_password(value)
            except DjangoValidationError as exc:
                raise serializers.ValidationError(list(exc.messages)) from exc
            return value

    def get_permissions(self) -> list[BasePermission]:
        return [IsClubAdmin()] if self.request.method == "POST" else [IsAuditorOrAdmin()]

    @extend_schema(
        operation_id="players_list",
        summary="List players",
        tags=["players"],
        parameters=PAGE_PARAMETERS,
        responses={
            200: page_serializer(PlayerOutputSerializer, "PlayerPage"),
            **problem_responses("invalid_query", *AUTH_PROBLEMS),
        },
        examples=[
            OpenApiExample(
                "A page",
                response_only=True,
                status_codes=["200"],
                value={"count": 1, "next": None, "previous": None, "results": [PLAYER_EXAMPLE]},
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return paginated_response(
            queryset=player_list(), serializer_class=PlayerOutputSerializer, request=request, view=self
        )

    @extend_schema(
        operation_id="players_create",
        summary="Register a player",
        tags=["players"],
        request=InputSerializer,
        responses={
            201: PlayerOutputSerializer,
            **problem_responses(*BODY_PROBLEMS, *AUTH_PROBLEMS, "username_taken", *IDEMPOTENCY_PROBLEMS),
        },
        examples=[
            OpenApiExample(
                "Register Alice",
                request_only=True,
                value={"username": "alice", "password": "alice-demo", "display_name": "Alice"},
            ),
            OpenApiExample("Registered", value=PLAYER_EXAMPLE, response_only=True, status_codes=["201"]),
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request)
        player = player_create(
            username=data["username"],
            password=data["password"],
            display_name=data["display_name"],
            meta=request_meta(request),
        )
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    """One player. Any signed-in user sees his public profile (id and display name); club admins,
    auditors and the player himself see the full form. The player or a club admin renames him."""

    parser_classes = (JSONParser,)

    class RenameSerializer(serializers.Serializer):
        display_name = serializers.CharField(
            max_length=150,
            trim_whitespace=False,
            help_text="1 to 150 characters, unique in the club whatever the case; not all digits and "
            "no word that reads as a card.",
        )

        class Meta:
            ref_name = "PlayerRename"

    def get_permissions(self) -> list[BasePermission]:
        return [IsSelfOrClubAdmin()] if self.request.method == "PATCH" else [IsAuthenticated()]

    @extend_schema(
        operation_id="players_retrieve",
        tags=["players"],
        summary="A player: his public profile, or the full form for himself and staff",
        responses={
            200: PolymorphicProxySerializer(
                component_name="PlayerOrProfile",
                resource_type_field_name=None,
                serializers=[PlayerOutputSerializer, PlayerProfileSerializer],
            ),
            **problem_responses(*AUTH_PROBLEMS, "unknown_player"),
        },
        examples=[
            OpenApiExample("Alice", value=PLAYER_EXAMPLE, response_only=True, status_codes=["200"]),
            OpenApiExample(
                "Alice, seen by another player",
                value={"id": "3", "display_name": "Alice"},
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_get(player_id=player_id)
        if can_view_player(request.user, player_id):
            return Response(PlayerOutputSerializer(player).data)
        profile = {"pk": player.pk, "display_name": player_display_name(player)}
        return Response(PlayerProfileSerializer(profile).data)

    @extend_schema(
        operation_id="players_partial_update",
        tags=["players"],
        summary="Rename a player (the player himself or a club admin): a PlayerRenamed event",
        request=RenameSerializer,
        responses={
            200: PlayerOutputSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                *AUTH_PROBLEMS,
                "unknown_player",
                "invalid_display_name",
                "display_name_taken",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
        examples=[
            OpenApiExample("Rename", request_only=True, value={"display_name": "Alice B."}),
            OpenApiExample(
                "Renamed",
                response_only=True,
                status_codes=["200"],
                value={**PLAYER_EXAMPLE, "display_name": "Alice B."},
            ),
        ],
    )
    @idempotent
    def patch(self, request: Request, player_id: int) -> Response:
        data = validated(self.RenameSerializer, request)
        player = player_rename(
            player_id=player_id, display_name=data["display_name"], meta=request_meta(request)
        )
        return Response(PlayerOutputSerializer(player).data)


class PlayerRevokeTokensApi(APIView):
    """A club admin signs a player out everywhere: every API token of theirs stops working."""

    permission_classes = (IsClubAdmin,)

    class OutputSerializer(serializers.Serializer):
        player_id = PlayerIdField(help_text='The player id, as a string ("3").')
        revoked = serializers.IntegerField(help_text="How many live or expired tokens were deleted.")

        class Meta:
            ref_name = "RevokedTokens"

    @extend_schema(
        operation_id="players_revoke_tokens_create",
        summary="Sign a player out everywhere",
        tags=["players"],
        request=None,
        responses={
            200: OutputSerializer,
            **problem_responses(*AUTH_PROBLEMS, "unknown_player", *IDEMPOTENCY_PROBLEMS),
        },
        examples=[
            OpenApiExample(
                "Revoked", response_only=True, status_codes=["200"], value={"player_id": "3", "revoked": 2}
            )
        ],
    )
    @idempotent
    def post(self, request: Request, player_id: int) -> Response:
        player_get(player_id=player_id)
        revoked = tokens_revoke_all(user_id=player_id)
        return Response(self.OutputSerializer({"player_id": player_id, "revoked": revoked}).data)


class CashierOutputSerializer(serializers.Serializer):
    """The result of a deposit or withdrawal: the event appended and the bankroll after it."""

    player_id = PlayerIdField()
    amount = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)
    balance = serializers.IntegerField(help_text="The bankroll after this operation.")
    event = EventRefSerializer()

    class Meta:
        ref_name = "CashierOperation"


class CashierInputSerializer(serializers.Serializer):
    amount = ChipAmountField(
        min_value=1, max_value=MAX_CASHIER_AMOUNT, help_text="Chips, a JSON integer from 1 to 10^12."
    )
    note = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)

    class Meta:
        ref_name = "CashierOperationInput"


def cashier_response(*, player_id: int, result: CashierResult) -> Response:
    """201 with the event and the bankroll the command returned: nothing is read again."""
    event = result.event
    body = {
        "player_id": player_id,
        "amount": event.data["amount"],
        "note": event.data["note"],
        "balance": result.balance,
        "event": {
            "position": event.position,
            "stream": event.stream,
            "version": event.version,
            "type": event.type,
        },
    }
    return Response(CashierOutputSerializer(body).data, status=status.HTTP_201_CREATED)


def cashier_examples(event_type: str, amount: int, balance: int) -> list[OpenApiExample]:
    return [
        OpenApiExample(event_type, request_only=True, value={"amount": amount, "note": "cash at the desk"}),
        OpenApiExample(
            event_type,
            response_only=True,
            status_codes=["201"],
            value={
                "player_id": "3",
                "amount": amount,
                "note": "cash at the desk",
                "balance": balance,
                "event": {"position": 42, "stream": "player-3", "version": 2, "type": event_type},
            },
        ),
    ]


class DepositApi(APIView):
    """The cashier takes chips in for a player: cashier -> player:<id>."""

    permission_classes = (IsClubAdmin,)
    parser_classes = (JSONParser,)

    @extend_schema(
        operation_id="players_deposits_create",
        summary="Deposit chips into a player's bankroll",
        tags=["cashier"],
        request=CashierInputSerializer,
        responses={
            201: CashierOutputSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                *AUTH_PROBLEMS,
                "unknown_player",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
        examples=cashier_examples("DepositMade", 500, 1500),
    )
    @idempotent
    def post(self, request: Request, player_id: int) -> Response:
        data = validated(CashierInputSerializer, request)
        result = cashier_deposit(
            player_id=player_id, amount=data["amount"], note=data["note"], meta=request_meta(request)
        )
        return cashier_response(player_id=player_id, result=result)


class WithdrawalApi(APIView):
    """The cashier pays chips out to a player: player:<id> -> cashier. Never overdraws."""

    permission_classes = (IsClubAdmin,)
    parser_classes = (JSONParser,)

    @extend_schema(
        operation_id="players_withdrawals_create",
        summary="Withdraw chips from a player's bankroll",
        tags=["cashier"],
        request=CashierInputSerializer,
        responses={
            201: CashierOutputSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                *AUTH_PROBLEMS,
                "unknown_player",
                "insufficient_funds",
                "funds_held",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
        examples=cashier_examples("WithdrawalMade", 200, 800),
    )
    @idempotent
    def post(self, request: Request, player_id: int) -> Response:
        data = validated(CashierInputSerializer, request)
        result = cashier_withdraw(
            player_id=player_id, amount=data["amount"], note=data["note"], meta=request_meta(request)
        )
        return cashier_response(player_id=player_id, result=result)


class BalanceApi(APIView):
    """A player's bankroll; the ETag is the player's stream version."""

    permission_classes = (IsSelfOrAuditorOrAdmin,)

    class OutputSerializer(serializers.Serializer):
        player_id = PlayerIdField()
        account = serializers.CharField()
        unit = serializers.CharField()
        balance = serializers.IntegerField(help_text="Posted: every transfer so far (same as `posted`).")
        posted = serializers.IntegerField(help_text="Every transfer so far, held chips included.")
        held = serializers.IntegerField(help_text="Kept by pending dispute holds: yours, not available.")
        available = serializers.IntegerField(help_text="posted - held: what a withdrawal or buy-in may use.")
        version = serializers.IntegerField(help_text="The player's stream version this balance reflects.")

        class Meta:
            ref_name = "Balance"

    @extend_schema(
        operation_id="players_balance_retrieve",
        summary="Get a player's balance",
        tags=["statements"],
        responses={200: OutputSerializer, **problem_responses(*AUTH_PROBLEMS, "unknown_player")},
        examples=[
            OpenApiExample(
                "Balance",
                response_only=True,
                status_codes=["200"],
                value={
                    "player_id": "3",
                    "account": "player:3",
                    "unit": "chips",
                    "balance": 1500,
                    "posted": 1500,
                    "held": 80,
                    "available": 1420,
                    "version": 3,
                },
            )
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        held = player_balance(player_id=player_id)
        return Response(self.OutputSerializer(held).data, headers={"ETag": etag(held.version)})


class StatementEventSerializer(serializers.Serializer):
    """The event behind a statement line (same shape as EventRef)."""

    position = serializers.IntegerField()
    stream = serializers.CharField()
    version = serializers.IntegerField(source="event_version")
    type = serializers.CharField(source="event_type")

    class Meta:
        ref_name = "StatementEvent"


class VerifiableStatementSerializer(serializers.Serializer):
    """GET /players/{id}/statement?checkpoint=N: the bankroll at checkpoint N with its proofs."""

    format = serializers.CharField()
    player_id = serializers.CharField()
    account = serializers.CharField()
    unit = serializers.CharField()
    checkpoint = JsonObjectField(help_text="The checkpoint as signed (GET /audit/checkpoints/{n}).")
    keys = JsonObjectListField(help_text="The club's public keys (pin them: GET /audit/keys).")
    balance = serializers.IntegerField(help_text="The posted balance at the checkpoint.")
    salt = serializers.CharField(allow_null=True, help_text="The salt of your sum tree leaf.")
    index = serializers.IntegerField(allow_null=True)
    path = JsonObjectListField(help_text="Sum tree siblings, leaf first: side, hash, sum.")
    lines = JsonObjectListField(help_text="Each line with its event (chain form), log index and log path.")

    class Meta:
        ref_name = "VerifiableStatement"


class StatementApi(APIView):
    """Every transfer touching a player's bankroll, oldest first, with the running balance."""

    permission_classes = (IsSelfOrAuditorOrAdmin,)

    class OutputSerializer(serializers.Serializer):
        amount = serializers.IntegerField(help_text="Signed: positive into the bankroll, negative out.")
        balance_after = serializers.IntegerField(help_text="The running balance after this line.")
        counterparty = serializers.CharField(help_text="The other account of the transfer.")
        counter_account = serializers.CharField(
            source="counterparty", help_text="The other account of the transfer (as `counterparty`)."
        )
        counter_account_name = serializers.SerializerMethodField(
            help_text='What people call it: "Cashier", "Alice\'s seat at Two-card Guts #3", "Spring Cup '
            'prize pool"; null if it has no name.'
        )
        reason = serializers.CharField()
        note = serializers.CharField(
            source="event_note", help_text='The cashier\'s note of a deposit or withdrawal; "" otherwise.'
        )
        recorded_at = serializers.DateTimeField(help_text="When the event that made this line was recorded.")
        unit = serializers.CharField()
        event = StatementEventSerializer(source="*", help_text="The event that made this transfer.")
        dispute = serializers.SerializerMethodField(
            help_text="The dispute whose hold or correction this line is (null for any other line)."
        )

        class Meta:
            ref_name = "StatementLine"

        def get_counter_account_name(self, entry: Any) -> str | None:
            return self.context.get("account_names", {}).get(entry.counterparty)

        def get_dispute(self, entry: Any) -> str | None:
            stream = entry.stream
            return stream.removeprefix(DISPUTE_PREFIX) if stream.startswith(DISPUTE_PREFIX) else None

    class QuerySerializer(PageQuerySerializer):
        checkpoint = QueryIntegerField(
            min_value=1,
            max_value=2**31 - 1,
            required=False,
            help_text="A checkpoint number: answer the verifiable statement at that checkpoint instead "
            "of a page (docs/audit.md, docs/verify_statement.py).",
        )

        class Meta:
            ref_name = "PlayerStatementQuery"

    @extend_schema(
        operation_id="players_statement_list",
        summary="Get a player's statement",
        tags=["statements"],
        parameters=[QuerySerializer],
        responses={
            200: PolymorphicProxySerializer(
                component_name="StatementOrProof",
                resource_type_field_name=None,
                serializers=[
                    page_serializer(OutputSerializer, "StatementPage"),
                    VerifiableStatementSerializer,
                ],
            ),
            **problem_responses("invalid_query", *AUTH_PROBLEMS, "unknown_player", "unknown_checkpoint"),
        },
        examples=[
            OpenApiExample(
                "Statement",
                response_only=True,
                status_codes=["200"],
                value={
                    "count": 2,
                    "next": None,
                    "previous": None,
                    "results": [
                        {
                            "amount": 1000,
                            "balance_after": 1000,
                            "counterparty": "cashier",
                            "counter_account": "cashier",
                            "counter_account_name": "Cashier",
                            "reason": "deposit",
                            "note": "cash at the desk",
                            "recorded_at": "2026-11-29T11:00:00Z",
                            "unit": "chips",
                            "event": {
                                "position": 7,
                                "stream": "player-3",
                                "version": 2,
                                "type": "DepositMade",
                            },
                            "dispute": None,
                        },
                        {
                            "amount": -200,
                            "balance_after": 800,
                            "counterparty": "cashier",
                            "counter_account": "cashier",
                            "counter_account_name": "Cashier",
                            "reason": "withdrawal",
                            "note": "",
                            "recorded_at": "2026-11-29T13:00:00Z",
                            "unit": "chips",
                            "event": {
                                "position": 9,
                                "stream": "player-3",
                                "version": 3,
                                "type": "WithdrawalMade",
                            },
                            "dispute": None,
                        },
                    ],
                },
            )
        ],
    )
    def get(self, request: Request, player_id: int) -> Response:
        query = validated_query(self.QuerySerializer, request)
        if "checkpoint" in query:
            return Response(statement_proof(player_id=player_id, number=query["checkpoint"]))
        paginator, page = paginate(player_statement(player_id=player_id), request, query=query)
        context = {"account_names": account_names(entry.counterparty for entry in page)}
        return paginator.get_paginated_response(self.OutputSerializer(page, many=True, context=context).data)
