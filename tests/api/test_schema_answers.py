"""Answers the server gives that the schema did not document, found by tests/api/test_schemathesis.py
and kept here as focused regressions: a client generated from the schema must be able to expect
every status it can get."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from http_edge.api.errors import PROBLEM_CONTENT_TYPE

# Content negotiation, not the query validator, answers a bad `?format=` (406 not_acceptable).
NEGOTIATED = {"format"}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def query_parameters(operation: dict[str, Any]) -> set[str]:
    return {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}


def documented_codes(operation: dict[str, Any], status: int) -> set[str]:
    content = operation["responses"].get(str(status), {}).get("content", {}).get(PROBLEM_CONTENT_TYPE, {})
    return {example["value"]["code"] for example in content.get("examples", {}).values()}


def test_every_operation_taking_query_parameters_documents_invalid_query(schema: dict[str, Any]) -> None:
    undocumented = [
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if query_parameters(operation) - NEGOTIATED
        and "invalid_query" not in documented_codes(operation, 400)
    ]
    assert undocumented == []


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/players", "/api/v1/players/{player_id}/statement"])
def test_a_malformed_page_is_the_documented_400(
    schema: dict[str, Any], admin_api: APIClient, player: AbstractUser, path: str
) -> None:
    response = admin_api.get(path.format(player_id=player.pk), {"limit": "abc"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_query")
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    assert "invalid_query" in documented_codes(schema["paths"][path]["get"], 400)
