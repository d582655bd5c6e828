"""PostgreSQL: every committed append wakes the log's live readers (NOTIFY), so SSE streams need
not poll the event table (docs/audit.md, ledger.notify).

An AFTER INSERT trigger, once per statement (an append is one INSERT, however many events it
writes), sends `pg_notify('ledger_events', <payload>)`. The payload is the comma-separated names
of the streams the statement wrote, read from the statement's transition table; when they do not
fit PostgreSQL's 8000-byte payload limit it is empty, which listeners take as "any stream". NOTIFY
is delivered only when the transaction commits (never for a rolled-back append), so a woken reader
finds the events; PostgreSQL also folds identical notifications of one transaction into one.
Other backends: no-op (readers poll there).
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION ledger_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    streams text;
BEGIN
    SELECT string_agg(DISTINCT stream, ',') INTO streams FROM inserted_events;
    IF streams IS NULL THEN
        RETURN NULL;
    END IF;
    IF octet_length(streams) > 7900 THEN
        streams := '';
    END IF;
    PERFORM pg_notify('ledger_events', streams);
    RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_event_notify
    AFTER INSERT ON ledger_event
    REFERENCING NEW TABLE AS inserted_events
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_event_notify();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS ledger_event_notify ON ledger_event;
DROP FUNCTION IF EXISTS ledger_event_notify();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_append_only_triggers")]

    operations = [migrations.RunPython(install, uninstall)]
