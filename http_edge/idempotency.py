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
- a finished key replays whether or not its lock is free, so retries sent together after the
  first answer was stored all replay it: the request tries the lock and then reads the key's
  record (in that order, so the read sees whatever the previous holder committed; on PostgreSQL
  both travel with the transaction's BEGIN in one round trip), and only a key with no record
  needs the lock.

The record rides in the command's own transaction, with no savepoint of its own around the view
(a SAVEPOINT and its RELEASE are two more round trips on PostgreSQL): a success commits with its
record. An error answer must not keep its effects, so its transaction rolls back; the answer is
then stored in a second, short transaction that claims the key again (and, should another request
with the key have run in between, answers as that one's retry would).

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

import psycopg.sql
from django.conf import settings
from django.db import connection, transaction
from django.http.request import RawPostDataException
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from http_edge import roundtrip
from http_edge.api.errors import PROBLEM_CONTENT_TYPE, Problem
from http_edge.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
REPLAYED_HEADER = "Idempotent-Replayed"
STORED_HEADERS = ("ETag", "Location")  # with Content-Type: what a replay must answer with too
TRANSIENT_CODES = frozenset({"concurrency_conflict"})  # 409s that a retry may turn into a success
# First key of the two-int advisory lock space ("idem"); the event store's locks live elsewhere.
_ADVISORY_LOCK_CLASS = 0x6964656D

IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    name=HEADER,
    location=OpenApiParameter.HEADER,
    required=False,
    # What idempotency_key_of enforces: 1 to 255 printable ASCII characters (space to tilde).
    type={"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": "^[ -~]+$"},
    description=(
        "Any unique string (a UUID, say): 1 to 255 printable ASCII characters, else 400 "
        "`invalid_idempotency_key`. A retry "
        "with the same key returns the first answer and changes nothing; the same key with "
        "a different request is 422 `idempotency_key_reused`; a retry while the first is "
        "still running is 409 `idempotency_in_progress`. Transient answers (5xx, 429, 409 "
        "`concurrency_conflict`) are not kept: a retry with the key runs again. Keys are per "
        "caller."
    ),
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
        with transaction.atomic():  # the command's transaction: no savepoint inside
            replay = _claim(caller_id, key, fingerprint)
            if replay is not None:
                return replay
            response = _first_answer(view, post, request, args, kwargs)
            if response.status_code < 400:
                _store(caller_id, key, fingerprint, request, response)
                return response
            transaction.set_rollback(True)  # an error keeps no effects
        if is_transient(response):
            return response  # no record: a retry with this key runs again
        with transaction.atomic():  # store the error in a transaction of its own
            replay = _claim(caller_id, key, fingerprint)
            if replay is not None:  # another request with the key ran meanwhile
                return replay
            _store(caller_id, key, fingerprint, request, response)
        return response

    return extend_schema(parameters=[IDEMPOTENCY_KEY_HEADER])(wrapper)


def idempotency_key_of(request: Request) -> str | None:
    """The request's Idempotency-Key, None if absent; 400 `invalid_idempotency_key` if malformed."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not 0 < len(key) <= MAX_KEY_LENGTH or not all(" " <= char <= "~" for char in key):
        raise Problem(
            "invalid_idempotency_key", f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable ASCII characters."
        )
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


def try_lock_key(*, caller_id: int, key: str) -> bool:
    """pg_try_advisory_xact_lock on (caller, key); always True where writers already serialise.

    Must run inside a transaction; the lock is released at its commit or rollback. (A request
    takes it with `_lock_and_read`; this is the same lock, on its own.)
    """
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", _lock_of(caller_id, key))
        return bool(cursor.fetchone()[0])


def _lock_of(caller_id: int, key: str) -> list[int]:
    """The (caller, key) advisory lock: our lock class and 32 bits of a hash of both."""
    digest = hashlib.sha256(f"{caller_id}\n{key}".encode()).digest()
    return [_ADVISORY_LOCK_CLASS, int.from_bytes(digest[:4], "big", signed=True)]


def _claim(caller_id: int, key: str, fingerprint: str) -> Response | None:
    """Inside a transaction: make the key this request's, or answer for it. The replay of the
    key's record if it has one (422 if that was a different request); 409 if another request
    holds the key; None once the key's lock is held and nothing is stored yet."""
    locked, record = _lock_and_read(caller_id, key)
    if record is not None:
        return _replay(record, fingerprint)
    if not locked:
        raise Problem(
            "idempotency_in_progress", f"A request with this {HEADER} is still being processed; retry later."
        )
    return None


def _lock_and_read(caller_id: int, key: str) -> tuple[bool, IdempotencyRecord | None]:
    """Try the (caller, key) lock, then read the key's record with a snapshot taken after it.
    PostgreSQL: guts_idempotency_claim() (migration 0006), in one round trip with the
    transaction's BEGIN. Elsewhere writers serialise at BEGIN: no lock to take."""
    if connection.vendor != "postgresql":
        return True, _stored(caller_id, key)
    query = psycopg.sql.SQL("SELECT * FROM guts_idempotency_claim({}, {}, {}, {})").format(
        *map(psycopg.sql.Literal, [*_lock_of(caller_id, key), caller_id, key])
    )
    locked, request_hash, status_code, body, headers = roundtrip.first_statement(query)
    if request_hash is None:
        return locked == "true", None
    record = IdempotencyRecord(
        caller_id=caller_id,
        key=key,
        request_hash=request_hash,
        status_code=int(status_code),
        headers=json.loads(headers),
        body=None if body is None else json.loads(body),
    )
    return locked == "true", record


def _first_answer(
    view: APIView, post: PostHandler, request: Request, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Response:
    """Run the view in the caller's transaction (no savepoint): its answer, errors included."""
    try:
        return post(view, request, *args, **kwargs)
    except Exception as exc:
        # DRF's handler turns known errors into problem responses (a database outage into a 503,
        # which the caller does not store) and re-raises the rest (500s), which roll the whole
        # transaction back so nothing is stored.
        return view.handle_exception(exc)


def _store(caller_id: int, key: str, fingerprint: str, request: Request, response: Response) -> None:
    IdempotencyRecord.objects.create(
        caller_id=caller_id,
        key=key,
        request_hash=fingerprint,
        method=request.method,
        path=request.get_full_path()[:2048],
        status_code=response.status_code,
        body=_json_value(response.data),
        headers=_headers_to_store(response),
    )


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
        raise Problem("idempotency_key_reused", f"This {HEADER} was already used with a different request.")
    headers = dict(record.headers)
    content_type = headers.pop("Content-Type", PROBLEM_CONTENT_TYPE if record.status_code >= 400 else None)
    return Response(
        record.body,
        status=record.status_code,
        content_type=content_type,
        headers={**headers, REPLAYED_HEADER: "true"},
    )


def _json_value(data: Any) -> Any:
    """Response data as plain JSON values, exactly as the renderer would write them."""
    return json.loads(json.dumps(data, cls=JSONEncoder))
