"""GET /audit/verify: the ledger's own report (hash chains, conservation), and tampering caught."""

from __future__ import annotations

import pytest
from django.db import connection

from ledger.models import Event
from tests.audit.conftest import Club, Session, client_for, everyone_in, tamper


def test_an_honest_log_verifies(club: Club, session: Session) -> None:
    session.play(everyone_in)
    for user in (club.auditor, club.admin):
        report = client_for(user).get("/api/v1/audit/verify").json()
        assert report["ok"] is True
        assert report["first_broken"] is None
        assert report["events"] == Event.objects.count()
        assert report["units"] == ["chips"]


def test_players_may_not_verify(club: Club, session: Session) -> None:
    response = client_for(club.players[0]).get("/api/v1/audit/verify")
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"


def forge_first_payment(session: Session) -> Event:
    """Raise the winner's share in the table's first settlement (what a dispute is about)."""
    row = Event.objects.filter(stream=f"table-{session.table_id}", type="PotSettled").order_by("version")[0]
    data = {**row.data, "transfers": [dict(t) for t in row.data["transfers"]]}
    data["transfers"][0]["amount"] += 5
    tamper(row.position, data)
    return row


@pytest.mark.postgres
def test_tampering_on_postgresql_is_caught_at_the_right_event(club: Club, session: Session) -> None:
    session.play(everyone_in)
    session.play(everyone_in)
    with connection.cursor() as cursor:  # the append-only trigger is on before and after
        cursor.execute("SELECT tgenabled FROM pg_trigger WHERE tgname = 'ledger_event_no_update_delete'")
        assert cursor.fetchone()[0] == "O"
    forged = forge_first_payment(session)
    report = client_for(club.auditor).get("/api/v1/audit/verify").json()
    assert report["ok"] is False
    broken = report["first_broken"]
    assert (broken["position"], broken["stream"], broken["version"]) == (
        forged.position,
        forged.stream,
        forged.version,
    )
    assert "hash does not match" in broken["problem"]
    assert report["conservation_problems"] == []  # a forged transfer still moves chips, never makes them
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgenabled FROM pg_trigger WHERE tgname = 'ledger_event_no_update_delete'")
        assert cursor.fetchone()[0] == "O"


def test_tampering_is_caught_on_any_backend(club: Club, session: Session) -> None:
    session.play(everyone_in)
    forged = forge_first_payment(session)
    report = client_for(club.admin).get("/api/v1/audit/verify").json()
    assert report["first_broken"]["position"] == forged.position
    assert report["projection_problems"]  # the balances no longer follow the forged payment
