"""Serializers shared by the ledger API views (and reusable by the tables API)."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from guts_backend.roles import player_id_of, roles_of


class ChipAmountField(serializers.IntegerField):
    """A chip amount: a JSON integer only. Strings, floats and booleans are refused, not coerced
    (DRF's IntegerField would accept "5", 5.0 and, through int(), surprise us)."""

    default_error_messages = {"not_an_integer": "Must be a JSON integer (not a string, float or bool)."}

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("not_an_integer")
        return super().to_internal_value(data)


class PlayerOutputSerializer(serializers.Serializer):
    """A player as the API shows them; `id` is the player id, `account` their bankroll."""

    id = serializers.IntegerField()
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
    id = serializers.IntegerField(source="pk")
    username = serializers.CharField()
    display_name = serializers.CharField(source="first_name")
    roles = serializers.SerializerMethodField()
    player_id = serializers.SerializerMethodField(help_text="Your player id; null if you are not a player.")

    class Meta:
        ref_name = "Me"

    def get_roles(self, user: Any) -> list[str]:
        return roles_of(user)

    def get_player_id(self, user: Any) -> int | None:
        return player_id_of(user)
