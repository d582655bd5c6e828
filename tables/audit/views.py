"""Audit API views: parse the query, call an audit module, serialise. Nothing else lives here.

Every body is redacted for the caller by the engine's `redact_event` (through `feeds`), every
error is problem+json with a stable code (unknown_table, unknown_deal, deal_not_finished,
forbidden, invalid_query, ...).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from http_edge.api.errors import problem_responses
from http_edge.api.input import validated_params, validated_query
from http_edge.api.paging import paginate
from http_edge.api.permissions import IsAuditorOrAdmin
from http_edge.authentication import ApiTokenAuthentication
from http_edge.idempotency import IDEMPOTENCY_PROBLEMS, idempotent
from ledger.store import StoredEvent
from ledger.verify import verify_ledger
from tables.audit import examples
from tables.audit.authentication import QueryTokenAuthentication
from tables.audit.deals import check_table, deal_load, table_deals
from tables.audit.export import canonical, deal_history, deal_text, table_text
from tables.audit.fairness import deal_proof
from tables.audit.feeds import FeedQuery, events_page, feed_json
from tables.audit.renderers import EventStreamRenderer, PlainTextRenderer
from tables.audit.replay import deal_replay
from tables.audit.serializers import (
    FeedPageSerializer,
    FeedQuerySerializer,
    HandHistorySerializer,
    ProofSerializer,
    ReplayQuerySerializer,
    ReplaySerializer,
    StatementPageSerializer,
    StatementQuerySerializer,
    StreamQuerySerializer,
    TableHistorySerializer,
    VerifyReportSerializer,
)
from tables.audit.sse import TableEventSource, stream_response
from tables.audit.statements import account_entries, check_can_read_account, explained_holds, explained_lines
from tables.audit.tickets import StreamTicketAuthentication, stream_ticket_issue
from tables.selectors import viewer_of
from tables.state import table_stream

AUTH = ("not_authenticated", "forbidden")
TABLE = ("not_authenticated", "unknown_table")
DEAL = (*TABLE, "unknown_deal")
TAGS = ["audit"]
TABLE_ID = OpenApiParameter("table_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
DEAL_NO = OpenApiParameter("deal_no", OpenApiTypes.INT, OpenApiParameter.PATH)


def feed_query(request: Request) -> FeedQuery:
    data = validated_query(FeedQuerySerializer, request)
    return FeedQuery(
        after=data["after"],
        limit=data["limit"],
        types=tuple(data["type"]),
        since=data.get("since"),
        until=data.get("until"),
    )


def feed_response(request: Request, events: list[StoredEvent], query: FeedQuery) -> Response:
    """A feed page: the redacted events and the cursor to continue from."""
    cursor = events[-1].position if events else query.after
    has_more = len(events) == query.limit
    next_url = replace_query_param(request.build_absolute_uri(), "after", cursor) if has_more else None
    body = {
        "results": feed_json(events, viewer_of(request.user)),
        "cursor": cursor,
        "has_more": has_more,
        "next": next_url,
    }
    return Response(FeedPageSerializer(body).data)


FEED_PARAMETERS = [FeedQuerySerializer]


class TableEventsApi(APIView):
    """A table's events in log order. Everyone signed in may read; each sees what they may."""

    @extend_schema(
        operation_id="tables_events_list",
        summary="List a table's events",
        tags=TAGS,
        parameters=[TABLE_ID, *FEED_PARAMETERS],
        responses={200: FeedPageSerializer, **problem_responses("invalid_query", *TABLE)},
        examples=[
            OpenApiExample(
                "A player's page", value=examples.FEED_PAGE, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        query = feed_query(request)
        check_table(table_id)
        return feed_response(request, events_page(query=query, stream=table_stream(table_id)), query)


class AuditEventsApi(APIView):
    """The whole log in position order, for auditors and club admins (still redacted)."""

    permission_classes = (IsAuditorOrAdmin,)

    @extend_schema(
        operation_id="audit_events_list",
        summary="List the whole event log",
        tags=TAGS,
        parameters=FEED_PARAMETERS,
        responses={200: FeedPageSerializer, **problem_responses("invalid_query", *AUTH)},
        examples=[
            OpenApiExample("A page", value=examples.FEED_PAGE, response_only=True, status_codes=["200"])
        ],
    )
    def get(self, request: Request) -> Response:
        query = feed_query(request)
        return feed_response(request, events_page(query=query), query)


# The schema of one SSE message (OpenAPI describes a text/event-stream body message by message).
SSE_MESSAGE = {
    "type": "object",
    "required": ["event", "data"],
    "description": "One message; comment lines (`: heartbeat`) and the opening `retry:` carry no event.",
    "properties": {
        "id": {"type": "string", "description": "The event's position: send it back as Last-Event-ID."},
        "event": {"type": "string", "description": "The event's type, e.g. `CardsDealt`."},
        "data": {
            "type": "string",
            "description": "The event as the feeds serve it (FeedEvent), as JSON, redacted for the reader.",
        },
        "retry": {"type": "integer", "description": "Reconnect delay in milliseconds."},
    },
}


class TableStreamApi(APIView):
    """Server-Sent Events of one table, redacted for the reader; resume with Last-Event-ID."""

    authentication_classes = (
        ApiTokenAuthentication,
        StreamTicketAuthentication,
        QueryTokenAuthentication,
        SessionAuthentication,
    )
    # One representation: `?format=json` or `Accept: application/json` is 406 `not_acceptable`,
    # never a stream under a JSON name (generated clients would wait for one JSON body).
    renderer_classes = (EventStreamRenderer,)

    @extend_schema(
        operation_id="tables_stream",
        summary="Stream a table's events (Server-Sent Events)",
        tags=TAGS,
        parameters=[
            TABLE_ID,
            OpenApiParameter(
                "Last-Event-ID",
                OpenApiTypes.INT,
                OpenApiParameter.HEADER,
                description="Resume after this position (EventSource sends it).",
            ),
            OpenApiParameter(
                "last_event_id",
                OpenApiTypes.INT,
                description="Same as the Last-Event-ID header (default 0: from the start).",
            ),
            OpenApiParameter(
                "ticket",
                OpenApiTypes.STR,
                description="A stream ticket (`POST .../stream-tickets`, valid 60 s): how "
                "EventSource, which cannot send headers, authenticates.",
            ),
            OpenApiParameter(
                "token",
                OpenApiTypes.STR,
                deprecated=True,
                description="The API token itself; deprecated: use a ticket.",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                response=SSE_MESSAGE,
                description="An SSE stream of messages; `id` is the event's position. It ends "
                "after 300 s (reconnect with Last-Event-ID).",
                examples=[OpenApiExample("Two events and a heartbeat", value=examples.SSE_TEXT)],
            ),
            **problem_responses("invalid_query", *TABLE, "not_acceptable"),
        },
    )
    def get(self, request: Request, table_id: UUID) -> StreamingHttpResponse:
        after = last_event_id(request)
        check_table(table_id)
        source = TableEventSource(stream=table_stream(table_id), viewer=viewer_of(request.user), after=after)
        return stream_response(request, source)


class StreamTicketApi(APIView):
    """A short-lived ticket that opens this table's stream (`?ticket=`), so no API token goes into
    a URL. Stores nothing (tables.audit.tickets)."""

    class OutputSerializer(serializers.Serializer):
        ticket = serializers.CharField(help_text="Opaque; pass it as `?ticket=` to the stream.")
        table_id = serializers.UUIDField()
        expires_at = serializers.DateTimeField(help_text="Open the stream before this time.")
        stream_url = serializers.CharField(help_text="The stream's path with the ticket in it.")

        class Meta:
            ref_name = "StreamTicket"

    @extend_schema(
        operation_id="tables_stream_tickets_create",
        summary="Get a ticket that opens a table's stream",
        tags=TAGS,
        parameters=[TABLE_ID],
        request=None,
        responses={201: OutputSerializer, **problem_responses(*TABLE, *IDEMPOTENCY_PROBLEMS)},
        examples=[
            OpenApiExample("A ticket", response_only=True, status_codes=["201"], value=examples.STREAM_TICKET)
        ],
    )
    @idempotent
    def post(self, request: Request, table_id: UUID) -> Response:
        check_table(table_id)
        ticket = stream_ticket_issue(user=request.user, table_id=table_id)
        stream_url = f"{reverse('table-stream', kwargs={'table_id': table_id})}?ticket={ticket.ticket}"
        body = {
            "ticket": ticket.ticket,
            "table_id": ticket.table_id,
            "expires_at": ticket.expires_at,
            "stream_url": stream_url,
        }
        return Response(self.OutputSerializer(body).data, status=201)


def last_event_id(request: Request) -> int:
    """Where to resume: the Last-Event-ID header, else ?last_event_id=, else 0 (400 `invalid_query`
    unless it is an event position)."""
    header = request.headers.get("Last-Event-ID")
    params = {"last_event_id": header} if header else request.query_params
    return validated_params(StreamQuerySerializer, params)["last_event_id"]


class DealReplayApi(APIView):
    """A deal event by event, with the table after each event, as the caller may see it."""

    @extend_schema(
        operation_id="tables_deals_replay",
        summary="Replay a deal event by event",
        tags=TAGS,
        parameters=[TABLE_ID, DEAL_NO, ReplayQuerySerializer],
        responses={200: ReplaySerializer, **problem_responses("invalid_query", *DEAL, "version_not_in_deal")},
        examples=[
            OpenApiExample("One step (?at=)", value=examples.REPLAY, response_only=True, status_codes=["200"])
        ],
    )
    def get(self, request: Request, table_id: UUID, deal_no: int) -> Response:
        at = validated_query(ReplayQuerySerializer, request).get("at")
        return Response(
            deal_replay(table_id=table_id, deal_no=deal_no, viewer=viewer_of(request.user), at=at)
        )


class DealProofApi(APIView):
    """The fairness proof of a deal: the commitment and every dealt card checked, each card opened
    to the reader only when he may see it (deck schema 2: during the deal too, `finished` false;
    a live deal of the old seed recipe is 409 deal_not_finished)."""

    @extend_schema(
        operation_id="tables_deals_proof",
        summary="Get a deal's fairness proof",
        tags=TAGS,
        parameters=[TABLE_ID, DEAL_NO],
        responses={200: ProofSerializer, **problem_responses(*DEAL, "deal_not_finished")},
        examples=[
            OpenApiExample(
                "A player's proof", value=examples.PROOF, response_only=True, status_codes=["200"]
            ),
            OpenApiExample(
                "A player's proof during the deal (deck schema 2)",
                value=examples.LIVE_PROOF,
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def get(self, request: Request, table_id: UUID, deal_no: int) -> Response:
        return Response(
            ProofSerializer(
                deal_proof(table_id=table_id, deal_no=deal_no, viewer=viewer_of(request.user))
            ).data
        )


class LedgerVerifyApi(APIView):
    """Prove the log untampered and the money exact (the report of `manage.py verify_ledger`)."""

    permission_classes = (IsAuditorOrAdmin,)

    @extend_schema(
        operation_id="audit_verify",
        summary="Verify the log and the money",
        tags=TAGS,
        responses={200: VerifyReportSerializer, **problem_responses(*AUTH)},
        examples=[
            OpenApiExample(
                "A tampered log", value=examples.VERIFY_BROKEN, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request) -> Response:
        return Response(VerifyReportSerializer(verify_ledger().to_json()).data)


class AccountStatementApi(APIView):
    """Every transfer of an account with its running balance, event and deal."""

    @extend_schema(
        operation_id="audit_accounts_statement",
        summary="Get any account's statement",
        tags=TAGS,
        parameters=[
            OpenApiParameter(
                "account",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="e.g. player:3 or seat:<table>:3",
            ),
            StatementQuerySerializer,
        ],
        responses={200: StatementPageSerializer, **problem_responses("invalid_query", *AUTH)},
        examples=[
            OpenApiExample(
                "A seat's statement", value=examples.STATEMENT, response_only=True, status_codes=["200"]
            )
        ],
    )
    def get(self, request: Request, account: str) -> Response:
        check_can_read_account(request.user, account)
        query = validated_query(StatementQuerySerializer, request)
        entries = account_entries(account=account, unit=query.get("unit"))
        paginator, page = paginate(entries, request, query=query)
        body = {
            "account": account,
            "count": paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": explained_lines(page),
            "holds": explained_holds(account=account, unit=query.get("unit")),
        }
        return Response(StatementPageSerializer(body).data)


def history_response(request: Request, *, json_body: Any, text: str, filename: str | None) -> HttpResponse:
    """The history in the negotiated format (?format=json|text, Accept, or the .txt/.json path)."""
    if request.accepted_renderer.format == PlainTextRenderer.format:
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        extension = "txt"
    else:
        response = HttpResponse(canonical(json_body), content_type="application/json")
        extension = "json"
    if filename is not None:
        response["Content-Disposition"] = f'attachment; filename="{filename}.{extension}"'
    return response


FORMAT_JSON = OpenApiParameter(
    "format",
    OpenApiTypes.STR,
    enum=["json"],
    description="json (the default). `?format=text` answers the same history as text/plain, as a "
    "browser or curl wants it; a generated client uses the `history.txt` operation for text.",
)
TEXT = OpenApiResponse(response=OpenApiTypes.STR, description="The history as text, for `?format=text`.")
TEXT_EXAMPLE = OpenApiExample(
    "Text", value=examples.HISTORY_TEXT, response_only=True, status_codes=["200"], media_type="text/plain"
)


def _history_text(
    operation_id: str, summary: str, description: str, parameters: list[Any], problems: Any
) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        tags=TAGS,
        parameters=parameters,
        responses={
            (200, "text/plain"): OpenApiResponse(
                response=OpenApiTypes.STR, description="A readable history."
            ),
            **problem_responses(*problems),
        },
        examples=[
            OpenApiExample(
                "Text",
                value=examples.HISTORY_TEXT,
                response_only=True,
                status_codes=["200"],
                media_type="text/plain",
            )
        ],
    )


class DealHistoryApi(APIView):
    """One deal's hand history as canonical JSON (the input of docs/verify_deal.py), or as text
    (`?format=text`; `history.txt`)."""

    renderer_classes = (JSONRenderer, PlainTextRenderer)

    @extend_schema(
        operation_id="tables_deals_history",
        summary="Get a deal's hand history (JSON)",
        tags=TAGS,
        parameters=[TABLE_ID, DEAL_NO, FORMAT_JSON],
        responses={
            (200, "application/json"): OpenApiResponse(
                response=HandHistorySerializer, description="Canonical JSON (sorted keys)."
            ),
            (200, "text/plain"): TEXT,
            **problem_responses(*DEAL, "not_acceptable"),
        },
        examples=[TEXT_EXAMPLE],
    )
    def get(self, request: Request, table_id: UUID, deal_no: int, format: str | None = None) -> HttpResponse:
        history = deal_history(deal_load(table_id=table_id, deal_no=deal_no), viewer_of(request.user))
        return history_response(request, json_body=history, text=deal_text(history), filename=None)


class DealHistoryTextApi(DealHistoryApi):
    """`history.txt` of one deal: the text form alone, so generated clients read it as text."""

    @_history_text(
        "tables_deals_history_text",
        "Get a deal's hand history (text)",
        "One deal's hand history as a person reads it: seats, antes, cards and declares as you may "
        "see them, draws, bets, the showdown's hands and values, payments and the proof.",
        [TABLE_ID, DEAL_NO],
        (*DEAL, "not_acceptable"),
    )
    def get(self, request: Request, table_id: UUID, deal_no: int, format: str | None = None) -> HttpResponse:
        return super().get(request, table_id, deal_no, format)


class TableHistoryApi(APIView):
    """Every deal of a table as one download (canonical JSON, or text with `?format=text`); also at
    `history.txt` and `history.json`."""

    renderer_classes = (JSONRenderer, PlainTextRenderer)

    @extend_schema(
        operation_id="tables_history",
        summary="Download a table's hand histories (JSON)",
        tags=TAGS,
        parameters=[TABLE_ID, FORMAT_JSON],
        responses={
            (200, "application/json"): OpenApiResponse(
                response=TableHistorySerializer, description="Canonical JSON (sorted keys)."
            ),
            (200, "text/plain"): TEXT,
            **problem_responses(*TABLE, "not_acceptable"),
        },
        examples=[TEXT_EXAMPLE],
    )
    def get(self, request: Request, table_id: UUID, format: str | None = None) -> HttpResponse:
        viewer = viewer_of(request.user)
        histories = [deal_history(record, viewer) for record in table_deals(table_id)]
        document = {"format": "guts-table-history/1", "table_id": str(table_id), "deals": histories}
        return history_response(
            request, json_body=document, text=table_text(histories), filename=f"table-{table_id}-history"
        )


class TableHistoryTextApi(TableHistoryApi):
    """`history.txt`: every deal of the table as text, one download."""

    @_history_text(
        "tables_history_text",
        "Download a table's hand histories (text)",
        "Every deal of the table as a person reads it, one after another (an attachment).",
        [TABLE_ID],
        (*TABLE, "not_acceptable"),
    )
    def get(self, request: Request, table_id: UUID, format: str | None = None) -> HttpResponse:
        return super().get(request, table_id, format)


class TableHistoryDownloadApi(TableHistoryApi):
    """`history.json`: the same download, format named by the path (documented once, as
    `history`)."""

    @extend_schema(exclude=True)
    def get(self, request: Request, table_id: UUID, format: str | None = None) -> HttpResponse:
        return super().get(request, table_id, format)
