"""Admin for users, groups and API tokens, replacing the registrations of django.contrib.auth
(imported before this module: its app comes first in INSTALLED_APPS).

- Every changelist filters only on its declared filters (http_edge.admin_filters).
- A user the ledger knows about (chips, history, events he made) is never deleted: the delete
  page and the bulk delete refuse with a message naming what the ledger holds, and
  `ledger.deactivation` guards every other code path. The "Deactivate" action records
  `PlayerDeactivated` and turns `is_active` off in one transaction; `is_active` is read-only in
  the form, so it changes only with an event. So is `first_name`, a player's display name: it
  changes with `PlayerRenamed`, from the player's page (ledger.admin.PlayerAdmin) or the API.
- API tokens are issued by logging in only; deleting one revokes it, and the users' action
  "Revoke API tokens" revokes every token of the selected users (http_edge.tokens).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected
from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from http_edge.admin_filters import DeclaredFiltersOnly
from http_edge.tokens import ApiToken, tokens_revoke_all
from ledger.deactivation import refusal_message, user_deactivate, user_ledger_footprint, user_reactivate

User = get_user_model()


def deletion_refusals(users: QuerySet[Any]) -> list[str]:
    """One message per user in `users` that the ledger forbids deleting."""
    refusals = []
    for user in users:
        footprint = user_ledger_footprint(user_id=user.pk)
        if footprint.blocks_deletion:
            refusals.append(refusal_message(user, footprint))
    return refusals


def delete_selected_unless_in_ledger(
    model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]
) -> HttpResponse | None:
    """Django's bulk delete, refused as a whole (with a message per user) if any selected user has
    chips or ledger history. Checked again when the confirmation is posted."""
    refusals = deletion_refusals(queryset)
    for refusal in refusals:
        model_admin.message_user(request, refusal, messages.ERROR)
    if refusals:
        return None
    return delete_selected(model_admin, request, queryset)


admin.site.unregister(User)


@admin.register(User)
class GutsUserAdmin(DeclaredFiltersOnly, UserAdmin):
    # only the actions change them, with an event: (de)activation here, a rename on the player's page
    readonly_fields = ("is_active", "first_name")
    actions = ["deactivate_users", "reactivate_users", "revoke_api_tokens"]

    def has_delete_permission(self, request: HttpRequest, obj: AbstractBaseUser | None = None) -> bool:
        if obj is not None and user_ledger_footprint(user_id=obj.pk).blocks_deletion:
            return False
        return super().has_delete_permission(request, obj)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Back to the user's page with the reason, instead of a bare 403, when the ledger forbids it."""
        user = self.get_object(request, unquote(object_id))
        if user is not None and super().has_delete_permission(request, user):
            footprint = user_ledger_footprint(user_id=user.pk)
            if footprint.blocks_deletion:
                self.message_user(request, refusal_message(user, footprint), messages.ERROR)
                return HttpResponseRedirect(
                    reverse("admin:auth_user_change", args=[user.pk], current_app=self.admin_site.name)
                )
        return super().delete_view(request, object_id, extra_context)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions[name] = (delete_selected_unless_in_ledger, name, description)
        return actions

    @admin.action(
        permissions=["change"], description="Deactivate selected users (an event; chips and history stay)"
    )
    def deactivate_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set_active(request, queryset, user_deactivate, "Deactivated", "already inactive")

    @admin.action(permissions=["change"], description="Reactivate selected users (an event)")
    def reactivate_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set_active(request, queryset, user_reactivate, "Reactivated", "already active")

    @admin.action(permissions=["change"], description="Revoke API tokens of selected users (signs them out)")
    def revoke_api_tokens(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        revoked = sum(tokens_revoke_all(user_id=user.pk) for user in queryset)
        self.message_user(
            request, f"Revoked {revoked} API token(s) of {queryset.count()} user(s).", messages.SUCCESS
        )

    def _set_active(
        self, request: HttpRequest, queryset: QuerySet[Any], service: Any, done: str, unchanged: str
    ) -> None:
        meta = {"actor": request.user.pk, "source": "admin"}
        selected = list(queryset.order_by("pk"))
        changed = [
            user.get_username() for user in selected if service(user_id=user.pk, meta=meta) is not None
        ]
        message = f"{done} {len(changed)} user(s)" + (f": {', '.join(changed)}" if changed else "")
        if len(changed) < len(selected):
            message += f"; {len(selected) - len(changed)} {unchanged}"
        self.message_user(request, f"{message}.", messages.SUCCESS)


admin.site.unregister(Group)


@admin.register(Group)
class GutsGroupAdmin(DeclaredFiltersOnly, GroupAdmin):
    pass


@admin.register(ApiToken)
class ApiTokenAdmin(DeclaredFiltersOnly, admin.ModelAdmin):
    """Who holds a token and until when (never the token: only its digest is stored). Tokens are
    issued by logging in; delete one to revoke it."""

    list_display = ("prefix", "user", "created_at", "expires_at")
    search_fields = ("user__username",)
    fields = ("user", "prefix", "created_at", "expires_at")
    ordering = ("-created_at",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiToken | None = None) -> bool:
        return False
