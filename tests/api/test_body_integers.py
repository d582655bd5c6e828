"""Every integer of every request body, chip amounts first, is a JSON integer: "5", 5.0 and true are
refused with 400 `invalid_input`, never coerced (docs/api.md, "JSON only").

The operations and their fields come from the OpenAPI document, not from a list kept by hand, so a
new command's amount field is tested the day it is added: it must be a `JsonIntegerField` (or a
`ChipAmountField`), or this test fails.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from http_edge.api.input import NOT_AN_INTEGER
from tests.api.conftest import event_count

BAD_INTEGERS: list[Any] = ["5", "7", 5.0, 10.0, True, False]
# The amount fields the attack found coerced, and the ones that were right: the walk must find them.
KNOWN = {
    ("/api/v1/tables/{table_id}/bets", ("amount",)),
    ("/api/v1/tables/{table_id}/bids", ("amount",)),
    ("/api/v1/tables/{table_id}/seats", ("buy_in",)),
    ("/api/v1/tables/{table_id}/top-ups", ("amount",)),
    ("/api/v1/players/{player_id}/deposits", ("amount",)),
    ("/api/v1/tournaments", ("buy_in",)),
    ("/api/v1/tournaments", ("levels", "[]", "ante")),
}

Field = tuple[str, str, tuple[str, ...]]  # method, path, property path ("[]": an array item)


def integer_fields() -> list[Field]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]

    def walk(node: dict[str, Any], at: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        if "$ref" in node:
            yield from walk(components[node["$ref"].split("/")[-1]], at)
            return
        for part in node.get("allOf", []) + node.get("oneOf", []) + node.get("anyOf", []):
            yield from walk(part, at)
        if node.get("type") == "integer":
            yield at
        for name, prop in node.get("properties", {}).items():
            yield from walk(prop, (*at, name))
        if node.get("type") == "array":
            yield from walk(node["items"], (*at, "[]"))

    found = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                found += [(method, path, at) for at in walk(body["schema"], ())]
    return found


FIELDS = integer_fields()


def test_the_walk_finds_every_amount_field() -> None:
    assert {(path, at) for _, path, at in FIELDS} >= KNOWN
    assert len(FIELDS) >= 20


def body_with(at: tuple[str, ...], value: Any) -> Any:
    if not at:
        return value
    head, rest = at[0], at[1:]
    return [body_with(rest, value)] if head == "[]" else {head: body_with(rest, value)}


def concrete(path: str, player: AbstractUser) -> str:
    def fill(match: re.Match[str]) -> str:
        return str(player.pk) if match.group(1) == "player_id" else str(uuid.uuid4())

    return re.sub(r"\{(\w+)\}", fill, path)


@pytest.mark.django_db
@pytest.mark.parametrize("value", BAD_INTEGERS, ids=repr)
@pytest.mark.parametrize(
    ("method", "path", "at"), FIELDS, ids=lambda x: "/".join(x) if isinstance(x, tuple) else x
)
def test_every_body_integer_refuses_strings_floats_and_booleans(
    admin_api: APIClient, player: AbstractUser, method: str, path: str, at: tuple[str, ...], value: Any
) -> None:
    before = event_count()
    response = getattr(admin_api, method)(concrete(path, player), body_with(at, value), format="json")
    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "invalid_input"
    assert NOT_AN_INTEGER in json.dumps(problem["errors"]), problem  # this field's own refusal
    assert event_count() == before
