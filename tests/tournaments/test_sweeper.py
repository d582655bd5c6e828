"""The tournament sweeper: a tournament whose tick fails neither blocks the others nor starves them,
and staff see it failing (TournamentTickHealth, in the admin).

The failing tournaments are real: created before creation validated table options as their tables
do (their `TournamentCreated` is appended as such a release recorded it, with `stack_policy:
allow_debt`), so every start opens a table that refuses the option (400 invalid_option).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from ledger.store import NewEvent, StreamWrite, append
from tables.engine.decider.visibility import secret_keys
from tables.engine.deck import new_seed
from tournaments import service, tasks
from tournaments.engine.config import config_from_input
from tournaments.engine.events import TournamentCreated
from tournaments.engine.seating import commitment
from tournaments.models import TournamentTickHealth
from tournaments.state import tournament_stream

from .conftest import tournament_fields

pytestmark = pytest.mark.django_db


def fields(minutes_ago: int) -> dict[str, Any]:
    start = (timezone.now() - timedelta(minutes=minutes_ago)).isoformat()
    return tournament_fields(start_at=start, min_entrants=2, payouts=[100])


def registered(tournament_id: str, funded_player: Callable[..., int]) -> str:
    for _ in range(2):
        service.tournament_register(tournament_id=tournament_id, player_id=funded_player())
    return tournament_id


def stuck(funded_player: Callable[..., int], minutes_ago: int) -> str:
    """A tournament as an older release created it: options its tables refuse, so it never starts."""
    tournament_id = str(uuid.uuid4())
    config = config_from_input(fields(minutes_ago)).to_json()
    config["options"]["stack_policy"] = "allow_debt"
    seed = new_seed()
    event = TournamentCreated(tournament_id, config, commitment(seed), seed)
    append(
        [
            StreamWrite(
                tournament_stream(tournament_id),
                0,
                [NewEvent(event.type, event.data, secret_keys(event.type, event.data))],
            )
        ]
    )
    return registered(tournament_id, funded_player)


def healthy(funded_player: Callable[..., int], minutes_ago: int) -> str:
    tournament_id = service.tournament_create(fields=fields(minutes_ago)).tournament_id
    return registered(tournament_id, funded_player)


def status(tournament_id: str) -> str:
    return service.tournament_get(tournament_id=tournament_id).state.status


def health(tournament_id: str) -> TournamentTickHealth:
    return TournamentTickHealth.objects.get(tournament_id=tournament_id)


def test_a_failing_tick_does_not_stop_the_sweep(funded_player: Callable[..., int]) -> None:
    bad = stuck(funded_player, minutes_ago=30)  # first by start_at
    good = healthy(funded_player, minutes_ago=1)
    tasks.sweep()
    assert status(bad) == "registering"
    assert status(good) == "running"
    assert health(bad).consecutive_failures == 1
    assert health(bad).last_error.startswith("invalid_option: a tournament table extends no credit")
    assert health(good).consecutive_failures == 0
    assert health(good).last_success_at is not None
    tasks.sweep()
    assert health(bad).consecutive_failures == 2  # still failing, still tried
    assert health(bad).failing_since is not None


def test_stuck_tournaments_never_starve_the_others(settings: Any, funded_player: Callable[..., int]) -> None:
    settings.GUTS_TOURNAMENT_SWEEP_BATCH = 2
    bad = [stuck(funded_player, minutes_ago=60 - i) for i in range(3)]  # the earliest start times
    good = [healthy(funded_player, minutes_ago=10 - i) for i in range(2)]
    for _ in range(3):
        tasks.sweep()
    assert [status(t) for t in good] == ["running", "running"]
    assert all(health(t).consecutive_failures >= 1 for t in bad)
    assert set(tasks.due_tournaments(timezone.now())[:2]) == set(good)  # healthy first from now on


def test_staff_see_the_failing_tournaments_in_the_admin(funded_player: Callable[..., int]) -> None:
    bad = stuck(funded_player, minutes_ago=5)
    good = healthy(funded_player, minutes_ago=1)
    tasks.sweep()
    staff = get_user_model().objects.create_superuser(username="sweep-root", password="root-pw")
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/tournaments/tournamenttickhealth/", {"failing": "yes"})
    assert page.status_code == 200
    shown = {str(row.tournament_id) for row in page.context["cl"].result_list}
    assert shown == {bad}
    assert good not in shown
