"""Roles are Django groups (created by migration 0002): club admin, auditor, player (DESIGN §2.9).

A superuser counts as a club admin. A player's id is their user pk; their bankroll account is
`player:<pk>` and their stream `player-<pk>`. No HTTP here: services and selectors ask these
questions too; the API's permission classes (http_edge.api.permissions) are built on them.

Every check reads the user's roles from the user object: a token's user comes with them attached
(`roles_attach`, from the auth cache of `http_edge.principal`, loaded with the token in one
query through `ROLE_NAME_PATH`), so no check costs a query; any other user (a session's) loads
them once per request.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group

CLUB_ADMIN = "club_admin"
AUDITOR = "auditor"
PLAYER = "player"
ROLES = (CLUB_ADMIN, AUDITOR, PLAYER)

ROLES_ATTRIBUTE = "_guts_roles"
ROLE_NAME_PATH = "groups__name"  # from a user, in a values query: one row per group he is in

User = AbstractBaseUser | AnonymousUser
U = TypeVar("U", bound=AbstractBaseUser)


def role_group(role: str) -> Group:
    """The group of `role`. Migration 0002 creates them; get_or_create also survives a test flush."""
    group, _ = Group.objects.get_or_create(name=role)
    return group


def grant_role(user: AbstractBaseUser, role: str) -> None:
    """Add `user` to the role's group (the auth caches notice: http_edge.principal)."""
    user.groups.add(role_group(role))
    user.__dict__.pop(ROLES_ATTRIBUTE, None)


def roles_attach(user: U, roles: frozenset[str]) -> U:
    """`user` with its roles known, so that no check below queries its groups."""
    setattr(user, ROLES_ATTRIBUTE, roles)
    return user


def roles_from_group_names(names: Iterable[str | None]) -> frozenset[str]:
    """The roles among a user's group names (`ROLE_NAME_PATH` rows; None where he has no group)."""
    return frozenset(name for name in names if name in ROLES)


def _group_names(user: User) -> frozenset[str]:
    """The user's group names: attached by `roles_attach`, else loaded once for the request."""
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, ROLES_ATTRIBUTE, None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        setattr(user, ROLES_ATTRIBUTE, cached)
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
