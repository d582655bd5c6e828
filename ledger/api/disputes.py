"""Dispute API views: parse, call a dispute service or selector, serialise. Nothing else lives here."""

from __future__ import annotations

from uuid import UUID

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.errors import AUTH_PROBLEMS, BODY_PROBLEMS, problem_responses
from http_edge.api.fields import JsonObjectField, JsonObjectListField
from http_edge.api.input import ChipAmountField, JsonIntegerField, validated, validated_query
from http_edge.api.paging import PageQuerySerializer, page_serializer, paginate
from http_edge.api.parsers import JSONParser
from http_edge.api.permissions import IsAuditor, IsAuditorOrAdmin
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent, request_meta
from ledger.cashier import MAX_CASHIER_AMOUNT
from ledger.disputes.selectors import dispute_json, dispute_list
from ledger.disputes.service import (
    Correction,
    check_can_see,
    dispute_decide,
    dispute_hold,
    dispute_load,
    dispute_note,
    dispute_open,
    dispute_withdraw,
)
from ledger.disputes.state import DisputeState

TAGS = ["disputes"]
STATUSES = ("open", "upheld", "rejected", "withdrawn", "expired")
SEE = ("not_authenticated", "unknown_dispute")
EXAMPLE_ID = "5b0e6c7a-2f1d-4b8e-9c3a-7d6e5f4a3b21"


class DisputeSerializer(serializers.Serializer):
    """A dispute as its reader may see it."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=STATUSES)
    subject = JsonObjectField(
        help_text='{"kind": "deal", "table_id", "deal_no"} or {"kind": "cashier", "position"}'
    )
    label = serializers.CharField()
    reason = serializers.CharField()
    opened_by = serializers.CharField()
    role = serializers.CharField(help_text="player, club_admin or auditor")
    parties = serializers.ListField(child=serializers.CharField())
    positions = serializers.ListField(
        child=serializers.IntegerField(), help_text="The disputed events that moved chips (log positions)."
    )
    evidence = JsonObjectListField(help_text="References: replay, proof, history, chain of the deal.")
    deadline = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    version = serializers.IntegerField()
    hold = JsonObjectField(
        allow_null=True,
        help_text=(
            "The pending transfer to hold:<dispute>: amount and account for the held player, auditors and "
            "admins; other parties see only its status."
        ),
    )
    steps = JsonObjectListField(help_text="Every event of the dispute in order.")

    class Meta:
        ref_name = "Dispute"


class DisputeSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField(source="dispute_id")
    status = serializers.CharField()
    subject = JsonObjectField()
    opened_by = serializers.CharField()
    parties = serializers.ListField(child=serializers.CharField())
    opened_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()

    class Meta:
        ref_name = "DisputeSummary"


def dispute_response(state: DisputeState, request: Request, code: int = 200) -> Response:
    return Response(DisputeSerializer(dispute_json(state, request.user)).data, status=code)


class DisputeCollectionApi(APIView):
    """Open a dispute (a player of the deal, a club admin, an auditor) and list those you may see."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        subject = JsonObjectField(
            help_text='{"kind": "deal", "table_id": "<uuid>", "deal_no": 3} or '
            '{"kind": "cashier", "position": 42}'
        )
        reason = serializers.CharField(max_length=2000)

        class Meta:
            ref_name = "DisputeOpen"

    class QuerySerializer(PageQuerySerializer):
        status = serializers.ChoiceField(choices=STATUSES, required=False)

        class Meta:
            ref_name = "DisputeQuery"

    @extend_schema(
        operation_id="disputes_list",
        summary="List the disputes you may see",
        tags=TAGS,
        parameters=[QuerySerializer],
        responses={
            200: page_serializer(DisputeSummarySerializer, "DisputePage"),
            **problem_responses("invalid_query", "not_authenticated"),
        },
    )
    def get(self, request: Request) -> Response:
        query = validated_query(self.QuerySerializer, request)
        paginator, page = paginate(
            dispute_list(user=request.user, status=query.get("status")), request, query=query
        )
        return paginator.get_paginated_response(DisputeSummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="disputes_create",
        summary="Open a dispute",
        tags=TAGS,
        request=InputSerializer,
        responses={
            201: DisputeSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                "not_authenticated",
                "not_a_party",
                "unknown_dispute_subject",
                "unknown_table",
                "unknown_deal",
                "deal_not_finished",
                "dispute_exists",
                "dispute_window_closed",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
        examples=[
            OpenApiExample(
                "A deal",
                request_only=True,
                value={
                    "subject": {
                        "kind": "deal",
                        "table_id": "0b7f3c9e-2a3b-4c5d-8e9f-0a1b2c3d4e5f",
                        "deal_no": 3,
                    },
                    "reason": "The pot went to the wrong player.",
                },
            )
        ],
    )
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(self.InputSerializer, request)
        subject = data["subject"] if isinstance(data["subject"], dict) else {}
        state = dispute_open(
            user=request.user,
            subject=subject,
            reason=data["reason"],
            now=timezone.now(),
            meta=request_meta(request),
        )
        return dispute_response(state, request, status.HTTP_201_CREATED)


class DisputeDetailApi(APIView):
    """One dispute: an outsider is told it does not exist (404 `unknown_dispute`)."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="disputes_retrieve",
        summary="Get a dispute",
        tags=TAGS,
        responses={200: DisputeSerializer, **problem_responses(*SEE)},
    )
    def get(self, request: Request, dispute_id: UUID) -> Response:
        state = dispute_load(dispute_id)
        check_can_see(state, request.user)
        return dispute_response(state, request)


class DisputeHoldApi(APIView):
    """Hold the disputed amount of a party's bankroll until the dispute is decided or expires."""

    permission_classes = (IsAuditorOrAdmin,)
    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        player_id = JsonIntegerField(min_value=1, max_value=2**63 - 1)
        amount = ChipAmountField(min_value=1, max_value=MAX_CASHIER_AMOUNT)

        class Meta:
            ref_name = "DisputeHoldInput"

    @extend_schema(
        operation_id="disputes_hold_create",
        summary="Hold chips for a dispute",
        tags=TAGS,
        request=InputSerializer,
        responses={
            201: DisputeSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                *AUTH_PROBLEMS,
                "unknown_dispute",
                "not_a_party",
                "dispute_closed",
                "hold_exists",
                "hold_exceeds_balance",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
    )
    @idempotent
    def post(self, request: Request, dispute_id: UUID) -> Response:
        data = validated(self.InputSerializer, request)
        state = dispute_hold(
            user=request.user,
            dispute_id=dispute_id,
            player_id=data["player_id"],
            amount=data["amount"],
            now=timezone.now(),
            meta=request_meta(request),
        )
        return dispute_response(state, request, status.HTTP_201_CREATED)


class DisputeNoteApi(APIView):
    """A party, an admin or an auditor adds a note, with references to evidence."""

    permission_classes = (IsAuthenticated,)
    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        text = serializers.CharField(max_length=2000)
        evidence = serializers.ListField(
            child=serializers.CharField(max_length=500),
            max_length=20,
            required=False,
            default=list,
            help_text="References (URLs of replays, proofs, events).",
        )

        class Meta:
            ref_name = "DisputeNoteInput"

    @extend_schema(
        operation_id="disputes_notes_create",
        summary="Add a note to a dispute",
        tags=TAGS,
        request=InputSerializer,
        responses={
            201: DisputeSerializer,
            **problem_responses(
                *BODY_PROBLEMS, *SEE, "dispute_closed", "concurrency_conflict", *IDEMPOTENCY_PROBLEMS
            ),
        },
    )
    @idempotent
    def post(self, request: Request, dispute_id: UUID) -> Response:
        data = validated(self.InputSerializer, request)
        state = dispute_note(
            user=request.user,
            dispute_id=dispute_id,
            text=data["text"],
            evidence=data["evidence"],
            meta=request_meta(request),
        )
        return dispute_response(state, request, status.HTTP_201_CREATED)


class DisputeDecideApi(APIView):
    """An auditor who is no party decides: upheld with correcting transfers, or rejected."""

    permission_classes = (IsAuditor,)
    parser_classes = (JSONParser,)

    class CorrectionSerializer(serializers.Serializer):
        source = serializers.CharField(
            max_length=200,
            help_text="player:<party>, or the cashier or the house where the disputed events moved them.",
        )
        target = serializers.CharField(max_length=200)
        amount = ChipAmountField(min_value=1, max_value=MAX_CASHIER_AMOUNT)
        unit = serializers.CharField(max_length=100, required=False, default="chips")

        class Meta:
            ref_name = "DisputeCorrection"

    class InputSerializer(serializers.Serializer):
        outcome = serializers.ChoiceField(choices=["upheld", "rejected"])
        ruling = serializers.CharField(max_length=2000)
        corrections = serializers.ListField(
            child=serializers.DictField(), max_length=50, required=False, default=list
        )

        class Meta:
            ref_name = "DisputeDecision"

    @extend_schema(
        operation_id="disputes_decide_create",
        summary="Decide a dispute",
        tags=TAGS,
        request=InputSerializer,
        responses={
            201: DisputeSerializer,
            **problem_responses(
                *BODY_PROBLEMS,
                *AUTH_PROBLEMS,
                "unknown_dispute",
                "party_cannot_decide",
                "dispute_closed",
                "invalid_correction",
                "insufficient_funds",
                "funds_held",
                "concurrency_conflict",
                *IDEMPOTENCY_PROBLEMS,
            ),
        },
        examples=[
            OpenApiExample(
                "Upheld",
                request_only=True,
                value={
                    "outcome": "upheld",
                    "ruling": "The pot belonged to bob.",
                    "corrections": [{"source": "player:3", "target": "player:4", "amount": 80}],
                },
            )
        ],
    )
    @idempotent
    def post(self, request: Request, dispute_id: UUID) -> Response:
        data = validated(self.InputSerializer, request)
        corrections = []
        for item in data["corrections"]:
            serializer = self.CorrectionSerializer(data=item)
            serializer.is_valid(raise_exception=True)
            corrections.append(Correction(**serializer.validated_data))
        state = dispute_decide(
            user=request.user,
            dispute_id=dispute_id,
            outcome=data["outcome"],
            ruling=data["ruling"],
            corrections=corrections,
            meta=request_meta(request),
        )
        return dispute_response(state, request, status.HTTP_201_CREATED)


class DisputeWithdrawApi(APIView):
    """The opener (or a club admin) withdraws the dispute; its hold is voided."""

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        operation_id="disputes_withdraw_create",
        summary="Withdraw a dispute",
        tags=TAGS,
        request=None,
        responses={
            201: DisputeSerializer,
            **problem_responses(
                *SEE, "forbidden", "dispute_closed", "concurrency_conflict", *IDEMPOTENCY_PROBLEMS
            ),
        },
    )
    @idempotent
    def post(self, request: Request, dispute_id: UUID) -> Response:
        state = dispute_withdraw(user=request.user, dispute_id=dispute_id, meta=request_meta(request))
        return dispute_response(state, request, status.HTTP_201_CREATED)
