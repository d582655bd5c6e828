"""PostgreSQL triggers reject UPDATE, DELETE and TRUNCATE on the event table, even as raw SQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from ledger.store import NewEvent, StreamWrite, append, read_stream
from tests.ledger.conftest import unique

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _run_raw(*statements: str, params: list | None = None) -> None:
    """Run raw SQL in a savepoint, so a rejected statement leaves the test transaction usable."""
    with transaction.atomic(), connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql, params)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_event SET data = '{}'::jsonb WHERE stream = %s",
        "DELETE FROM ledger_event WHERE stream = %s",
    ],
)
def test_raw_update_and_delete_fail(sql: str) -> None:
    stream = unique("s")
    append([StreamWrite(stream, 0, [NewEvent("A", {"n": 1})])])
    with pytest.raises(DatabaseError, match="append-only"):
        _run_raw(sql, params=[stream])
    assert read_stream(stream)[0].data == {"n": 1}


def test_raw_truncate_fails_without_the_escape_hatch() -> None:
    stream = unique("s")
    append([StreamWrite(stream, 0, [NewEvent("A", {})])])
    with pytest.raises(DatabaseError, match="append-only"):
        _run_raw("SET LOCAL ledger.allow_truncate = off", "TRUNCATE ledger_event CASCADE")
    assert len(read_stream(stream)) == 1
