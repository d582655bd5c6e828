"""The hash recipe is exactly what ledger/hashing.py documents."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta, timezone

from ledger.hashing import GENESIS_HASH, canonical_json, event_hash, iso_utc


def test_canonical_json_sorts_keys_and_keeps_unicode() -> None:
    assert canonical_json({"b": 1, "a": ["é", None, True]}) == '{"a":["é",null,true],"b":1}'


def test_recorded_at_is_iso_utc_with_microseconds() -> None:
    moment = datetime(2026, 11, 29, 14, 37, 24, tzinfo=timezone(timedelta(hours=1)))
    assert iso_utc(moment) == "2026-11-29T13:37:24.000000+00:00"


def test_event_hash_is_sha256_of_prev_hash_and_canonical_body() -> None:
    moment = datetime(2026, 11, 29, 13, 37, 24, 123456, tzinfo=UTC)
    data, meta = {"transfers": [], "ü": 1}, {"schema_version": 1, "actor": "a"}
    body = canonical_json(
        {
            "stream": "player-7",
            "version": 1,
            "type": "DepositMade",
            "data": data,
            "meta": meta,
            "recorded_at": "2026-11-29T13:37:24.123456+00:00",
        }
    )
    expected = hashlib.sha256((GENESIS_HASH + body).encode()).hexdigest()
    assert (
        event_hash(
            prev_hash=GENESIS_HASH,
            stream="player-7",
            version=1,
            type="DepositMade",
            data_json=canonical_json(data),
            meta_json=canonical_json(meta),
            recorded_at=moment,
        )
        == expected
    )
