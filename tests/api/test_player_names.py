"""Display names (ledger.names, docs/api.md "Players and their names"): set at registration, unique
in the club whatever the case, changed by the player or a club admin with a `PlayerRenamed` event,
and readable by any signed-in user as the player's public profile (id and name only)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from rest_framework.test import APIClient

from ledger.models import Event, PlayerName
from ledger.names import player_names
from ledger.projections import rebuild_all
from ledger.store import read_stream
from tests.api.conftest import client_for, event_count

pytestmark = pytest.mark.django_db

MakePlayer = Callable[..., AbstractUser]


def register(admin_api: APIClient, username: str, display_name: str | None = None) -> object:
    body = {"username": username, "password": "long-enough-pw"}
    if display_name is not None:
        body["display_name"] = display_name
    return admin_api.post("/api/v1/players", body, format="json")


def rename(client: APIClient, player: AbstractUser, name: str) -> object:
    return client.patch(f"/api/v1/players/{player.pk}", {"display_name": name}, format="json")


def test_a_name_given_at_registration_is_the_players_and_the_username_is_the_default(
    admin_api: APIClient,
) -> None:
    named = register(admin_api, "zed", "Zed Zero").json()
    unnamed = register(admin_api, "yan").json()
    assert (named["display_name"], unnamed["display_name"]) == ("Zed Zero", "yan")
    assert player_names([named["id"], unnamed["id"]]) == {named["id"]: "Zed Zero", unnamed["id"]: "yan"}
    [event] = read_stream(f"player-{unnamed['id']}")
    assert event.data["display_name"] == "yan"


@pytest.mark.parametrize("taken", ["Alice", "alice", "ALICE", "  Alice  ", "\uff21lice"])
def test_a_name_another_player_has_in_any_case_is_409_and_appends_nothing(
    admin_api: APIClient, player: AbstractUser, taken: str
) -> None:
    before = event_count()
    response = register(admin_api, "newcomer", taken)
    assert response.status_code == 409
    assert response.json()["code"] == "display_name_taken"
    assert event_count() == before
    assert not get_user_model().objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("bad", ["", "   ", "42", "Ace Ks", "10d", "bell\x07", "x" * 151, "\ufdfa" * 40])
def test_a_name_breaking_the_rules_is_400_invalid_display_name(
    admin_api: APIClient, player: AbstractUser, bad: str
) -> None:
    before = event_count()
    attempts = [rename(admin_api, player, bad)]
    if bad.strip():  # a blank name at registration means "the username"
        attempts.append(register(admin_api, "newcomer", bad))
    for response in attempts:
        assert response.status_code == 400, response.json()
        assert response.json()["code"] in ("invalid_display_name", "invalid_input")
    assert rename(admin_api, player, "Ace Ks").json()["code"] == "invalid_display_name"
    assert event_count() == before


def test_a_player_renames_himself_with_an_event_naming_him_as_actor(player: AbstractUser) -> None:
    own = client_for(player)
    response = rename(own, player, "Alice B.")
    assert response.status_code == 200, response.json()
    assert response.json()["display_name"] == "Alice B."
    renamed = read_stream(f"player-{player.pk}")[-1]
    assert renamed.type == "PlayerRenamed"
    assert renamed.data == {"player_id": player.pk, "display_name": "Alice B.", "previous": "Alice"}
    assert renamed.meta["actor"] == player.pk
    assert own.get("/api/v1/me").json()["display_name"] == "Alice B."
    assert player_names([player.pk]) == {str(player.pk): "Alice B."}

    before = event_count()
    assert rename(own, player, "Alice B.").status_code == 200  # the same name: nothing to record
    assert event_count() == before
    assert rename(own, player, "ALICE B.").status_code == 200  # his own name in another case
    assert player_names([player.pk]) == {str(player.pk): "ALICE B."}


def test_a_club_admin_renames_a_player_and_another_player_or_an_auditor_may_not(
    admin_api: APIClient,
    admin_user: AbstractUser,
    player: AbstractUser,
    make_player: MakePlayer,
    make_staff: Callable[[str], AbstractUser],
) -> None:
    other = make_player("Bob")
    before = event_count()
    assert rename(client_for(other), player, "Mallory").status_code == 403
    assert rename(client_for(make_staff("auditor")), player, "Mallory").status_code == 403
    assert event_count() == before
    assert rename(admin_api, player, "Bob").json()["code"] == "display_name_taken"
    response = rename(admin_api, player, "Alicia")
    assert response.status_code == 200
    assert read_stream(f"player-{player.pk}")[-1].meta["actor"] == admin_user.pk
    assert Event.objects.filter(type="PlayerRenamed", stream=f"player-{player.pk}").count() == 1
    freed = register(admin_api, "second-alice", "alice")  # the old name is free again
    assert freed.status_code == 201


def test_any_signed_in_user_reads_a_players_public_profile_and_only_that(
    player: AbstractUser, make_player: MakePlayer, admin_api: APIClient
) -> None:
    other = make_player("Bob")
    seen = client_for(other).get(f"/api/v1/players/{player.pk}")
    assert seen.status_code == 200
    assert seen.json() == {"id": str(player.pk), "display_name": "Alice"}
    full = client_for(player).get(f"/api/v1/players/{player.pk}").json()
    assert {"username", "account", "date_joined"} <= set(full)
    assert {"username", "account"} <= set(admin_api.get(f"/api/v1/players/{player.pk}").json())
    assert client_for(other).get("/api/v1/players/999999").json()["code"] == "unknown_player"
    assert APIClient().get(f"/api/v1/players/{player.pk}").status_code == 401


def test_the_names_projection_rebuilds_to_what_it_was(admin_api: APIClient, player: AbstractUser) -> None:
    rename(admin_api, player, "Alicia")
    register(admin_api, "carla", "Carla")
    live = sorted(PlayerName.objects.values_list("player_id", "name", "key"))
    rebuild_all()
    assert sorted(PlayerName.objects.values_list("player_id", "name", "key")) == live
