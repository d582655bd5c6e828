"""The club's checkpoint key comes from GUTS_CHECKPOINT_KEY (docs/audit.md): its public half and
key id follow it, a malformed one is a configuration error, not a 500 at the first checkpoint."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from ledger.checkpoints import key_id, keys, public_key_hex, signed_bytes, signing_key


def test_the_configured_key_signs_and_its_public_half_is_served(settings: Any) -> None:
    settings.GUTS_CHECKPOINT_KEY = "11" * 32
    first = public_key_hex()
    body = {"number": 1, "log_root": "00" * 32}
    signing_key().public_key().verify(signing_key().sign(signed_bytes(body)), signed_bytes(body))
    assert keys() == [{"key_id": key_id(), "algorithm": "Ed25519", "public_key": first}]
    settings.GUTS_CHECKPOINT_KEY = "22" * 32
    assert public_key_hex() != first


@pytest.mark.parametrize("seed", ["zz" * 32, "11" * 31, "not a key"])
def test_a_malformed_key_is_a_configuration_error(settings: Any, seed: str) -> None:
    settings.GUTS_CHECKPOINT_KEY = seed
    with pytest.raises(ImproperlyConfigured):
        signing_key()
