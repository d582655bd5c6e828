"""Renderers for the non-JSON audit responses: plain-text histories and the SSE stream.

DRF negotiates them like any other (`Accept:` or `?format=`). They render only errors
(problem details) themselves, as JSON text; successful bodies are built by the views.
"""

from __future__ import annotations

import json
from typing import Any

from rest_framework.renderers import BaseRenderer
from rest_framework.utils.encoders import JSONEncoder


class _ProblemAsJson(BaseRenderer):
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if isinstance(data, str):
            return data.encode(self.charset)
        return json.dumps(data, cls=JSONEncoder).encode(self.charset)


class PlainTextRenderer(_ProblemAsJson):
    media_type = "text/plain"
    format = "text"


class EventStreamRenderer(_ProblemAsJson):
    media_type = "text/event-stream"
    format = "event-stream"
