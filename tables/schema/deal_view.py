"""The deal view's keys that step kinds add (`deal.escalation`, `deal.betting`, ...), documented by
the kinds' edge modules (tables.api.actions: each view's `deal_view`). TableDeal
(tables.api.serializers) holds the keys every deal has and takes these when it is built, so a
kind's part of the table view is described beside its command, not in a list of every kind."""

from __future__ import annotations

import copy

from rest_framework import serializers

DEAL_VIEW_FIELDS: dict[str, serializers.Field] = {}


def deal_view_add(name: str, field: serializers.Field) -> None:
    """Register a kind's deal-view key (one field per key)."""
    if DEAL_VIEW_FIELDS.get(name, field) is not field:
        raise ValueError(f"two fields describe the deal view's {name!r}")
    DEAL_VIEW_FIELDS[name] = field


def deal_view_fields() -> dict[str, serializers.Field]:
    """Fresh copies of the registered fields, in key order (a serializer binds its fields)."""
    return {name: copy.deepcopy(DEAL_VIEW_FIELDS[name]) for name in sorted(DEAL_VIEW_FIELDS)}
