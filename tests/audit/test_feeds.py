"""Event feeds: cursor paging by position, type and time filters, roles, problem codes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ledger.models import Event
from tests.audit.conftest import Club, Session, client_for, everyone_in


def table_events_url(session: Session) -> str:
    return f"/api/v1/tables/{session.table_id}/events"


def test_paging_by_position_returns_every_event_once_in_order(club: Club, session: Session) -> None:
    session.play(everyone_in)
    api = client_for(club.players[0])
    positions, after = [], 0
    while True:
        page = api.get(table_events_url(session), {"after": after, "limit": 4}).json()
        positions += [event["position"] for event in page["results"]]
        after = page["cursor"]
        if not page["has_more"]:
            assert page["next"] is None
            break
        assert f"after={after}" in page["next"]
    stored = list(
        Event.objects.filter(stream=f"table-{session.table_id}")
        .order_by("position")
        .values_list("position", flat=True)
    )
    assert positions == stored


def test_the_cursor_waits_at_the_end_for_new_events(club: Club, session: Session) -> None:
    api = client_for(club.players[0])
    first = api.get(table_events_url(session)).json()
    assert first["has_more"] is False
    session.play(everyone_in)
    later = api.get(table_events_url(session), {"after": first["cursor"]}).json()
    assert later["results"][0]["type"] == "DealStarted"
    assert later["results"][0]["position"] > first["cursor"]


def test_type_filter_is_repeatable(club: Club, session: Session) -> None:
    session.play(everyone_in)
    page = client_for(club.auditor).get(table_events_url(session) + "?type=DealStarted&type=DealEnded").json()
    assert [event["type"] for event in page["results"]] == ["DealStarted", "DealEnded"]


def test_time_window_filters_by_recorded_at(club: Club, session: Session) -> None:
    session.play(everyone_in)
    events = list(Event.objects.filter(stream=f"table-{session.table_id}").order_by("position"))
    middle = events[len(events) // 2].recorded_at
    api = client_for(club.auditor)
    since = api.get(table_events_url(session), {"since": middle.isoformat()}).json()["results"]
    until = api.get(table_events_url(session), {"until": middle.isoformat()}).json()["results"]
    assert all(event["recorded_at"] >= middle.isoformat().replace("+00:00", "Z") for event in since)
    assert {e["position"] for e in since} | {e["position"] for e in until} == {e.position for e in events}
    empty = api.get(table_events_url(session), {"since": (middle + timedelta(days=1)).isoformat()}).json()
    assert empty["results"] == []


def test_global_feed_is_for_auditors_and_admins(club: Club, session: Session) -> None:
    session.play(everyone_in)
    for user in (club.auditor, club.admin):
        page = client_for(user).get("/api/v1/audit/events", {"limit": 500}).json()
        streams = {event["stream"] for event in page["results"]}
        assert f"table-{session.table_id}" in streams
        assert any(stream.startswith("player-") for stream in streams)
    denied = client_for(club.players[0]).get("/api/v1/audit/events")
    assert denied.status_code == 403
    assert denied.json()["code"] == "forbidden"


def test_global_feed_links_events_to_tables_and_deals(club: Club, session: Session) -> None:
    deal_no = session.play(everyone_in)
    page = client_for(club.auditor).get("/api/v1/audit/events", {"type": "AntesPosted", "limit": 500}).json()
    ours = [event for event in page["results"] if event["table_id"] == session.table_id]
    assert [event["deal_no"] for event in ours] == [deal_no]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"after": "-1"}, "after"),
        ({"limit": "0"}, "limit"),
        ({"limit": "501"}, "limit"),
        ({"since": "yesterday"}, "since"),
    ],
)
def test_bad_queries_are_400_invalid_query(club: Club, session: Session, query: dict, field: str) -> None:
    response = client_for(club.auditor).get(table_events_url(session), query)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_query"
    assert field in body["errors"]


def test_unknown_table_is_404(club: Club, db: None) -> None:
    response = client_for(club.auditor).get("/api/v1/tables/0b7f3c9e-6f1a-4b7e-9a51-2d2c1f8e4a10/events")
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_table"
    assert response["Content-Type"] == "application/problem+json"


def test_anonymous_callers_are_401(session: Session, client: object) -> None:
    response = client.get(table_events_url(session))
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
