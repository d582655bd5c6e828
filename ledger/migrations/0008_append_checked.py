"""PostgreSQL: an append that takes plain arrays and refuses a moved head by raising, and the
balance projection's overdraft refusal in SQL, so that a command's append, its projections and
its COMMIT can go to the server in one message (ledger.store, "Round trips").

`ledger_append_checked(heads_stream, heads_version, heads_hash, accounts, <event columns>...,
refuse)` locks the streams and accounts (`ledger_lock`, sorted), checks every head (version, hash,
and that its transaction is not newer than ours) and inserts the events from column arrays (no
JSON to take apart). On a moved head it returns nothing, or with `refuse` raises SQLSTATE GT409,
which aborts the transaction: the statements sent after it in the same message (the projections,
the COMMIT) then do nothing, and the caller reloads, re-decides and retries.

`ledger_refuse_overdraft(account, unit, amount, balance)` raises SQLSTATE GT402 (the balance
projection calls it for a move that leaves an account below zero that may not go negative).
Other backends: no-op.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION ledger_append_checked(
    heads_stream text[], heads_version integer[], heads_hash text[], accounts text[],
    e_stream text[], e_version integer[], e_type text[], e_data text[], e_meta text[],
    e_recorded timestamptz[], e_prev text[], e_hash text[], refuse boolean)
RETURNS TABLE(new_position bigint, new_stream text, new_version integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM ledger_lock(heads_stream, accounts);
    IF EXISTS (
        SELECT 1 FROM unnest(heads_stream, heads_version, heads_hash) AS h(stream, version, hash)
        LEFT JOIN LATERAL (
            SELECT e.version, e.hash, e.tx_id FROM ledger_event e
            WHERE e.stream = h.stream ORDER BY e.version DESC LIMIT 1
        ) AS current ON true
        WHERE coalesce(current.version, 0) <> h.version
           OR coalesce(current.hash, repeat('0', 64)) <> h.hash
           OR current.tx_id > pg_current_xact_id()
    ) THEN
        IF refuse THEN
            RAISE EXCEPTION 'a stream head moved: append refused' USING ERRCODE = 'GT409';
        END IF;
        RETURN;
    END IF;
    RETURN QUERY
        WITH inserted AS (
            INSERT INTO ledger_event (stream, version, type, data, meta, recorded_at, prev_hash, hash)
            SELECT r.stream, r.version, r.type, r.data::jsonb, r.meta::jsonb, r.recorded, r.prev, r.hash
            FROM unnest(e_stream, e_version, e_type, e_data, e_meta, e_recorded, e_prev, e_hash)
                WITH ORDINALITY AS r(stream, version, type, data, meta, recorded, prev, hash, n)
            ORDER BY r.n
            RETURNING position, stream, version
        )
        SELECT i.position, i.stream::text, i.version FROM inserted i;
END;
$$;
CREATE FUNCTION ledger_refuse_overdraft(account text, unit text, amount bigint, balance bigint)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'overdraft of %', account USING ERRCODE = 'GT402',
        DETAIL = json_build_array(account, unit, amount, balance)::text;
END;
$$;
"""

BACKWARD = """
DROP FUNCTION IF EXISTS ledger_refuse_overdraft(text, text, bigint, bigint);
DROP FUNCTION IF EXISTS ledger_append_checked(text[], integer[], text[], text[], text[], integer[], text[],
    text[], text[], timestamptz[], text[], text[], boolean);
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_disputes_checkpoints")]

    operations = [migrations.RunPython(install, uninstall)]
