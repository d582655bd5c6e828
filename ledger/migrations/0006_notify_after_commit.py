"""PostgreSQL: appends no longer NOTIFY from inside their transaction (ledger.notify publishes).

A transaction that sends NOTIFY takes PostgreSQL's one notification-queue lock (shared by every
database of the server) at commit and holds it until its commit is flushed: with the trigger of
0003, every append's commit queued behind every other's (16 concurrent writers: 763 against 4,055
transactions in 3 s without it, bench/event_store.py). The wake-up is now sent after the commit,
by `ledger.notify.Publisher`, in transactions of its own that write nothing.
"""

import importlib

from django.db import migrations


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_migration_0003().BACKWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_migration_0003().FORWARD, params=None)


def _migration_0003():
    return importlib.import_module("ledger.migrations.0003_event_notify")


class Migration(migrations.Migration):
    dependencies = [("ledger", "0005_lock_head")]

    operations = [migrations.RunPython(install, uninstall)]
