"""Admin changelists filter only on the filters their ModelAdmin declares (DESIGN §2.6).

Django's admin applies any lookup on a model's own fields that it finds in the query string, so
`/admin/ledger/event/?position=146&data__cards__1=7d` answers with the row or without it: an oracle
for a live deal's hole cards, a sealed declare or a password hash. With `DeclaredFiltersOnly` a
query parameter must be consumed by one of the admin's `list_filter` specs (exactly the parameters
its sidebar links use) or by its `date_hierarchy`; any other one is refused with Django's
`DisallowedModelAdminLookup` (400), before a query runs, so the answer is the same whatever the
value. Every registered ModelAdmin uses it (a test walks the registry).
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.admin.exceptions import DisallowedModelAdminLookup
from django.contrib.admin.views.main import ChangeList
from django.http import HttpRequest


class _DeclaredFiltersChangeList(ChangeList):
    """Refuse every query parameter that no declared filter consumed."""

    def get_filters(self, request: HttpRequest) -> Any:
        requested = set(self.get_filters_params())
        filters = super().get_filters(request)
        undeclared = requested & set(filters[2])  # [2]: lookups left for a raw queryset.filter()
        if undeclared:
            raise DisallowedModelAdminLookup(f"Filtering by {min(undeclared)} not allowed")
        return filters


@functools.cache
def declared_filters_only(changelist: type[ChangeList]) -> type[ChangeList]:
    """`changelist` (Django's, or an app's own such as DRF's TokenChangeList) with the check."""
    if issubclass(changelist, _DeclaredFiltersChangeList):
        return changelist
    return type(f"DeclaredFilters{changelist.__name__}", (_DeclaredFiltersChangeList, changelist), {})


class DeclaredFiltersOnly:
    """ModelAdmin mixin (put it first): changelists accept only the admin's declared filters."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return declared_filters_only(super().get_changelist(request, **kwargs))  # type: ignore[misc]
