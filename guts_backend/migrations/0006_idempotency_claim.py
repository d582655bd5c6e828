"""PostgreSQL: claim an Idempotency-Key in one round trip.

`guts_idempotency_claim(lock_class, lock_key, caller, key)` tries the key's transaction-level
advisory lock (`pg_try_advisory_xact_lock(lock_class, lock_key)`, held to commit) and then reads
the key's record, every column as text (`locked` is 'true' or 'false'; the record's columns are
NULL when it has none). It is VOLATILE so that, under READ COMMITTED, the read takes its snapshot
after the lock is tried and sees the commit of the lock's previous holder. Sent with the
transaction's BEGIN (`http_edge.roundtrip.first_statement`), the lock, the read and the BEGIN cost
one round trip. Other backends: no-op (SQLite serialises writers at BEGIN).
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION guts_idempotency_claim(lock_class integer, lock_key integer, record_caller bigint,
                                       record_key text)
RETURNS TABLE(locked text, request_hash text, status_code text, body text, headers text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    got boolean := pg_try_advisory_xact_lock(lock_class, lock_key);
BEGIN
    RETURN QUERY
        SELECT got::text, r.request_hash::text, r.status_code::text, r.body::text, r.headers::text
        FROM (SELECT 1) AS one
        LEFT JOIN guts_backend_idempotencyrecord r ON r.caller_id = record_caller AND r.key = record_key;
END;
$$;
"""

BACKWARD = "DROP FUNCTION IF EXISTS guts_idempotency_claim(integer, integer, bigint, text);"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("guts_backend", "0005_idempotencyrecord_headers")]

    operations = [migrations.RunPython(install, uninstall)]
