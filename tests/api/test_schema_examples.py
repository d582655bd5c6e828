"""Every example in the OpenAPI document validates against the schema it illustrates, so a client
generated from the document can parse what the document shows (and, by the same token, what the
server sends: Schemathesis holds the answers to the same schemas).

The document is OpenAPI 3.0: `nullable` becomes JSON Schema's null type, component references
are resolved from the document itself, and a Server-Sent Events example (the stream's text) is
split into its messages, each validated against the message schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

REF_PREFIX = "#/components/schemas/"


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema (draft 2020-12), references into `$defs`."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: json_schema(value) for key, value in node.items() if key not in ("nullable", "discriminator")}
    if "$ref" in out:
        out["$ref"] = out["$ref"].replace(REF_PREFIX, "#/$defs/")
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The messages of an SSE stream's text that carry an event (comments and `retry:` alone do not)."""
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = int(value.strip()) if name == "retry" else value.removeprefix(" ")
        if "event" in fields or "data" in fields:
            messages.append(fields)
    return messages


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def examples(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str, Any]]:
    """(where, the media type's schema, the media type, the example's value) for every example."""
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            bodies = [("request", operation.get("requestBody", {})), *operation["responses"].items()]
            for status, body in bodies:
                for media_type, media in body.get("content", {}).items():
                    for name, example in media.get("examples", {}).items():
                        where = f"{method.upper()} {path} {status} {media_type} {name}"
                        yield where, media.get("schema", {}), media_type, example["value"]


def failures(schema: dict[str, Any]) -> tuple[int, list[str]]:
    definitions = json_schema(schema["components"]["schemas"])
    count, failed = 0, []
    for where, media_schema, media_type, value in examples(schema):
        validator = jsonschema.Draft202012Validator({**json_schema(media_schema), "$defs": definitions})
        values = (
            sse_messages(value)
            if media_type == "text/event-stream" and media_schema.get("type") == "object"
            else [value]
        )
        for one in values:
            count += 1
            failed += [
                f"{where}: {error.json_path}: {error.message[:200]}" for error in validator.iter_errors(one)
            ]
    return count, failed


def test_every_example_validates_against_its_schema(schema: dict[str, Any]) -> None:
    count, failed = failures(schema)
    assert count > 600  # every operation's requests, answers and problems
    assert failed == []


def test_the_checker_catches_a_bad_example(schema: dict[str, Any]) -> None:
    """A Table example without `bets` (the regression this test exists for) fails, as does a list
    example wrapped in a second list."""
    operation = schema["paths"]["/api/v1/tables/{table_id}"]["get"]
    media = operation["responses"]["200"]["content"]["application/json"]
    (example,) = media["examples"].values()
    example["value"] = {key: value for key, value in example["value"].items() if key != "bets"}
    variants = schema["paths"]["/api/v1/variants"]["get"]["responses"]["200"]["content"]["application/json"]
    for listed in variants["examples"].values():
        listed["value"] = [listed["value"]]
    _, failed = failures(schema)
    assert any("/api/v1/tables/{table_id} 200" in failure and "'bets'" in failure for failure in failed)
    assert any("/api/v1/variants 200" in failure for failure in failed)


def test_the_sse_example_is_split_into_its_messages() -> None:
    text = 'retry: 2000\n\nid: 118\nevent: CardsDealt\ndata: {"a": 1}\n\n: heartbeat\n\n'
    assert sse_messages(text) == [{"id": "118", "event": "CardsDealt", "data": '{"a": 1}'}]
