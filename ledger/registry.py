"""Event types and their schema versions, with upcasting of old shapes on read (DESIGN §2.3).

An app registers each event type it owns, at import, with its current schema version and one
upcaster per older version (v1 -> v2, v2 -> v3, ...). Appends stamp meta["schema_version"] with
the current version; reads pass stored data through the upcasters, so code only ever sees the
current shape while the log keeps what was written (and its hashes stay valid).

Unregistered types are allowed and are at version 1: other apps need not ask the ledger first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class EventTypeError(ValueError):
    code = "event_type_error"


@dataclass(frozen=True, slots=True)
class EventType:
    """A registered type: `upcasters[n]` turns version-n data into version n+1."""

    name: str
    version: int = 1
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)

    def upcast(self, data: dict[str, Any], from_version: int) -> dict[str, Any]:
        for version in range(from_version, self.version):
            data = self.upcasters[version](data)
        return data


_types: dict[str, EventType] = {}


def register_event_type(
    name: str, *, version: int = 1, upcasters: Mapping[int, Upcaster] | None = None
) -> EventType:
    """Declare `name` at schema `version`; `upcasters` must cover every version below it."""
    upcasters = dict(upcasters or {})
    if version < 1:
        raise EventTypeError(f"{name}: version must be >= 1")
    if set(upcasters) != set(range(1, version)):
        raise EventTypeError(
            f"{name}: need upcasters for versions {list(range(1, version))}, got {sorted(upcasters)}"
        )
    existing = _types.get(name)
    if existing is not None and existing.version > version:
        raise EventTypeError(f"{name} is already registered at version {existing.version}")
    event_type = EventType(name, version, upcasters)
    _types[name] = event_type
    return event_type


def unregister_event_type(name: str) -> None:
    """Forget a type (tests that register throwaway types clean up with this)."""
    _types.pop(name, None)


def schema_version(name: str) -> int:
    """The version appends stamp for `name` (1 for unregistered types)."""
    event_type = _types.get(name)
    return event_type.version if event_type else 1


def any_upcasters() -> bool:
    """Whether some registered type has older schemas (set-based SQL rebuilds read stored data)."""
    return any(event_type.version > 1 for event_type in _types.values())


def upcast(name: str, data: dict[str, Any], stored_version: int) -> dict[str, Any]:
    """`data` as the current schema of `name` expects it. Stored data is never changed."""
    event_type = _types.get(name)
    if event_type is None or stored_version >= event_type.version:
        return data
    return event_type.upcast(data, stored_version)
