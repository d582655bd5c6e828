"""The JSON body parser every view uses: DRF's, with a nesting limit.

DRF's parser lets `RecursionError` escape on a body nested about a thousand deep (2 KB of `[`),
which became a 500; and a body just under that depth parses but blows the stack later (validation,
the idempotency fingerprint, rendering). Bodies nested deeper than MAX_JSON_DEPTH are refused as
400 `malformed_request` before any of that runs. No API body needs more than a few levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 32


class JSONParser(parsers.JSONParser):
    """`application/json` bodies, at most MAX_JSON_DEPTH arrays/objects deep."""

    def parse(
        self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_too_deep()) from exc
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(_too_deep())
        return data


def json_depth(value: Any) -> int:
    """How many arrays/objects deep `value` nests (a scalar is 0), walked without recursion."""
    containers = (dict, list)
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, containers) else []
    while pending:
        item, depth = pending.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:  # deep enough to refuse: stop walking
            return deepest
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children if isinstance(child, containers))
    return deepest


def _too_deep() -> str:
    return f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} arrays/objects."
