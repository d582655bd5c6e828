"""Players' display names (ledger.names): the PlayerName projection, filled from the players'
`PlayerRegistered` events already in the log, as `PlayerNameProjector` folds them on a rebuild
(an empty display name reads as the username; a name two players share keeps both)."""

import unicodedata

from django.db import migrations, models


def backfill(apps, schema_editor):
    Event = apps.get_model("ledger", "Event")
    PlayerName = apps.get_model("ledger", "PlayerName")
    keys = set()
    rows = []
    registered = Event.objects.filter(type="PlayerRegistered").order_by("position")
    for data in registered.values_list("data", flat=True).iterator():
        player_id = int(data["player_id"])
        name = data.get("display_name") or data.get("username") or f"player {player_id}"
        key = unicodedata.normalize("NFKC", name).casefold()
        if key in keys:
            key = f"{key}#{player_id}"
        keys.add(key)
        rows.append(PlayerName(player_id=player_id, name=name, key=key))
    PlayerName.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0008_append_checked"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerName",
            fields=[
                ("player_id", models.BigIntegerField(primary_key=True, serialize=False)),
                ("name", models.CharField(max_length=150)),
                ("key", models.CharField(max_length=200, unique=True)),
            ],
            options={
                "verbose_name": "player name",
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
