"""Limit/offset pages for APIViews: the response helper and the page's OpenAPI shape."""
from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

PAGE_PARAMETERS = [
    OpenApiParameter("limit", OpenApiTypes.INT, OpenApiParameter.QUERY,
                     description="Number of results to return per page (default 50)."),
    OpenApiParameter("offset", OpenApiTypes.INT, OpenApiParameter.QUERY,
                     description="The initial index from which to return the results."),
]


def paginated_response(*, queryset: QuerySet[Any], serializer_class: type[serializers.Serializer],
                       request: Request, view: APIView) -> Response:
    """One page of `queryset` as {count, next, previous, results} (`?limit=&offset=`)."""
    paginator = LimitOffsetPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
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
