"""TableView is updated by every command: let PostgreSQL do it in place (a HOT update).

An update is HOT only if no indexed column changes and the new row version fits on the same
page: `deadline` (moved by nearly every command) loses its index, and the table keeps half of
each page free. The timer dispatcher's read (`tables.timers.deadlines_between`) filters the open
tables instead, a few thousand rows at most.
"""

from django.db import migrations, models


def fillfactor(value: int):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE tables_tableview SET (fillfactor = {value})")

    return run


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_tournament_tables")]

    operations = [
        migrations.AlterField(model_name="tableview", name="deadline", field=models.DateTimeField(null=True)),
        migrations.RunPython(fillfactor(50), fillfactor(100)),
    ]
