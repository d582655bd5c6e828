"""The one-message append's plumbing (ledger.dbapi.Message) on PostgreSQL: literals that survive
any text, statements prepared once per connection, and a connection that lost its prepared
statements recovering through the command's retry (DESIGN §2.3)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection, transaction

from ledger import dbapi
from ledger.store import ConcurrencyError, NewEvent, StreamWrite, append, read_stream

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

AWKWARD = ["plain", "it's", "back\\slash", "\\'; DROP TABLE ledger_event; --", "日本語 ♠", "$1 %s %%", ""]


@pytest.mark.parametrize("text", AWKWARD)
def test_a_literal_reads_back_as_the_value(text: str) -> None:
    moment = datetime(2026, 12, 1, 21, 0, 0, 123456, tzinfo=UTC)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT "
            + ", ".join(
                [
                    dbapi.literal(text),
                    dbapi.literal([text, "x"]),
                    dbapi.literal(moment),
                    dbapi.literal(None),
                    dbapi.literal(True),
                    dbapi.literal(-7),
                ]
            )
        )
        assert cursor.fetchone() == (text, [text, "x"], moment, None, True, -7)


def test_a_literal_refuses_nul() -> None:
    with pytest.raises(ValueError, match="NUL"):
        dbapi.literal("a\x00b")


def commit_one(stream: str, version: int) -> list[tuple[str | None, ...]]:
    """A one-message transaction of its own: one statement, then COMMIT."""
    with dbapi.commit_with_append(), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")  # the transaction has begun
        message = dbapi.Message()
        index = message.add("SELECT %s::text, %s::int", [stream, version])
        message.commit()
        return message.rows(index)


def test_a_statement_is_prepared_once_per_connection() -> None:
    assert commit_one("a", 1) == [("a", "1")]
    prepared = dict(dbapi._prepared[connection.connection])
    assert commit_one("b", 2) == [("b", "2")]
    assert dbapi._prepared[connection.connection] == prepared  # no second PREPARE


def append_in_own_transaction(stream: str, version: int) -> None:
    """What a command does: read under its transaction, then append as its last statement."""
    with dbapi.commit_with_append(), transaction.atomic():
        read_stream(stream)
        append([StreamWrite(stream, version, [NewEvent("Noted", {"n": version + 1})])], savepoint=False)


def test_lost_prepared_statements_are_a_clash_the_command_retries() -> None:
    stream = "message-lost"
    append_in_own_transaction(stream, 0)
    append_in_own_transaction(stream, 1)  # prepared on this connection
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as a pooler's DISCARD ALL would
    with pytest.raises(ConcurrencyError):
        append_in_own_transaction(stream, 2)
    assert [e.data["n"] for e in read_stream(stream)] == [1, 2]  # nothing written
    append_in_own_transaction(stream, 2)  # the retry prepares again
    assert [e.data["n"] for e in read_stream(stream)] == [1, 2, 3]
