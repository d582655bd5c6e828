"""API tokens: random keys stored only as SHA-256 digests, each with a fixed expiry (docs/api.md).

Every login issues a new token; earlier ones stay valid until they expire or are revoked, so a
player may be signed in on several devices. The lifetime is fixed at issue
(`GUTS_TOKEN_LIFETIME` seconds, default 7 days), not sliding: checking a token writes nothing.
Revoking deletes the row: logout revokes the token it was sent with, a club admin all of a user's.

`token_authenticate` is the one place a token string becomes a user: the Authorization header,
the SSE `?token=` and any cache put in front of them call it. The expiry is on the row, so a
cached answer can be bounded by `expires_at`.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed

KEY_BYTES = 20          # 160 random bits, written as 40 hex digits
PREFIX_LENGTH = 8       # shown in the admin to tell tokens apart; useless without the rest


class ApiToken(models.Model):
    """An issued API token. The key itself is never stored, only its digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex.")
    prefix = models.CharField(max_length=PREFIX_LENGTH, help_text="The key's first characters.")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… of user {self.user_id}"

    def is_expired(self, now: datetime) -> bool:
        return now >= self.expires_at


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
    token = ApiToken.objects.create(user=user, digest=key_digest(key), prefix=key[:PREFIX_LENGTH],
                                    created_at=now, expires_at=now + token_lifetime())
    return IssuedToken(key=key, expires_at=token.expires_at, token=token)


def token_authenticate(key: str, *, now: datetime | None = None) -> ApiToken:
    """The live token with this key, its active user loaded; 401 `authentication_failed` else."""
    token = ApiToken.objects.select_related("user").filter(digest=key_digest(key)).first()
    if token is None:
        raise AuthenticationFailed("Invalid token.")
    if token.is_expired(now or timezone.now()):
        raise AuthenticationFailed("Token expired; log in again.")
    if not token.user.is_active:
        raise AuthenticationFailed("User inactive or deleted.")
    return token


def token_revoke(*, token: ApiToken) -> None:
    """Logout: this token stops working at once."""
    ApiToken.objects.filter(pk=token.pk).delete()


def tokens_revoke_all(*, user_id: int) -> int:
    """Every token of the user stops working at once (a lost phone, a leaked token); how many."""
    deleted, _ = ApiToken.objects.filter(user_id=user_id).delete()
    return deleted
