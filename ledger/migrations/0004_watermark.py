"""PostgreSQL: appends no longer take one global lock; readers of the whole log follow a watermark.

Until now every append took `pg_advisory_xact_lock(APPEND_LOCK_KEY)` and held it to COMMIT, so
positions became visible in order, at the price of serialising every append of every stream
(~500 commands/s for the whole system, whatever the number of processes). Instead (the technique
of Emmett and of Marten's "high water mark", made exact):

* every event records the id of the transaction that wrote it, `tx_id xid8` (default
  `pg_current_xact_id()`), indexed with its position;
* a reader of the whole log takes only events whose transaction is older than every transaction
  still in flight, in `(tx_id, position)` order: below that watermark no event can still appear,
  so the order is final and gapless. `ledger_watermark(pg_current_snapshot())` is the xmin of the
  reading statement's own snapshot (it must be that snapshot: one taken later could count as
  finished a transaction whose events the statement cannot see), except that transactions that pg_stat_activity shows in *another* database of the
  cluster are ignored (transaction ids are cluster-wide; an open transaction of another database
  must not stall this log's readers). A transaction not proven foreign counts, so a stale
  statistics view can only delay readers, never make them skip;
* one stream's events are written by one transaction after another (each must see the previous
  head to append), and `ledger_append_known`/`ledger_append_begin` refuse (as a version clash,
  which the caller retries in a new transaction) an append whose transaction id is older than the
  stream head's, so a stream's versions are in `tx_id` order too;
* the streams an append writes and the accounts it moves chips on are locked
  (`pg_advisory_xact_lock(0x6C656467, hashtext(name))`, in sorted order, so no deadlock) before
  its heads are checked and its events inserted: two writers of one stream queue instead of
  colliding on the unique key, and an account's statement lines are in position order with its
  running balance (what the global lock used to give for free).

`ledger_append_begin(streams, accounts)` locks the streams and accounts and reads the heads;
`ledger_append_known(heads, accounts, events)` locks, checks every head (version, hash, and that
its transaction is not newer than ours) and inserts, in one round trip. Other backends: no-op
(SQLite serialises writers with BEGIN IMMEDIATE).
"""

import importlib

from django.db import migrations

FORWARD = """
ALTER TABLE ledger_event ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX ledger_event_tx_position ON ledger_event (tx_id, position);
DROP FUNCTION IF EXISTS ledger_append_begin(bigint, text[]);
DROP FUNCTION IF EXISTS ledger_append_known(bigint, json, json);
CREATE FUNCTION ledger_lock(streams text[], accounts text[]) RETURNS void LANGUAGE sql VOLATILE AS $$
    SELECT count(pg_advisory_xact_lock(1818584167, hashtext(k)))::int FROM (
        SELECT DISTINCT k FROM (SELECT 's:' || unnest(streams) UNION ALL SELECT 'a:' || unnest(accounts))
        AS names(k) ORDER BY 1
    ) AS sorted;
$$;
CREATE FUNCTION ledger_watermark(snapshot pg_snapshot) RETURNS xid8 LANGUAGE sql STABLE AS $$
    SELECT coalesce(min(x), pg_snapshot_xmax(snapshot)) FROM pg_snapshot_xip(snapshot) AS x
    WHERE (x::text::numeric % 4294967296)::text NOT IN (
        SELECT backend_xid::text FROM pg_stat_activity
        WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()
    );
$$;
CREATE FUNCTION ledger_append_begin(streams text[], accounts text[])
RETURNS TABLE(head_stream text, head_version integer, head_hash text, head_newer boolean)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM ledger_lock(streams, accounts);
    RETURN QUERY
        SELECT h.stream::text, h.version, h.hash::text, h.tx_id > pg_current_xact_id()
        FROM unnest(streams) AS s(name)
        CROSS JOIN LATERAL (
            SELECT e.stream, e.version, e.hash, e.tx_id FROM ledger_event e
            WHERE e.stream = s.name ORDER BY e.version DESC LIMIT 1
        ) AS h;
END;
$$;
CREATE FUNCTION ledger_append_known(heads json, accounts text[], events json)
RETURNS TABLE(new_position bigint, new_stream text, new_version integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM ledger_lock(ARRAY(SELECT h->>0 FROM json_array_elements(heads) AS h), accounts);
    IF EXISTS (
        SELECT 1 FROM json_array_elements(heads) AS h(head)
        LEFT JOIN LATERAL (
            SELECT e.version, e.hash, e.tx_id FROM ledger_event e
            WHERE e.stream = h.head->>0 ORDER BY e.version DESC LIMIT 1
        ) AS current ON true
        WHERE coalesce(current.version, 0) <> (h.head->>1)::integer
           OR coalesce(current.hash, repeat('0', 64)) <> h.head->>2
           OR current.tx_id > pg_current_xact_id()
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
"""

BACKWARD = """
DROP FUNCTION IF EXISTS ledger_append_known(json, text[], json);
DROP FUNCTION IF EXISTS ledger_append_begin(text[], text[]);
DROP FUNCTION IF EXISTS ledger_lock(text[], text[]);
DROP FUNCTION IF EXISTS ledger_watermark(pg_snapshot);
DROP INDEX IF EXISTS ledger_event_tx_position;
ALTER TABLE ledger_event DROP COLUMN IF EXISTS tx_id;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)
        schema_editor.execute(_functions_of_0002(), params=None)


def _functions_of_0002() -> str:
    """0002's append functions (with the global lock), which this migration replaced."""
    forward = importlib.import_module("ledger.migrations.0002_append_only_triggers").FORWARD
    return forward[forward.index("CREATE FUNCTION ledger_append_begin") : forward.index("CREATE TRIGGER")]


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_event_notify")]

    operations = [migrations.RunPython(install, uninstall)]
