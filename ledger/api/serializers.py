"""Serializers of the ledger API: players, the caller, event references."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from rest_framework import serializers

from http_edge.roles import player_id_of, roles_of


class PlayerIdField(serializers.CharField):
    """A player id in JSON: always a string ("3"), as in table views, events' seats and accounts
    (`player:3`). The URL path takes the same id as a number (/players/3)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


def player_display_name(user: Any) -> str:
    """The name to show for a user: his display name (kept as the first name), else his username."""
    return str(user.first_name or user.get_username())


class PlayerOutputSerializer(serializers.Serializer):
    """A player as the API shows them; `id` is the player id, `account` their bankroll."""

    id = PlayerIdField(help_text='The player id, as a string ("3").')
    username = serializers.CharField()
    display_name = serializers.SerializerMethodField(
        help_text="The name to show for this player: unique in the club (its case aside)."
    )
    account = serializers.SerializerMethodField()
    date_joined = serializers.DateTimeField()

    class Meta:
        ref_name = "Player"

    def get_account(self, player: Any) -> str:
        return f"player:{player.pk}"

    def get_display_name(self, player: Any) -> str:
        return player_display_name(player)


class PlayerProfileSerializer(serializers.Serializer):
    """A player as any signed-in user may see him: his id and display name, nothing else."""

    id = PlayerIdField(source="pk", help_text='The player id, as a string ("3").')
    display_name = serializers.CharField(help_text="The name to show for this player (unique in the club).")

    class Meta:
        ref_name = "PlayerProfile"


class PlayerProfileSchema(OpenApiSerializerExtension):
    """The public profile admits no other member, so a full Player never also reads as one (the
    detail answers either: `oneOf`)."""

    target_class = "ledger.api.serializers.PlayerProfileSerializer"

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        return {**auto_schema._map_basic_serializer(self.target, direction), "additionalProperties": False}


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
    display_name = serializers.SerializerMethodField(help_text="Your name as others see it.")
    roles = serializers.SerializerMethodField()
    player_id = serializers.SerializerMethodField(
        help_text='Your player id, as a string ("3"); null if you are not a player.'
    )

    class Meta:
        ref_name = "Me"

    def get_display_name(self, user: Any) -> str:
        return player_display_name(user)

    def get_roles(self, user: Any) -> list[str]:
        return roles_of(user)

    def get_player_id(self, user: Any) -> str | None:
        player_id = player_id_of(user)
        return None if player_id is None else str(player_id)
