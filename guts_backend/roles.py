"""Roles are Django groups (created by migration 0002): club admin, auditor, player (DESIGN §2.9).

A superuser counts as a club admin. A player's id is their user pk; their bankroll account is
`player:<pk>` and their stream `player-<pk>`. The permission classes and `check_can_view_player`
are shared by every API (cashier, statements, tables).
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from guts_backend.problems import Problem

CLUB_ADMIN = "club_admin"
AUDITOR = "auditor"
PLAYER = "player"
ROLES = (CLUB_ADMIN, AUDITOR, PLAYER)

User = AbstractBaseUser | AnonymousUser


def role_group(role: str) -> Group:
    """The group of `role`. Migration 0002 creates them; get_or_create also survives a test flush."""
    group, _ = Group.objects.get_or_create(name=role)
    return group


def grant_role(user: AbstractBaseUser, role: str) -> None:
    user.groups.add(role_group(role))
    user.__dict__.pop("_guts_group_names", None)


def _group_names(user: User) -> frozenset[str]:
    """The user's group names, cached on the user object for the duration of the request."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_guts_group_names", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._guts_group_names = cached
    return cached


def is_club_admin(user: User) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or CLUB_ADMIN in _group_names(user)))


def is_auditor(user: User) -> bool:
    return AUDITOR in _group_names(user)


def is_player(user: User) -> bool:
    return PLAYER in _group_names(user)


def roles_of(user: User) -> list[str]:
    """The caller's roles in a stable order; a superuser is reported as a club admin."""
    names = _group_names(user)
    return [role for role in ROLES if role in names or (role == CLUB_ADMIN and is_club_admin(user))]


def player_id_of(user: User) -> int | None:
    """The caller's player id (their user pk) if they are a player, else None."""
    return user.pk if is_player(user) else None


def can_view_player(user: User, player_id: int) -> bool:
    """Club admins and auditors see every player; a player sees only themself."""
    if is_club_admin(user) or is_auditor(user):
        return True
    return player_id_of(user) == player_id


def check_can_view_player(user: User, player_id: int) -> None:
    """Raise 403 `forbidden` unless `user` may see `player_id`'s data (bankroll, seat, cards)."""
    if not can_view_player(user, player_id):
        raise Problem("forbidden", "You may only see your own player data.", status=403)


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
