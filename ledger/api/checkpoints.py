"""Checkpoint API views: public keys, signed checkpoints and consistency proofs (anyone may read
them: players comparing roots is what detects a club showing different books to different people)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.errors import AUTH_PROBLEMS, BODY_PROBLEMS, problem_responses
from http_edge.api.fields import JsonObjectField
from http_edge.api.input import QueryIntegerField, QuerySerializer, validated, validated_query
from http_edge.api.parsers import JSONParser
from http_edge.api.permissions import IsClubAdmin
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent, request_meta
from ledger.checkpoints import checkpoint_get, checkpoint_list, checkpoint_publish, consistency, keys

TAGS = ["audit"]
MAX_CHECKPOINT = 2**31 - 1


class KeySerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="First 16 hex digits of sha256(public key).")
    algorithm = serializers.CharField()
    public_key = serializers.CharField(help_text="32 bytes, hex.")

    class Meta:
        ref_name = "CheckpointKey"


class CheckpointSerializer(serializers.Serializer):
    format = serializers.CharField()
    number = serializers.IntegerField()
    size = serializers.IntegerField(help_text="How many events of the log (in log order) it covers.")
    position = serializers.IntegerField(help_text="The position of the last event it covers.")
    log_root = serializers.CharField(help_text="RFC 9162 Merkle root over the events' hashes, hex.")
    balances = JsonObjectField(help_text="Per unit: the sum tree's root, sum and leaf count.")
    issued = JsonObjectField(help_text="Per unit: what the issuers owe; each sum must equal it.")
    issued_at = serializers.DateTimeField()
    key_id = serializers.CharField()
    signature = serializers.CharField(help_text="Ed25519 over the canonical JSON of the other members, hex.")

    class Meta:
        ref_name = "Checkpoint"


class ConsistencySerializer(serializers.Serializer):
    old_size = serializers.IntegerField()
    new_size = serializers.IntegerField()
    old_root = serializers.CharField()
    new_root = serializers.CharField()
    proof = serializers.ListField(child=serializers.CharField(), help_text="RFC 9162 §2.1.4 nodes, hex.")

    class Meta:
        ref_name = "ConsistencyProof"


ConsistencySerializer._declared_fields["from"] = serializers.IntegerField()
ConsistencySerializer._declared_fields["to"] = serializers.IntegerField()


class KeysApi(APIView):
    """The club's checkpoint signing keys (public halves)."""

    permission_classes = (AllowAny,)

    class OutputSerializer(serializers.Serializer):
        keys = KeySerializer(many=True)

        class Meta:
            ref_name = "CheckpointKeys"

    @extend_schema(
        operation_id="audit_keys_retrieve",
        summary="Get the checkpoint signing keys",
        tags=TAGS,
        responses={200: OutputSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer({"keys": keys()}).data)


class CheckpointCollectionApi(APIView):
    """Every checkpoint, oldest first (anyone); a club admin publishes one now."""

    parser_classes = (JSONParser,)

    class InputSerializer(serializers.Serializer):
        """Nothing to send (a body, if any, must still be JSON)."""

        class Meta:
            ref_name = "CheckpointPublish"

    def get_permissions(self) -> list[BasePermission]:
        return [IsClubAdmin()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        operation_id="audit_checkpoints_list",
        summary="List the signed checkpoints",
        tags=TAGS,
        responses={200: CheckpointSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        return Response(CheckpointSerializer(checkpoint_list(), many=True).data)

    @extend_schema(
        operation_id="audit_checkpoints_create",
        summary="Publish a checkpoint now",
        tags=TAGS,
        request=None,
        responses={
            201: CheckpointSerializer,
            204: OpenApiResponse(description="The log is empty: nothing to sign."),
            **problem_responses(*BODY_PROBLEMS, *AUTH_PROBLEMS, *IDEMPOTENCY_PROBLEMS),
        },
    )
    @idempotent
    def post(self, request: Request) -> Response:
        validated(self.InputSerializer, request)
        checkpoint = checkpoint_publish(now=timezone.now(), meta=request_meta(request))
        if checkpoint is None:  # an empty log: nothing to sign
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(CheckpointSerializer(checkpoint).data, status=status.HTTP_201_CREATED)


class CheckpointDetailApi(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="audit_checkpoints_retrieve",
        summary="Get a checkpoint",
        tags=TAGS,
        responses={200: CheckpointSerializer, **problem_responses("unknown_checkpoint")},
    )
    def get(self, request: Request, number: int) -> Response:
        return Response(CheckpointSerializer(checkpoint_get(number)).data)


class ConsistencyQuerySerializer(QuerySerializer):
    pass


ConsistencyQuerySerializer._declared_fields["from"] = QueryIntegerField(
    min_value=1, max_value=MAX_CHECKPOINT, help_text="The older checkpoint's number."
)


class ConsistencyApi(APIView):
    """The proof that checkpoint {n}'s log only grew since checkpoint `from` (RFC 9162 §2.1.4)."""

    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="audit_checkpoints_consistency_retrieve",
        summary="Prove a checkpoint's log only grew",
        tags=TAGS,
        parameters=[ConsistencyQuerySerializer],
        responses={
            200: ConsistencySerializer,
            **problem_responses("invalid_query", "invalid_input", "unknown_checkpoint"),
        },
        examples=[
            OpenApiExample(
                "Proof",
                response_only=True,
                status_codes=["200"],
                value={
                    "from": 1,
                    "to": 2,
                    "old_size": 40,
                    "new_size": 57,
                    "old_root": "3c1f…",
                    "new_root": "9ab2…",
                    "proof": ["77e0…", "1d4c…"],
                },
            )
        ],
    )
    def get(self, request: Request, number: int) -> Response:
        query = validated_query(ConsistencyQuerySerializer, request)
        return Response(ConsistencySerializer(consistency(old=query["from"], new=number)).data)
