"""The OpenAPI document's finish (drf-spectacular settings name these by string): the order of
its operations, and placeholders that render.

Swagger UI and ReDoc render descriptions as Markdown, where `<id>` is an HTML tag and vanishes
("cashier -> player:."); a placeholder outside a code span is set as code instead.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.plumbing import alpha_operation_sorter

# Path prefixes in the order of SPECTACULAR_SETTINGS["TAGS"]: tables first.
_SECTIONS = (
    "/api/v1/variants",
    "/api/v1/tables",
    "/api/v1/tournaments",
    "/api/v1/players",
    "/api/v1/me",
    "/api/v1/auth",
    "/api/v1/audit",
    "/api/v1/disputes",
)
_CODE_SPAN = re.compile(r"(`[^`]*`)")
_PLACEHOLDER = re.compile(r"""[^\s`"'(]*<\w[\w:.-]*>(?:[^\s`"',;).]|\.(?=\S))*""")
_TEXT_KEYS = frozenset({"description", "summary"})


def operation_order(endpoint: tuple[str, str, str, Any]) -> tuple[int, Any]:
    """Sort key of an endpoint: its section, then drf-spectacular's own order (path, method)."""
    path = endpoint[0]
    rank = next((i for i, prefix in enumerate(_SECTIONS) if path.startswith(prefix)), len(_SECTIONS))
    return rank, alpha_operation_sorter(endpoint)


def placeholders_as_code(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Postprocessing hook: every `<placeholder>` in a description or summary, outside a code
    span, becomes code (`player:<id>`), so both viewers show it."""
    _walk(result)
    return result


def as_code(text: str) -> str:
    parts = _CODE_SPAN.split(text)
    return "".join(
        part if part.startswith("`") else _PLACEHOLDER.sub(lambda m: f"`{m.group(0)}`", part)
        for part in parts
    )


def _walk(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _TEXT_KEYS and isinstance(value, str):
                node[key] = as_code(value)
            else:
                _walk(value)
    elif isinstance(node, list):
        for item in node:
            _walk(item)
