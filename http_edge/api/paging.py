"""Limit/offset pages for APIViews: the page query, the response helper and the page's OpenAPI shape.

Every list answers at most MAX_PAGE_SIZE rows a page; `limit` and `offset` are validated like any
query parameter (http_edge.api.input: 400 `invalid_query`), so a bad or huge value is refused
instead of being ignored or reaching the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from http_edge.api.input import MAX_POSITION, QueryIntegerField, QuerySerializer, validated_query

MAX_PAGE_SIZE = 500
DEFAULT_PAGE_SIZE = 50


class PageQuerySerializer(QuerySerializer):
    """`?limit=&offset=`; list views with more parameters subclass it."""

    limit = QueryIntegerField(
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        default=DEFAULT_PAGE_SIZE,
        help_text=f"Results per page, 1 to {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE}).",
    )
    offset = QueryIntegerField(
        min_value=0, max_value=MAX_POSITION, default=0, help_text="How many results to skip (default 0)."
    )

    class Meta:
        ref_name = "PageQuery"


PAGE_PARAMETERS = [PageQuerySerializer]


class CheckedPagination(LimitOffsetPagination):
    """DRF's limit/offset pagination fed with already validated values (DRF's own parsing falls
    back to the default on garbage and has no upper bound on `offset`)."""

    max_limit = MAX_PAGE_SIZE

    def __init__(self, query: Mapping[str, Any]) -> None:
        self.query = query

    def get_limit(self, request: Request) -> int:
        return self.query["limit"]

    def get_offset(self, request: Request) -> int:
        return self.query["offset"]


def paginate(
    queryset: QuerySet[Any], request: Request, *, query: Mapping[str, Any] | None = None
) -> tuple[CheckedPagination, list[Any]]:
    """The paginator and the rows of the page `query` names (validated from `request` if None)."""
    if query is None:
        query = validated_query(PageQuerySerializer, request)
    paginator = CheckedPagination(query)
    return paginator, list(paginator.paginate_queryset(queryset, request) or [])


def paginated_response(
    *,
    queryset: QuerySet[Any],
    serializer_class: type[serializers.Serializer],
    request: Request,
    view: APIView,
) -> Response:
    """One page of `queryset` as {count, next, previous, results} (`?limit=&offset=`)."""
    paginator, page = paginate(queryset, request)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def page_serializer(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The serializer describing a page of `item`s, for `extend_schema(responses=...)`."""
    fields: dict[str, Any] = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
        "Meta": type("Meta", (), {"ref_name": name}),
    }
    return type(f"{name}Serializer", (serializers.Serializer,), fields)
