"""PostgreSQL: take a command's lock and read its stream's head in one round trip.

`ledger_lock_head(lock_class, lock_key, stream)` takes `pg_advisory_xact_lock(lock_class,
lock_key)` (a table's lock, a bankroll's lock: held to commit) and then returns the stream's head
(version, hash, 0 and '' for a new stream). It is VOLATILE so that, under READ COMMITTED, the
head query takes its snapshot after the lock is granted and sees the commit of the previous lock
holder. Other backends: no-op (SQLite serialises writers at BEGIN).
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION ledger_lock_head(lock_class integer, lock_key integer, head_stream text)
RETURNS TABLE(head_version integer, head_hash text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_class, lock_key);
    RETURN QUERY
        SELECT coalesce(max(h.version), 0), coalesce(max(h.hash::text), '') FROM (
            SELECT e.version, e.hash FROM ledger_event e
            WHERE e.stream = head_stream ORDER BY e.version DESC LIMIT 1
        ) AS h;
END;
$$;
"""

BACKWARD = "DROP FUNCTION IF EXISTS ledger_lock_head(integer, integer, text);"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0004_watermark")]

    operations = [migrations.RunPython(install, uninstall)]
