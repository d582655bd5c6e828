"""JSON fields whose shape is free-form (an event's data, a variant's option list) but whose kind is
known: a JSON object or a JSON array. They render and validate as DRF's JSONField does; the schema
says "object" or "array", so no property of the document is untyped (a generated client gets a
dict or a list, not `Any`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

ANY_VALUE: dict[str, object] = {}  # an item or member of any JSON type


@extend_schema_field({"type": "object", "additionalProperties": ANY_VALUE})
class JsonObjectField(serializers.JSONField):
    """A JSON object of free-form members."""


@extend_schema_field({"type": "array", "items": {"type": "object", "additionalProperties": ANY_VALUE}})
class JsonObjectListField(serializers.JSONField):
    """A JSON array of free-form objects."""
