"""ApiToken and IdempotencyRecord now belong to http_edge (its 0001_initial): they leave
guts_backend's state only; their tables, unchanged, are http_edge's from now on."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("guts_backend", "0006_idempotency_claim"),
        ("http_edge", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ApiToken"),
                migrations.DeleteModel(name="IdempotencyRecord"),
            ],
        ),
    ]
