"""Canonical JSON and the per-stream hash chain that makes tampering evident (DESIGN §2.3).

The exact recipe, so that anyone can re-check the log with a few lines of any language:

    canonical_json(x) = JSON with keys sorted, separators (",", ":"), non-ASCII kept as UTF-8
                        (ensure_ascii=False), no floats (rejected), no NaN/Infinity.
    body              = canonical_json({"stream": ..., "version": ..., "type": ...,
                                        "data": ..., "meta": ..., "recorded_at": ...})
    recorded_at       = the UTC time in ISO 8601 with microseconds: "2026-11-29T13:37:24.123456+00:00"
    hash              = hex(sha256(prev_hash_hex_as_ascii || body_as_utf8))
    prev_hash         = the previous event's hash in the same stream; "0" * 64 for version 1.

`data` and `meta` are hashed as stored (before any upcasting on read), with one exception: the
secret facts of an event (DESIGN §2.6). A fact that some reader may not see yet (a hole card, a
sealed declare, a passed card, a deal's seed) must not be hashed as it is: two hole cards are
2,652 guesses, a sealed in/out two, and the chain is public. Such an event is stored with

    data["secret"] = the sorted names of its secret top-level keys, e.g. ["cards"]
    data["salt"]   = 32 random hex digits (128 bits), drawn by the store, never derived

and the hash covers its *chain form* instead of `data`: `data` without "salt", each secret key's
value replaced by its salted commitment

    commitment(salt, key, value) = hex(sha256(salt || ":" || key || ":" || canonical_json(value)))

So anyone can re-check every link of the chain at any time from what the API serves (the public
keys, the commitments, `meta`, `recorded_at`), and nobody learns anything about a secret value
from it. A reader is shown the salt exactly when he is shown the value (his own cards, a showdown,
an auditor after the deal), and can then check that the value is the one committed. Events with
no "secret" key (every money event, every public fact) are hashed exactly as stored.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets as _random
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64

_encoder = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class InvalidEventData(ValueError):
    """Event data or meta that is not plain JSON (floats, tuples, non-string keys, ...)."""

    code = "invalid_event_data"


def check_json_value(value: Any, path: str = "data") -> None:
    """Raise InvalidEventData unless `value` is made of dict (str keys), list, str, int, bool, None.
    Every append checks every event: plain JSON passes a walk of exact types; anything else (a
    subclass, a float) is walked again the slow way, which names the path of what is wrong."""
    if not _plain(value):
        _check_with_path(value, path)


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return _plain_text(value)
    if kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        keys_plain = all(type(key) is str and _plain_text(key) for key in value)
        return keys_plain and all(map(_plain, value.values()))
    if kind is list:
        return all(map(_plain, value))
    return False


def _plain_text(text: str) -> bool:
    return "\x00" not in text and (text.isascii() or _utf8(text))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_with_path(value: Any, path: str) -> None:
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
            _check_with_path(item, f"{path}.{key}")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            _check_with_path(item, f"{path}[{index}]")
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


def event_hash(
    *,
    prev_hash: str,
    stream: str,
    version: int,
    type: str,
    data_json: str,
    meta_json: str,
    recorded_at: datetime,
) -> str:
    """sha256(prev_hash || canonical body). data_json/meta_json are their canonical JSON."""
    body = (
        '{"data":'
        + data_json
        + ',"meta":'
        + meta_json
        + ',"recorded_at":'
        + _encoder.encode(iso_utc(recorded_at))
        + ',"stream":'
        + _encoder.encode(stream)
        + ',"type":'
        + _encoder.encode(type)
        + ',"version":'
        + str(version)
        + "}"
    )
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()


# --- salted commitments of secret facts ----------------------------------------------------------

SECRET_KEY, SALT_KEY = "secret", "salt"
SALT_BYTES = 16  # 128 bits (DESIGN §2.6: at least 128)
_SALT_FORM = re.compile(r"[0-9a-f]{32,128}")


def new_salt() -> str:
    """A fresh salt from the OS's CSPRNG: salts must be unguessable, so never derived from a seed
    that is revealed later (a passed card would be recoverable from the deal's public seed)."""
    return _random.token_hex(SALT_BYTES)


def commitment(salt: str, key: str, value: Any) -> str:
    """hex(sha256(salt ":" key ":" canonical_json(value))): binds one secret value to its event."""
    return hashlib.sha256(f"{salt}:{key}:{canonical_json(value)}".encode()).hexdigest()


def seal(data: dict[str, Any], secret_keys: tuple[str, ...] | list[str], salt: str) -> dict[str, Any]:
    """`data` stored with its secret keys named and a salt (see the module docstring)."""
    if SECRET_KEY in data or SALT_KEY in data:
        raise InvalidEventData(f"data keys {SECRET_KEY!r} and {SALT_KEY!r} are reserved for sealed facts")
    missing = [key for key in secret_keys if key not in data]
    if missing:
        raise InvalidEventData(f"secret keys {missing} are not in the event data")
    return {**data, SECRET_KEY: sorted(secret_keys), SALT_KEY: salt}


def commitments(data: dict[str, Any]) -> dict[str, str]:
    """{secret key: commitment} of a stored event's data ({} when it seals nothing)."""
    keys = data.get(SECRET_KEY)
    if not keys:
        return {}
    salt = data[SALT_KEY]
    return {key: commitment(salt, key, data[key]) for key in keys}


def chain_form(data: dict[str, Any]) -> dict[str, Any]:
    """What the hash covers of a stored event's data: `data` itself, unless it seals facts."""
    sealed = commitments(data)
    if not sealed:
        return data
    return {**{key: value for key, value in data.items() if key != SALT_KEY}, **sealed}


def check_sealed(data: dict[str, Any]) -> None:
    """Raise InvalidEventData unless a sealing event names existing keys and carries a real salt."""
    keys = data.get(SECRET_KEY)
    if keys is None and SALT_KEY not in data:
        return
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) and k in data for k in keys):
        raise InvalidEventData(f"data.{SECRET_KEY} must list the event's secret keys")
    if keys != sorted(set(keys)) or SECRET_KEY in keys or SALT_KEY in keys:
        raise InvalidEventData(f"data.{SECRET_KEY} must be sorted, without repeats or reserved keys")
    salt = data.get(SALT_KEY)
    if not isinstance(salt, str) or not _SALT_FORM.fullmatch(salt):
        raise InvalidEventData(f"data.{SALT_KEY} must be 32 to 128 lowercase hex digits")
