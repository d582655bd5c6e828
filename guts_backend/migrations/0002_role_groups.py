"""Create the role groups: club_admin, auditor, player (guts_backend.roles)."""

from django.db import migrations

ROLE_GROUPS = ("club_admin", "auditor", "player")


def create_role_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


def delete_role_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("guts_backend", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_role_groups, delete_role_groups)]
