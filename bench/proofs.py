"""Proof sizes and costs of the verifiable books (ledger.merkle) for a log of 1 M events.

Builds the RFC 9162 tree over 1,000,000 synthetic event hashes (what a checkpoint of that log
computes), then measures inclusion and consistency proofs: their length (target: log2 of the
size, 20 nodes) and the time to make and verify them, and the same for a sum tree of 100,000
accounts. Pure Python, no database: `python bench/proofs.py [--events N] [--accounts N]`.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger import merkle


def timed(fn, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--accounts", type=int, default=100_000)
    args = parser.parse_args()
    n = args.events
    leaves = [hashlib.sha256(i.to_bytes(8, "big")).digest() for i in range(n)]
    levels, build = timed(merkle.log_levels, leaves)
    root = merkle.root_of(levels)
    rng = random.Random(7)
    sizes, make, check = [], 0.0, 0.0
    for index in rng.sample(range(n), 1000):
        path, spent = timed(merkle.inclusion_path, levels, index)
        make += spent
        ok, spent = timed(merkle.verify_inclusion, leaves[index], index, n, path, root)
        check += spent
        assert ok
        sizes.append(len(path))
    old = rng.randrange(1, n)
    proof, consistency_time = timed(merkle.consistency_proof, levels, old)
    old_root = (
        merkle.subtree_hash(levels, 0, old)
        if old & (old - 1) == 0
        else merkle.root_of(merkle.log_levels(leaves[:old]))
    )
    assert merkle.verify_consistency(old, n, old_root, root, proof)
    accounts = [
        merkle.sum_leaf(f"{i:032x}", f"player:{i}", "chips", rng.randrange(10**6))
        for i in range(args.accounts)
    ]
    sums, sum_build = timed(merkle.sum_levels, accounts)
    sum_path = merkle.sum_path(sums, args.accounts // 2)
    print(f"{'what':<40} {'value':>14}")
    print(f"{'log size':<40} {n:>14,}")
    print(f"{'log2(size)':<40} {math.log2(n):>14.1f}")
    print(f"{'tree build (s)':<40} {build:>14.2f}")
    print(f"{'inclusion proof nodes (max of 1000)':<40} {max(sizes):>14}")
    print(f"{'inclusion proof bytes (hex, max)':<40} {max(sizes) * 64:>14}")
    print(f"{'make + verify one proof (ms)':<40} {(make + check) / len(sizes) * 1000:>14.3f}")
    label = f"consistency proof nodes (from {old})"
    print(f"{label:<40} {len(proof):>14}")
    print(f"{'consistency proof (ms)':<40} {consistency_time * 1000:>14.3f}")
    print(f"{'sum tree of accounts':<40} {args.accounts:>14,}")
    print(f"{'sum tree build (s)':<40} {sum_build:>14.2f}")
    print(f"{'balance proof steps':<40} {len(sum_path):>14}")
    target = math.ceil(math.log2(n))
    print(f"target: inclusion <= {target} nodes: {'met' if max(sizes) <= target else 'MISSED'}")


if __name__ == "__main__":
    main()
