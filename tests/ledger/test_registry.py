"""Event types with versioned schemas: appends stamp the version, reads upcast old shapes."""

from __future__ import annotations

import pytest

from ledger import registry
from ledger.store import NewEvent, StreamWrite, append, read_all, read_stream
from tests.ledger.conftest import unique

pytestmark = pytest.mark.django_db


def test_unregistered_types_are_version_1() -> None:
    stored = append([StreamWrite(unique("s"), 0, [NewEvent(unique("Anything"), {})])])
    assert stored[0].meta["schema_version"] == 1


def test_old_events_are_upcast_on_read_and_stored_unchanged(throwaway_type: str) -> None:
    stream = unique("s")
    registry.register_event_type(throwaway_type)
    append([StreamWrite(stream, 0, [NewEvent(throwaway_type, {"chips": 5})])])
    registry.register_event_type(
        throwaway_type,
        version=3,
        upcasters={
            1: lambda d: {"amount": d["chips"]},
            2: lambda d: {**d, "unit": "chips"},
        },
    )
    append([StreamWrite(stream, 1, [NewEvent(throwaway_type, {"amount": 9, "unit": "t:1"})])])
    first, second = read_stream(stream)
    assert first.data == {"amount": 5, "unit": "chips"}
    assert first.meta["schema_version"] == 1
    assert second.data == {"amount": 9, "unit": "t:1"}
    assert second.meta["schema_version"] == 3
    assert read_all(after=first.position - 1, limit=1)[0].data == first.data


def test_upcasters_must_cover_every_older_version(throwaway_type: str) -> None:
    with pytest.raises(registry.EventTypeError):
        registry.register_event_type(throwaway_type, version=3, upcasters={1: dict})
    with pytest.raises(registry.EventTypeError):
        registry.register_event_type(throwaway_type, version=0)


def test_a_type_cannot_go_back_to_an_older_version(throwaway_type: str) -> None:
    registry.register_event_type(throwaway_type, version=2, upcasters={1: dict})
    with pytest.raises(registry.EventTypeError):
        registry.register_event_type(throwaway_type, version=1)
