"""TournamentEntrant, filled from the registrations already in the log (the projector keeps it)."""

from django.db import migrations, models


def index_registrations(apps, schema_editor):
    Event = apps.get_model("ledger", "Event")
    Entrant = apps.get_model("tournaments", "TournamentEntrant")
    registered = {}
    rows = Event.objects.filter(
        stream__startswith="tournament-", type__in=["EntrantRegistered", "EntrantUnregistered"]
    ).order_by("position")
    for stream, kind, data, recorded_at in rows.values_list(
        "stream", "type", "data", "recorded_at"
    ).iterator():
        key = (stream.removeprefix("tournament-"), data["player"])
        if kind == "EntrantRegistered":
            registered.setdefault(key, recorded_at)
        else:
            registered.pop(key, None)
    Entrant.objects.bulk_create(
        [Entrant(tournament_id=t, player=p, registered_at=at) for (t, p), at in registered.items()]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_admin_labels"),
        ("ledger", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="TournamentEntrant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("tournament_id", models.UUIDField()),
                ("player", models.CharField(max_length=64)),
                ("registered_at", models.DateTimeField()),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "tournament_id"), name="tournaments_entrant_unique"
                    )
                ],
            },
        ),
        migrations.RunPython(index_registrations, migrations.RunPython.noop),
    ]
