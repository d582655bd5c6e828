"""PostgreSQL: triggers that make the event table append-only for raw SQL too (DESIGN §2.3),
and the function that starts an append in one round trip.

UPDATE and DELETE are rejected row by row; TRUNCATE by a statement-level trigger. The one escape
hatch is the session setting `ledger.allow_truncate = on`, for test databases that Django
flushes between transactional tests (an owner of the table could disable the triggers anyway,
so it weakens nothing; the hash chain is what proves the log untouched).

`ledger_append_begin(lock_key, streams)` takes the append lock (pg_advisory_xact_lock, held to
commit) and then reads each stream's head (version, hash). It is VOLATILE so that, under READ
COMMITTED, the head query takes its snapshot after the lock is granted and sees the commit of
the previous lock holder. `ledger_append_known(lock_key, heads, events)` is the one-round-trip
append: it takes the same lock, checks that each stream's head is the (version, hash) the caller
hashed from, and inserts the events (returning nothing if a head differs). Other backends: no-op.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION ledger_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND current_setting('ledger.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'ledger_event is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE FUNCTION ledger_append_begin(lock_key bigint, streams text[])
RETURNS TABLE(head_stream text, head_version integer, head_hash text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    RETURN QUERY
        SELECT h.stream::text, h.version, h.hash::text
        FROM unnest(streams) AS s(name)
        CROSS JOIN LATERAL (
            SELECT e.stream, e.version, e.hash FROM ledger_event e
            WHERE e.stream = s.name ORDER BY e.version DESC LIMIT 1
        ) AS h;
END;
$$;
CREATE FUNCTION ledger_append_known(lock_key bigint, heads json, events json)
RETURNS TABLE(new_position bigint, new_stream text, new_version integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    IF EXISTS (
        SELECT 1 FROM json_array_elements(heads) AS h(head)
        LEFT JOIN LATERAL (
            SELECT e.version, e.hash FROM ledger_event e
            WHERE e.stream = h.head->>0 ORDER BY e.version DESC LIMIT 1
        ) AS current ON true
        WHERE coalesce(current.version, 0) <> (h.head->>1)::integer
           OR coalesce(current.hash, repeat('0', 64)) <> h.head->>2
    ) THEN
        RETURN;
    END IF;
    RETURN QUERY
        WITH inserted AS (
            INSERT INTO ledger_event (stream, version, type, data, meta, recorded_at, prev_hash, hash)
            SELECT r.x->>0, (r.x->>1)::integer, r.x->>2, (r.x->>3)::jsonb, (r.x->>4)::jsonb,
                   (r.x->>5)::timestamptz, r.x->>6, r.x->>7
            FROM json_array_elements(events) WITH ORDINALITY AS r(x, n) ORDER BY r.n
            RETURNING position, stream, version
        )
        SELECT i.position, i.stream::text, i.version FROM inserted i;
END;
$$;
CREATE TRIGGER ledger_event_no_update_delete
    BEFORE UPDATE OR DELETE ON ledger_event
    FOR EACH ROW EXECUTE FUNCTION ledger_event_append_only();
CREATE TRIGGER ledger_event_no_truncate
    BEFORE TRUNCATE ON ledger_event
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_event_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS ledger_event_no_truncate ON ledger_event;
DROP TRIGGER IF EXISTS ledger_event_no_update_delete ON ledger_event;
DROP FUNCTION IF EXISTS ledger_event_append_only();
DROP FUNCTION IF EXISTS ledger_append_begin(bigint, text[]);
DROP FUNCTION IF EXISTS ledger_append_known(bigint, json, json);
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(install, uninstall)]
