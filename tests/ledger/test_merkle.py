"""The trees of the verifiable books (ledger.merkle) and the standalone verifier's copies of them:
RFC 9162 roots, inclusion and consistency proofs, the sum tree, Ed25519 without a library."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from ledger import merkle

VERIFIER_PATH = Path(__file__).resolve().parents[2] / "docs" / "verify_statement.py"
_spec = importlib.util.spec_from_file_location("verify_statement", VERIFIER_PATH)
assert _spec is not None
assert _spec.loader is not None
verifier = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verifier)


def leaves(n: int) -> list[bytes]:
    return [hashlib.sha256(str(i).encode()).digest() for i in range(n)]


def mth(items: list[bytes]) -> bytes:
    """RFC 9162 §2.1.1, written as the RFC writes it."""
    if not items:
        return hashlib.sha256(b"").digest()
    if len(items) == 1:
        return merkle.leaf_hash(items[0])
    k = 1
    while k * 2 < len(items):
        k *= 2
    return merkle.node_hash(mth(items[:k]), mth(items[k:]))


@given(st.integers(min_value=1, max_value=80))
def test_the_levelled_tree_is_the_rfc_tree(n: int) -> None:
    assert merkle.root_of(merkle.log_levels(leaves(n))) == mth(leaves(n))


@given(st.integers(min_value=1, max_value=80), st.data())
def test_every_inclusion_proof_verifies_and_a_wrong_one_does_not(n: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(min_value=0, max_value=n - 1))
    items, levels = leaves(n), merkle.log_levels(leaves(n))
    root, path = merkle.root_of(levels), merkle.inclusion_path(levels, index)
    assert len(path) <= max(1, (n - 1).bit_length())  # log2 of the size
    for verify in (merkle.verify_inclusion, verifier.verify_inclusion):
        assert verify(items[index], index, n, path, root)
        assert not verify(b"other", index, n, path, root)
        if n > 1:
            assert not verify(items[index], (index + 1) % n, n, path, root)


@given(st.integers(min_value=1, max_value=80), st.data())
def test_consistency_proofs_verify_and_a_fork_does_not(n: int, data: st.DataObject) -> None:
    m = data.draw(st.integers(min_value=1, max_value=n))
    levels = merkle.log_levels(leaves(n))
    proof = merkle.consistency_proof(levels, m)
    old_root, new_root = mth(leaves(m)), merkle.root_of(levels)
    assert len(proof) <= 2 * max(1, n.bit_length())
    forked = mth([b"forged", *leaves(m)[1:]])
    for verify in (merkle.verify_consistency, verifier.verify_consistency):
        assert verify(m, n, old_root, new_root, proof)
        if m < n:
            assert not verify(m, n, forked, new_root, proof)
            assert not verify(m, n, old_root, mth([*leaves(n - 1), b"x"]), proof)


@given(st.lists(st.integers(min_value=0, max_value=10**9), min_size=1, max_size=40), st.data())
def test_a_sum_tree_leaf_proves_its_balance_and_the_total(balances: list[int], data: st.DataObject) -> None:
    nodes = [merkle.sum_leaf(f"{i:032x}", f"player:{i}", "chips", b) for i, b in enumerate(balances)]
    levels = merkle.sum_levels(nodes)
    root = merkle.sum_root(levels)
    assert root.sum == sum(balances)
    index = data.draw(st.integers(min_value=0, max_value=len(balances) - 1))
    path = merkle.sum_path(levels, index)
    assert merkle.verify_sum_path(nodes[index], path, root) is None
    changed = merkle.sum_leaf(f"{index:032x}", f"player:{index}", "chips", balances[index] + 1)
    assert merkle.verify_sum_path(changed, path, root) is not None


def test_a_negative_sibling_sum_is_refused() -> None:
    """A club cannot hide liabilities behind a subtree of negative sum."""
    good = merkle.sum_leaf("00" * 16, "player:1", "chips", 100)
    bad = merkle.SumNode("ab" * 32, -100)
    root = merkle.sum_parent(good, bad)
    path = [merkle.SumStep("right", bad.hash, bad.sum)]
    assert "negative" in (merkle.verify_sum_path(good, path, root) or "")


@pytest.mark.parametrize("message", [b"", b"checkpoint", bytes(range(256))])
def test_the_pure_python_ed25519_agrees_with_cryptography(message: bytes) -> None:
    """The verifier's fallback (about half a second a signature) accepts what the library signs."""
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"test key").digest())
    public = key.public_key().public_bytes_raw()
    signature = key.sign(message)
    assert verifier._pure_verify(public, message, signature)
    assert not verifier._pure_verify(public, message + b"!", signature)
    assert not verifier._pure_verify(public, message, signature[:63] + bytes([signature[63] ^ 1]))
