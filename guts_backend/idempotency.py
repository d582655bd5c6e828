"""`Idempotency-Key` for state-changing POSTs (DESIGN §2.9).

Wrap an APIView's `post` with `@idempotent`. With the header, the request runs inside one
transaction that also stores an `IdempotencyRecord` (caller, key, request hash, first answer), so
the record exists exactly when the request's events do:

- a retry with the same key and the same request replays the first answer (status and body,
  errors included) with `Idempotent-Replayed: true`, and appends nothing;
- the same key with a different request (method, path or canonical JSON body) is 422
  `idempotency_key_reused`;
- a retry while the first request is still running is 409 `idempotency_in_progress`.
  On PostgreSQL the first request holds a transaction-level advisory lock on (caller, key);
  on SQLite writers serialise at BEGIN IMMEDIATE, so a retry waits and then replays.
- a finished key is looked up before any lock is taken, so retries sent together after the first
  answer was stored all replay it; only a key with no stored answer takes the lock (and re-reads
  under it: the first may have committed in between).

The replay carries the first answer's ETag, Location and Content-Type. Transient answers are never
stored, so a retry with their key runs the request again: any 5xx (503 `service_unavailable` when
the database dropped out, a 500 for a bug), 429, and 409 `concurrency_conflict`.

Keys are per caller: two callers may use the same key independently. The decorator also documents
the header in the OpenAPI schema (`IDEMPOTENCY_KEY_HEADER`); list `IDEMPOTENCY_PROBLEMS` in the
responses.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.http.request import RawPostDataException
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from guts_backend.api.errors import PROBLEM_CONTENT_TYPE, Problem
from guts_backend.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
REPLAYED_HEADER = "Idempotent-Replayed"
STORED_HEADERS = ("ETag", "Location")     # with Content-Type: what a replay must answer with too
TRANSIENT_CODES = frozenset({"concurrency_conflict"})   # 409s that a retry may turn into a success
# First key of the two-int advisory lock space ("idem"); the event store's locks live elsewhere.
_ADVISORY_LOCK_CLASS = 0x6964656D

IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    name=HEADER, location=OpenApiParameter.HEADER, required=False,
    # What idempotency_key_of enforces: 1 to 255 printable ASCII characters (space to tilde).
    type={"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": "^[ -~]+$"},
    description=("Any unique string (a UUID, say): 1 to 255 printable ASCII characters, else 400 "
                 "`invalid_idempotency_key`. A retry "
                 "with the same key returns the first answer and changes nothing; the same key with "
                 "a different request is 422 `idempotency_key_reused`; a retry while the first is "
                 "still running is 409 `idempotency_in_progress`. Transient answers (5xx, 429, 409 "
                 "`concurrency_conflict`) are not kept: a retry with the key runs again. Keys are per "
                 "caller."),
)
IDEMPOTENCY_PROBLEMS = ("invalid_idempotency_key", "idempotency_in_progress", "idempotency_key_reused")

PostHandler = Callable[..., Response]


def idempotent(post: PostHandler) -> PostHandler:
    """Decorate `APIView.post` (after authentication and permissions, which DRF runs first)."""

    @functools.wraps(post)
    def wrapper(view: APIView, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = idempotency_key_of(request)
        if key is None:
            return post(view, request, *args, **kwargs)
        fingerprint = request_fingerprint(request)
        caller_id = request.user.pk
        record = _stored(caller_id, key)        # a finished key replays without the lock
        if record is not None:
            return _replay(record, fingerprint)
        with transaction.atomic():
            check_not_in_progress(caller_id=caller_id, key=key)
            record = _stored(caller_id, key)    # the first may have finished since the read above
            if record is not None:
                return _replay(record, fingerprint)
            response = _first_answer(view, post, request, args, kwargs)
            if is_transient(response):
                transaction.set_rollback(True)  # no record: a retry with this key runs again
                return response
            IdempotencyRecord.objects.create(
                caller_id=caller_id, key=key, request_hash=fingerprint, method=request.method,
                path=request.get_full_path()[:2048], status_code=response.status_code,
                body=_json_value(response.data), headers=_headers_to_store(response))
        return response

    return extend_schema(parameters=[IDEMPOTENCY_KEY_HEADER])(wrapper)


def idempotency_key_of(request: Request) -> str | None:
    """The request's Idempotency-Key, None if absent; 400 `invalid_idempotency_key` if malformed."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY_LENGTH or not all(" " <= char <= "~" for char in key):
        raise Problem("invalid_idempotency_key",
                      f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters.")
    return key


def request_meta(request: Request) -> dict[str, Any]:
    """Event meta for a request: who acted and, under `idempotency`, which of his keys.

    The key itself is never stored in meta: meta is served with every event (and hashed), and a
    client-chosen key may well spell out a sealed choice ("declare-in-7"). The tag is an HMAC
    under the server's secret, so it links the events to their request for the server and
    nobody else (DESIGN §2.6)."""
    meta: dict[str, Any] = {"actor": request.user.pk}
    key = request.headers.get(HEADER)
    if key is not None:
        meta["idempotency"] = idempotency_tag(caller_id=request.user.pk, key=key)
    return meta


def idempotency_tag(*, caller_id: int, key: str) -> str:
    """HMAC-SHA256 (server secret) of a caller's Idempotency-Key: what event meta records."""
    message = f"idempotency\n{caller_id}\n{key}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def request_fingerprint(request: Request) -> str:
    """SHA-256 of method, path and body; a JSON body is canonicalised (key order, whitespace)."""
    try:
        raw = request.body
    except RawPostDataException:  # a multipart body already streamed: hash what was parsed
        raw = json.dumps(request.data, sort_keys=True, default=str).encode()
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode()
    except (ValueError, RecursionError):  # not JSON or nested too deep (the parser refuses it): hash bytes
        body = raw
    digest = hashlib.sha256()
    for part in (request.method.encode(), request.get_full_path().encode(), body):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def is_transient(response: Response) -> bool:
    """An answer a retry may change (5xx, 429, 409 `concurrency_conflict`): never stored."""
    if response.status_code >= 500 or response.status_code == 429:
        return True
    data = response.data
    return isinstance(data, dict) and data.get("code") in TRANSIENT_CODES


def check_not_in_progress(*, caller_id: int, key: str) -> None:
    """Take the (caller, key) transaction lock, or 409 if another transaction holds it.

    Must run inside a transaction; the lock is released at its commit or rollback.
    """
    if not try_lock_key(caller_id=caller_id, key=key):
        raise Problem("idempotency_in_progress",
                      f"A request with this {HEADER} is still being processed; retry later.")


def try_lock_key(*, caller_id: int, key: str) -> bool:
    """pg_try_advisory_xact_lock on (caller, key); always True where writers already serialise."""
    if connection.vendor != "postgresql":
        return True
    digest = hashlib.sha256(f"{caller_id}\n{key}".encode()).digest()
    lock_id = int.from_bytes(digest[:4], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [_ADVISORY_LOCK_CLASS, lock_id])
        return bool(cursor.fetchone()[0])


def _first_answer(view: APIView, post: PostHandler, request: Request, args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> Response:
    """Run the view in a savepoint; an error answer rolls its effects back and is stored too."""
    try:
        with transaction.atomic():
            response = post(view, request, *args, **kwargs)
            if response.status_code >= 400:
                transaction.set_rollback(True)
    except Exception as exc:
        # DRF's handler turns known errors into problem responses (a database outage into a 503,
        # which the caller does not store) and re-raises the rest (500s), which roll the whole
        # transaction back so nothing is stored.
        response = view.handle_exception(exc)
    return response


def _stored(caller_id: int, key: str) -> IdempotencyRecord | None:
    return IdempotencyRecord.objects.filter(caller_id=caller_id, key=key).first()


def _headers_to_store(response: Response) -> dict[str, str]:
    """The first answer's headers a replay repeats; Content-Type only where the view chose it
    (problems), since the renderer picks the same one for the replay otherwise."""
    headers = {name: response[name] for name in STORED_HEADERS if response.has_header(name)}
    if response.content_type:
        headers["Content-Type"] = response.content_type
    return headers


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.request_hash != fingerprint:
        raise Problem("idempotency_key_reused",
                      f"This {HEADER} was already used with a different request.")
    headers = dict(record.headers)
    content_type = headers.pop("Content-Type", PROBLEM_CONTENT_TYPE if record.status_code >= 400 else None)
    return Response(record.body, status=record.status_code, content_type=content_type,
                    headers={**headers, REPLAYED_HEADER: "true"})


def _json_value(data: Any) -> Any:
    """Response data as plain JSON values, exactly as the renderer would write them."""
    return json.loads(json.dumps(data, cls=JSONEncoder))
