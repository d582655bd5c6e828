"""The edge's models: API tokens (issued and checked by http_edge.tokens) and the idempotency
record of state-changing requests (DESIGN §2.9)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

PREFIX_LENGTH = 8  # of a token key, shown in the admin to tell tokens apart; useless without the rest


class ApiToken(models.Model):
    """An issued API token. The key itself is never stored, only its digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, hex.")
    prefix = models.CharField(max_length=PREFIX_LENGTH, help_text="The key's first characters.")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "guts_backend_apitoken"  # created by guts_backend's migrations, before the app moved
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… of user {self.user_id}"


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an `Idempotency-Key`, per caller.

    Written in the same transaction as the events the request appended, so a record exists exactly
    when the request's effects do; a retry replays `status_code`, `body` and `headers` and appends
    nothing.
    """

    caller = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_records"
    )
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of method, path and canonical body.")
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2048)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    headers = models.JSONField(
        default=dict, blank=True, help_text="The first answer's ETag, Location and Content-Type, if set."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "guts_backend_idempotencyrecord"  # created by guts_backend's migrations, as above
        constraints = [
            models.UniqueConstraint(fields=["caller", "key"], name="idempotency_caller_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.caller_id}:{self.key} -> {self.status_code}"
