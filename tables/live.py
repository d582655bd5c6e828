"""What a live-view stream is made of (no HTTP here: selectors of any app build these; the stream
itself is `tables.api.streams`).

A `Snapshot` is everything one reader's stream shows now: the streams of the log whose events may
change it (the stream wakes when they get events) and its `View`s, each as its GET endpoint serves
it to that reader.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder


@dataclass(frozen=True, slots=True)
class View:
    """One view a stream keeps its reader up to date with. `key` names it among the stream's views;
    `same` is what decides whether it changed (default: the data itself; a view with a clock in it
    leaves the clock out)."""

    event: str
    key: str
    data: Any
    same: Any = None

    def fingerprint(self) -> str:
        value = self.data if self.same is None else self.same
        return json.dumps(value, cls=DjangoJSONEncoder, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True, slots=True)
class Snapshot:
    watched: frozenset[str]
    views: list[View] = field(default_factory=list)
