"""Canonical JSON and the per-stream hash chain that makes tampering evident (DESIGN §2.3).

The exact recipe, so that anyone can re-check the log with a few lines of any language:

    canonical_json(x) = JSON with keys sorted, separators (",", ":"), non-ASCII kept as UTF-8
                        (ensure_ascii=False), no floats (rejected), no NaN/Infinity.
    body              = canonical_json({"stream": ..., "version": ..., "type": ...,
                                        "data": ..., "meta": ..., "recorded_at": ...})
    recorded_at       = the UTC time in ISO 8601 with microseconds: "2026-11-29T13:37:24.123456+00:00"
    hash              = hex(sha256(prev_hash_hex_as_ascii || body_as_utf8))
    prev_hash         = the previous event's hash in the same stream; "0" * 64 for version 1.

`data` and `meta` are hashed as stored (before any upcasting on read).
"""
from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64

_encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)


class InvalidEventData(ValueError):
    """Event data or meta that is not plain JSON (floats, tuples, non-string keys, ...)."""

    code = "invalid_event_data"


def check_json_value(value: Any, path: str = "data") -> None:
    """Raise InvalidEventData unless `value` is made of dict (str keys), list, str, int, bool, None."""
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, str):
        _check_encodable(value, path)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidEventData(f"{path}: keys must be strings, not {key!r}")
            _check_encodable(key, path)
            check_json_value(item, f"{path}.{key}")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            check_json_value(item, f"{path}[{index}]")
        return
    kind = type(value).__name__
    raise InvalidEventData(f"{path}: {kind} is not allowed in events (use int, str, bool, None, list, dict)")


def _check_encodable(text: str, path: str) -> None:
    if "\x00" in text:
        raise InvalidEventData(f"{path}: NUL characters are not allowed")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidEventData(f"{path}: not valid Unicode text") from exc


def canonical_json(value: Any) -> str:
    """The one serialisation that is hashed and stored. Callers check the value first."""
    return _encoder.encode(value)


def iso_utc(moment: datetime) -> str:
    """'2026-11-29T13:37:24.123456+00:00': the form of recorded_at that is hashed."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(*, prev_hash: str, stream: str, version: int, type: str, data_json: str,
               meta_json: str, recorded_at: datetime) -> str:
    """sha256(prev_hash || canonical body). data_json/meta_json are their canonical JSON."""
    body = (
        '{"data":' + data_json
        + ',"meta":' + meta_json
        + ',"recorded_at":' + _encoder.encode(iso_utc(recorded_at))
        + ',"stream":' + _encoder.encode(stream)
        + ',"type":' + _encoder.encode(type)
        + ',"version":' + str(version)
        + "}"
    )
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()
