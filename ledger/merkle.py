"""Merkle trees of the verifiable books: the log tree (RFC 9162) and the balance sum tree.

The log tree is Certificate Transparency's (RFC 9162 §2.1): leaf hash = SHA-256(0x00 || leaf),
node hash = SHA-256(0x01 || left || right), split at the largest power of two below the size. Its
leaves are the events' hashes (32 bytes each) in log order, which are the salted chain forms the
API already serves, so the tree reveals no hidden fact. Built level by level (adjacent nodes
paired, a lone last node carried up unchanged), it is the same tree.

The sum tree (proof of liabilities) has one leaf per account of a unit, each node carrying the sum
of its leaves: leaf = sha256("0:" salt ":" canonical_json([account, unit, balance])),
node = sha256("1:" left_hash ":" left_sum ":" right_hash ":" right_sum). A leaf's 128-bit salt
keeps it from being matched against guesses, so a sibling in a proof shows a sum, not whose.
`docs/verify_statement.py` re-implements every check here with the standard library.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ledger.hashing import canonical_json

Levels = list[list[bytes]]


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def log_levels(leaves: Sequence[bytes]) -> Levels:
    """Every level of the tree over `leaves` (leaf data, e.g. event hashes): [leaf hashes, ..., [root]]."""
    level = [leaf_hash(item) for item in leaves]
    levels = [level]
    while len(level) > 1:
        level = [
            node_hash(level[i], level[i + 1]) if i + 1 < len(level) else level[i]
            for i in range(0, len(level), 2)
        ]
        levels.append(level)
    return levels


EMPTY_ROOT = hashlib.sha256(b"").digest()


def root_of(levels: Levels) -> bytes:
    return levels[-1][0] if levels and levels[0] else EMPTY_ROOT


def inclusion_path(levels: Levels, index: int) -> list[bytes]:
    """The audit path of leaf `index` (RFC 9162 §2.1.3.1), leaf level first."""
    path = []
    for level in levels[:-1]:
        sibling = index ^ 1
        if sibling < len(level):
            path.append(level[sibling])
        index //= 2
    return path


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2: does `leaf` (leaf data) sit at `index` of the tree of `size` with `root`?"""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf_hash(leaf)
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def _largest_power_below(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def subtree_hash(levels: Levels, lo: int, hi: int) -> bytes:
    """MTH(D[lo:hi]) for a range the RFC's splitting produces (aligned perfect subtrees, or a
    range ending at the tree's right edge)."""
    size = hi - lo
    if size & (size - 1) == 0 and lo % size == 0:
        return levels[size.bit_length() - 1][lo // size]
    k = _largest_power_below(size)
    return node_hash(subtree_hash(levels, lo, lo + k), subtree_hash(levels, lo + k, hi))


def consistency_proof(levels: Levels, old_size: int) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 §2.1.4.1, n being the size of `levels`."""
    size = len(levels[0])
    if not 0 < old_size <= size:
        raise ValueError(f"no consistency proof from size {old_size} to {size}")
    return _subproof(levels, old_size, 0, size, True)


def _subproof(levels: Levels, m: int, lo: int, hi: int, complete: bool) -> list[bytes]:
    n = hi - lo
    if m == n:
        return [] if complete else [subtree_hash(levels, lo, hi)]
    k = _largest_power_below(n)
    if m <= k:
        return [*_subproof(levels, m, lo, lo + k, complete), subtree_hash(levels, lo + k, hi)]
    return [*_subproof(levels, m - k, lo + k, hi, False), subtree_hash(levels, lo, lo + k)]


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2: is the tree of `new_size` an extension of the tree of `old_size`?"""
    if old_size == new_size:
        return not proof and old_root == new_root
    if not 0 < old_size < new_size or not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the first node
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


# --- the sum tree ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SumNode:
    hash: str  # hex
    sum: int


@dataclass(frozen=True, slots=True)
class SumStep:
    """One sibling on the way to the root: which side it is on, its hash and its sum."""

    side: str  # "left" or "right": where the sibling sits
    hash: str
    sum: int

    def to_json(self) -> dict[str, object]:
        return {"side": self.side, "hash": self.hash, "sum": self.sum}


def sum_leaf(salt: str, account: str, unit: str, balance: int) -> SumNode:
    body = f"0:{salt}:{canonical_json([account, unit, balance])}"
    return SumNode(hashlib.sha256(body.encode()).hexdigest(), balance)


def sum_parent(left: SumNode, right: SumNode) -> SumNode:
    body = f"1:{left.hash}:{left.sum}:{right.hash}:{right.sum}"
    return SumNode(hashlib.sha256(body.encode()).hexdigest(), left.sum + right.sum)


SumLevels = list[list[SumNode]]
EMPTY_SUM = SumNode(hashlib.sha256(b"").hexdigest(), 0)


def sum_levels(leaves: Sequence[SumNode]) -> SumLevels:
    level = list(leaves)
    levels = [level]
    while len(level) > 1:
        level = [
            sum_parent(level[i], level[i + 1]) if i + 1 < len(level) else level[i]
            for i in range(0, len(level), 2)
        ]
        levels.append(level)
    return levels


def sum_root(levels: SumLevels) -> SumNode:
    return levels[-1][0] if levels and levels[0] else EMPTY_SUM


def sum_path(levels: SumLevels, index: int) -> list[SumStep]:
    path = []
    for level in levels[:-1]:
        sibling = index ^ 1
        if sibling < len(level):
            node = level[sibling]
            path.append(SumStep("right" if sibling > index else "left", node.hash, node.sum))
        index //= 2
    return path


def verify_sum_path(leaf: SumNode, path: Sequence[SumStep], root: SumNode) -> str | None:
    """None if `leaf` folds up `path` to `root`; else what is wrong. A sibling's sum must not be
    negative: otherwise a club could hide liabilities behind a negative subtree."""
    node = leaf
    for step in path:
        if step.sum < 0:
            return "a sibling in the balance proof has a negative sum"
        sibling = SumNode(step.hash, step.sum)
        node = sum_parent(sibling, node) if step.side == "left" else sum_parent(node, sibling)
    if node != root:
        return "the balance proof does not lead to the checkpoint's balance root"
    return None
