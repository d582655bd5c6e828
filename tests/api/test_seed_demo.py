"""`manage.py seed_demo` builds the demo club through the services and is idempotent."""
from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from guts_backend.management.commands.seed_demo import DEMO_PLAYERS
from guts_backend.roles import is_auditor, is_club_admin, roles_of
from ledger.models import Event
from ledger.money import balance, check_conservation, player_account


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_seed_demo_creates_the_club_and_running_it_again_changes_nothing() -> None:
    first = seed()
    users = get_user_model().objects
    events_after_first = list(Event.objects.order_by("position").values_list("position", flat=True))
    users_after_first = users.count()

    second = seed()
    assert list(Event.objects.order_by("position").values_list("position", flat=True)) == events_after_first
    assert users.count() == users_after_first
    assert first == second  # same credentials and the same tokens

    admin = users.get(username="admin")
    assert admin.is_superuser
    assert is_club_admin(admin)
    assert is_auditor(users.get(username="auditor"))
    for username, _, deposit in DEMO_PLAYERS:
        player = users.get(username=username)
        assert roles_of(player) == ["player"]
        assert player.check_password(f"{username}-demo")
        assert balance(player_account(player.pk)) == deposit
        assert username in first
    assert "/api/docs/" in first
    assert check_conservation() == []
