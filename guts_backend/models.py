"""Project-wide models: the idempotency record of state-changing requests (DESIGN §2.9)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from guts_backend.tokens import ApiToken  # noqa: F401  (its own module; Django finds models here)


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an `Idempotency-Key`, per caller.

    Written in the same transaction as the events the request appended, so a record exists exactly
    when the request's effects do; a retry replays `status_code`, `body` and `headers` and appends
    nothing.
    """

    caller = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="idempotency_records")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of method, path and canonical body.")
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=2048)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    headers = models.JSONField(default=dict, blank=True,
                               help_text="The first answer's ETag, Location and Content-Type, if set.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["caller", "key"], name="idempotency_caller_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.caller_id}:{self.key} -> {self.status_code}"
