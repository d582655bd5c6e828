"""What a deposit or withdrawal over HTTP asks of PostgreSQL: the answer comes
from what the command returned (no second look at the player, the stream version or the balance),
and an Idempotency-Key's record rides in the command's transaction with no savepoint.

The bounds are what the code reaches today, so a re-read or a savepoint cannot come back silently.
Two counts: Django's queries (CaptureQueriesContext), and every statement the request's connection
sends, including the ledger's raw psycopg ones (`ledger.dbapi`), which Django does not see.
`bench/roundtrips.py` measures the round trips these cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from http_edge import roundtrip
from tests.api.conftest import deposits_url, post_json, withdrawals_url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# (url, Idempotency-Key?) -> (Django's queries, statements sent)
#   Django's: BEGIN, COMMIT, the player check, a withdrawal's balance check, the key's record.
#   Sent (BEGIN and COMMIT are not statements here): the key's claim (its lock and record, sent
#   with BEGIN), the player check, the bankroll lock and stream head (with BEGIN without a key), a
#   withdrawal's balance check, the one-trip append, the balances and the checkpoints (one
#   pipeline), the key's record. Before (5, 8), (13, 16), (6, 9), (14, 17).
BOUNDS = {
    (deposits_url, False): (3, 5),
    (deposits_url, True): (4, 7),
    (withdrawals_url, False): (4, 6),
    (withdrawals_url, True): (5, 8),
}


@pytest.fixture
def statements_sent(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[str]]:
    """From now on, record every statement this test's connection sends through a cursor (Django's
    and ledger.dbapi's are psycopg cursors) or together with a BEGIN (`roundtrip.first_statement`)."""
    sent: list[str] = []
    execute, first_statement = psycopg.Cursor.execute, roundtrip.first_statement

    def recording_execute(cursor: psycopg.Cursor, query: Any, *args: Any, **kwargs: Any) -> Any:
        if cursor.connection is connection.connection:  # not the notifier's, another thread's
            sent.append(str(query))
        return execute(cursor, query, *args, **kwargs)

    def recording_first_statement(query: psycopg.sql.Composable) -> tuple[Any, ...]:
        sent.append(query.as_string(connection.connection))
        # its in-transaction path runs a cursor too: record the statement once
        monkeypatch.setattr(psycopg.Cursor, "execute", execute)
        try:
            return first_statement(query)
        finally:
            monkeypatch.setattr(psycopg.Cursor, "execute", recording_execute)

    monkeypatch.setattr(psycopg.Cursor, "execute", recording_execute)
    monkeypatch.setattr(roundtrip, "first_statement", recording_first_statement)
    return lambda: sent


@pytest.fixture
def warm_auth(settings: Any) -> None:
    """A warm request authenticates from the process's cache: no query to count."""
    settings.GUTS_AUTH_CACHE_SYNC_SECONDS = 3600


@pytest.mark.parametrize(
    ("url", "keyed"), list(BOUNDS), ids=["deposit", "deposit-with-key", "withdrawal", "withdrawal-with-key"]
)
def test_a_cashier_post_queries_at_most_its_bound_and_takes_no_savepoint(
    admin_api: APIClient,
    player: AbstractUser,
    warm_auth: None,
    statements_sent: Callable[[], list[str]],
    url: Callable[[int], str],
    keyed: bool,
) -> None:
    django_bound, statement_bound = BOUNDS[(url, keyed)]
    assert post_json(admin_api, deposits_url(player.pk), {"amount": 1000}).status_code == 201  # warms
    sent_before = len(statements_sent())
    headers = {"Idempotency-Key": "counted"} if keyed else {}

    with CaptureQueriesContext(connection) as queries:
        response = post_json(admin_api, url(player.pk), {"amount": 100}, **headers)

    assert response.status_code == 201, response.json()
    assert response.json()["balance"] == (1100 if url is deposits_url else 900)
    sent = statements_sent()[sent_before:]
    django_queries = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in sent + django_queries if "SAVEPOINT" in sql.upper()]
    assert len(django_queries) <= django_bound, django_queries
    assert len(sent) <= statement_bound, sent
