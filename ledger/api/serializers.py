"""Serializers of the ledger API: players, the caller, event references."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from guts_backend.roles import player_id_of, roles_of


class PlayerIdField(serializers.CharField):
    """A player id in JSON: always a string ("3"), as in table views, events' seats and accounts
    (`player:3`). The URL path takes the same id as a number (/players/3)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


class PlayerOutputSerializer(serializers.Serializer):
    """A player as the API shows them; `id` is the player id, `account` their bankroll."""

    id = PlayerIdField(help_text='The player id, as a string ("3").')
    username = serializers.CharField()
    display_name = serializers.CharField(source="first_name")
    account = serializers.SerializerMethodField()
    date_joined = serializers.DateTimeField()

    class Meta:
        ref_name = "Player"

    def get_account(self, player: Any) -> str:
        return f"player:{player.pk}"


class EventRefSerializer(serializers.Serializer):
    """Which event caused something: its global position, stream, version and type."""

    position = serializers.IntegerField()
    stream = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()

    class Meta:
        ref_name = "EventRef"


class MeOutputSerializer(serializers.Serializer):
    id = PlayerIdField(source="pk", help_text="Your user id, as a string (your player id if you play).")
    username = serializers.CharField()
    display_name = serializers.CharField(source="first_name")
    roles = serializers.SerializerMethodField()
    player_id = serializers.SerializerMethodField(
        help_text='Your player id, as a string ("3"); null if you are not a player.'
    )

    class Meta:
        ref_name = "Me"

    def get_roles(self, user: Any) -> list[str]:
        return roles_of(user)

    def get_player_id(self, user: Any) -> str | None:
        player_id = player_id_of(user)
        return None if player_id is None else str(player_id)
