"""DRF permission classes over the club's roles (http_edge.roles), shared by every API."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from http_edge.roles import can_view_player, is_auditor, is_club_admin, player_id_of


class IsClubAdmin(BasePermission):
    """Club admins (and superusers): the cashier, opening tables, tournaments."""

    message = "This action needs the club_admin role."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_club_admin(request.user)


class IsAuditorOrAdmin(BasePermission):
    """Read access to everything: auditors and club admins."""

    message = "This action needs the auditor or club_admin role."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_club_admin(request.user) or is_auditor(request.user)


class IsAuditor(BasePermission):
    """Auditors only: deciding disputes."""

    message = "This action needs the auditor role."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_auditor(request.user)


class IsSelfOrAuditorOrAdmin(BasePermission):
    """A player sees only their own data; the player id is the URL kwarg `view.player_kwarg`
    (default `player_id`). Auditors and club admins see all."""

    message = "You may only see your own player data."

    def has_permission(self, request: Request, view: Any) -> bool:
        kwarg = getattr(view, "player_kwarg", "player_id")
        player_id = view.kwargs.get(kwarg)
        if player_id is None:
            return is_club_admin(request.user) or is_auditor(request.user)
        return can_view_player(request.user, int(player_id))


class IsSelfOrClubAdmin(BasePermission):
    """Changing a player (his display name): the player himself or a club admin; auditors read only."""

    message = "Only the player himself or a club admin may change this player."

    def has_permission(self, request: Request, view: Any) -> bool:
        player_id = view.kwargs.get(getattr(view, "player_kwarg", "player_id"))
        if is_club_admin(request.user):
            return True
        return player_id is not None and player_id_of(request.user) == int(player_id)
