"""API tokens: random keys stored only as SHA-256 digests, each with a fixed expiry (docs/api.md).

Every login issues a new token; earlier ones stay valid until they expire or are revoked, so a
player may be signed in on several devices. The lifetime is fixed at issue
(`GUTS_TOKEN_LIFETIME` seconds, default 7 days), not sliding: checking a token writes nothing.
Revoking deletes the row: logout revokes the token it was sent with, a club admin all of a user's.
The row is `http_edge.models.ApiToken`.

`token_authenticate` is the one place a token string becomes a user: the Authorization header and
the SSE `?token=` call it. It answers from the per-process auth cache (`http_edge.principal`)
when it can, else with one query for the token, its user and the user's roles; the expiry is
checked against the clock on every call, cached or not, so a token stops working exactly at it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed

from http_edge.models import PREFIX_LENGTH, ApiToken
from http_edge.principal import Principal, PrincipalCache, Snapshot, principals, snapshot_fields
from http_edge.roles import ROLE_NAME_PATH, roles_from_group_names

KEY_BYTES = 20  # 160 random bits, written as 40 hex digits


_TOKEN_USER = ApiToken._meta.get_field("user")


@dataclass(frozen=True)
class IssuedToken:
    """A new token as handed to its owner: the only time the key is known to the server."""

    key: str
    expires_at: datetime
    token: ApiToken


def key_digest(key: str) -> str:
    """Keys carry 160 random bits, so a plain SHA-256 makes a stolen table useless."""
    return hashlib.sha256(key.encode()).hexdigest()


def token_lifetime() -> timedelta:
    return timedelta(seconds=settings.GUTS_TOKEN_LIFETIME)


def token_issue(*, user: AbstractBaseUser, now: datetime | None = None) -> IssuedToken:
    """A new token for `user`, valid for the configured lifetime; drops the user's expired ones."""
    now = now or timezone.now()
    key = secrets.token_hex(KEY_BYTES)
    ApiToken.objects.filter(user=user, expires_at__lte=now).delete()
    token = ApiToken.objects.create(
        user=user,
        digest=key_digest(key),
        prefix=key[:PREFIX_LENGTH],
        created_at=now,
        expires_at=now + token_lifetime(),
    )
    return IssuedToken(key=key, expires_at=token.expires_at, token=token)


def token_authenticate(
    key: str, *, now: datetime | None = None, cache: PrincipalCache = principals
) -> ApiToken:
    """The live token with this key, its active user loaded with roles attached; 401
    `authentication_failed` else. A new token and user object per call, from `cache` if it can."""
    principal = cache.get(key_digest(key), load=principal_load)
    if principal is None:
        raise AuthenticationFailed("Invalid token.")
    if (now or timezone.now()) >= principal.expires_at:
        raise AuthenticationFailed("Token expired; log in again.")
    if not principal.is_active:
        raise AuthenticationFailed("User inactive or deleted.")
    token = principal.token.build()
    _TOKEN_USER.set_cached_value(token, principal.user_instance())
    return token


def principal_load(digest: str) -> Principal | None:
    """The token with this digest, its user and the user's roles in one query (a row per group of
    the user: a join plans far faster than a subquery per role); None if unknown. The password
    is not read."""
    user_model = get_user_model()
    token_fields = snapshot_fields(ApiToken)
    user_fields = snapshot_fields(user_model, frozenset({"password"}))
    rows = list(
        ApiToken.objects.filter(digest=digest).values_list(
            *token_fields, *(f"user__{name}" for name in user_fields), f"user__{ROLE_NAME_PATH}"
        )
    )
    if not rows:
        return None
    token = Snapshot(ApiToken, token_fields, rows[0][: len(token_fields)])
    user = Snapshot(user_model, user_fields, rows[0][len(token_fields) : -1])
    return Principal(
        token=token,
        user=user,
        roles=roles_from_group_names(row[-1] for row in rows),
        expires_at=token.value("expires_at"),
        is_active=user.value("is_active"),
    )


def token_revoke(*, token: ApiToken) -> None:
    """Logout: this token stops working at once (the delete clears the auth caches)."""
    ApiToken.objects.filter(pk=token.pk).delete()


def tokens_revoke_all(*, user_id: int) -> int:
    """Every token of the user stops working at once (a lost phone, a leaked token); how many.
    The deletes clear the auth caches: here at once, in other processes within about a second."""
    deleted, _ = ApiToken.objects.filter(user_id=user_id).delete()
    return deleted
