"""The models that moved here from guts_backend (ApiToken, IdempotencyRecord): their tables stay
as they are, created by guts_backend's migrations 0001 to 0006 (so a fresh database still gets
them, and guts_idempotency_claim() with them). Only Django's state moves: this migration creates
the models in http_edge's state, guts_backend's 0007 deletes them from its own. In the database
only the content types change app, so permissions and admin history keep pointing at them.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("apitoken", "idempotencyrecord")


def content_types_to(old_app: str, new_app: str):
    def move(apps, schema_editor):
        content_type = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            if not content_type.objects.using(db).filter(app_label=new_app, model=model).exists():
                content_type.objects.using(db).filter(app_label=old_app, model=model).update(
                    app_label=new_app
                )

    return move


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("guts_backend", "0006_idempotency_claim"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ApiToken",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "digest",
                            models.CharField(
                                help_text="SHA-256 of the key, hex.", max_length=64, unique=True
                            ),
                        ),
                        ("prefix", models.CharField(help_text="The key's first characters.", max_length=8)),
                        ("created_at", models.DateTimeField()),
                        ("expires_at", models.DateTimeField(db_index=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="api_tokens",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"verbose_name": "API token", "db_table": "guts_backend_apitoken"},
                ),
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=255)),
                        (
                            "request_hash",
                            models.CharField(
                                help_text="SHA-256 of method, path and canonical body.", max_length=64
                            ),
                        ),
                        ("method", models.CharField(max_length=10)),
                        ("path", models.CharField(max_length=2048)),
                        ("status_code", models.PositiveSmallIntegerField()),
                        ("body", models.JSONField(null=True)),
                        (
                            "headers",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text="The first answer's ETag, Location and Content-Type, if set.",
                            ),
                        ),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "caller",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="idempotency_records",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "guts_backend_idempotencyrecord",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("caller", "key"), name="idempotency_caller_key_unique"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[
                migrations.RunPython(
                    content_types_to("guts_backend", "http_edge"),
                    content_types_to("http_edge", "guts_backend"),
                ),
            ],
        ),
    ]
