"""The database cache's table (`guts_cache`), so `migrate` alone sets up the embedded default.

Created whatever CACHE_URL says today, so switching a deployment to `db://` needs no extra step.
Django's `createcachetable` builds it; the name is the one settings.CACHES uses for `db://`.
"""

from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations

TABLE = "guts_cache"


def create_cache_table(apps, schema_editor):
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, TABLE, dry_run=False)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("guts_backend", "0003_api_tokens")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
