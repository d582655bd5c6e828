#!/usr/bin/env python3
"""Check a Guts club statement against the club's signed checkpoints, with the standard library.

    python docs/verify_statement.py statement.json [--key HEX | --keys keys.json]
                                    [--checkpoint cp.json ...] [--consistency proof.json ...]

statement.json is GET /api/v1/players/{id}/statement?checkpoint=N. The script checks

1. the checkpoint's Ed25519 signature, with the key you pinned (GET /api/v1/audit/keys; without
   --key/--keys it uses the key in the statement and says so): `cryptography` if installed,
   otherwise the pure-Python RFC 8032 verifier below;
2. for the bankroll and each of the player's seats (`seats`), every line's event: its hash
   recomputed from what the statement shows (docs/audit.md, the hash recipe), the line among that
   event's transfers, and the event's inclusion in the log tree (RFC 9162) under the log root;
3. for each of them, the balance: its salted leaf's path up the sum tree to the checkpoint's
   balance root (no sibling sum negative), and that it is the sum of its lines;
4. that the checkpoint's balance sums equal what its issuers owe;
5. for each --checkpoint given (e.g. one a friend fetched), its signature, and that checkpoints
   with the same number are identical (two different ones are a fork: the club shows different
   books to different people); for each --consistency proof (GET /audit/checkpoints/{n}/
   consistency?from=m), that the log of checkpoint n extends that of checkpoint m.

It prints one line per check and a verdict; the exit status is 0 if everything holds, 1 if not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

# --- canonical JSON and event hashes (ledger/hashing.py) --------------------------------------------


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(event: dict[str, Any]) -> str:
    body = {
        "data": event["data"],
        "meta": event["meta"],
        "recorded_at": event["recorded_at"],
        "stream": event["stream"],
        "type": event["type"],
        "version": event["version"],
    }
    return hashlib.sha256((event["prev_hash"] + canonical(body)).encode()).hexdigest()


# --- RFC 9162 log tree -------------------------------------------------------------------------------


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def verify_inclusion(leaf: bytes, index: int, size: int, path: list[bytes], root: bytes) -> bool:
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf_hash(leaf)
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(m: int, n: int, old_root: bytes, new_root: bytes, proof: list[bytes]) -> bool:
    if m == n:
        return not proof and old_root == new_root
    if not 0 < m < n or not proof:
        return False
    path = ([old_root] if m & (m - 1) == 0 else []) + proof
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root


# --- the sum tree (ledger/merkle.py) -----------------------------------------------------------------


def sum_leaf(salt: str, account: str, unit: str, balance: int) -> tuple[str, int]:
    return hashlib.sha256(f"0:{salt}:{canonical([account, unit, balance])}".encode()).hexdigest(), balance


def sum_parent(left: tuple[str, int], right: tuple[str, int]) -> tuple[str, int]:
    body = f"1:{left[0]}:{left[1]}:{right[0]}:{right[1]}"
    return hashlib.sha256(body.encode()).hexdigest(), left[1] + right[1]


# --- Ed25519 (RFC 8032 §5.1.7), used when `cryptography` is not installed ----------------------------

P = 2**255 - 19
Q = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _recover_x(y: int, sign: int) -> int | None:
    xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P:
        x = x * SQRT_M1 % P
    if (x * x - xx) % P or (x == 0 and sign):
        return None
    return P - x if x & 1 != sign else x


def _decode(s: bytes) -> tuple[int, int] | None:
    if len(s) != 32:
        return None
    y = int.from_bytes(s, "little") & ((1 << 255) - 1)
    if y >= P:
        return None
    x = _recover_x(y, s[31] >> 7)
    return None if x is None else (x, y)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, P - 2, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P)


def _mul(k: int, point: tuple[int, int]) -> tuple[int, int]:
    result = (0, 1)
    while k:
        if k & 1:
            result = _add(result, point)
        point, k = _add(point, point), k >> 1
    return result


BASE = (_recover_x(4 * pow(5, P - 2, P) % P, 0) or 0, 4 * pow(5, P - 2, P) % P)


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return _pure_verify(public, message, signature)
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def _pure_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    if len(signature) != 64:
        return False
    a, r = _decode(public), _decode(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= Q:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % Q
    return _mul(s, BASE) == _add(r, _mul(h, a))


def signed_bytes(checkpoint: dict[str, Any]) -> bytes:
    return canonical({k: v for k, v in checkpoint.items() if k != "signature"}).encode()


# --- the checks ----------------------------------------------------------------------------------------


class Report:
    def __init__(self) -> None:
        self.failures = 0

    def check(self, ok: bool, what: str, failure: str) -> bool:
        print(("OK    " if ok else "FAIL  ") + (what if ok else failure))
        self.failures += not ok
        return ok


def check_signature(report: Report, checkpoint: dict[str, Any], keys: dict[str, str]) -> None:
    key = keys.get(checkpoint.get("key_id", ""))
    ok = key is not None and ed25519_verify(
        bytes.fromhex(key), signed_bytes(checkpoint), bytes.fromhex(checkpoint.get("signature", ""))
    )
    report.check(
        ok,
        f"checkpoint {checkpoint['number']}: signature by key {checkpoint.get('key_id')}",
        f"checkpoint {checkpoint['number']}: bad signature (or unknown key {checkpoint.get('key_id')})",
    )


def check_account(report: Report, checkpoint: dict[str, Any], proof: dict[str, Any]) -> None:
    """One account of the statement (the bankroll, or one of `seats`): its lines and its balance."""
    print(f"--    {proof['account']} ({proof['unit']})")
    check_balance(report, checkpoint, proof, check_lines(report, checkpoint, proof))


def check_lines(report: Report, checkpoint: dict[str, Any], statement: dict[str, Any]) -> int:
    """Each line's event hash, transfer and log inclusion; the sum of the lines."""
    account = statement["account"]
    root = bytes.fromhex(checkpoint["log_root"])
    total, nets, seen = 0, {}, {}
    for number, line in enumerate(statement["lines"], start=1):
        event = line["event"]
        where = f"line {number} ({event['type']} #{event['position']})"
        ok = report.check(
            event_hash(event) == event["hash"],
            f"{where}: event hash",
            f"{where}: the event's hash does not match its contents (changed event)",
        )
        report.check(
            ok
            and verify_inclusion(
                bytes.fromhex(event["hash"]),
                line["log_index"],
                checkpoint["size"],
                [bytes.fromhex(p) for p in line["log_path"]],
                root,
            ),
            f"{where}: in the log at index {line['log_index']}",
            f"{where}: not in the checkpoint's log (inclusion proof fails)",
        )
        amount = line["amount"]
        total += amount
        nets[event["position"]] = nets.get(event["position"], 0) + amount
        seen[event["position"]] = event
    for position, net in nets.items():
        moved = sum(
            (t["amount"] if t["to"] == account else -t["amount"])
            for t in seen[position]["data"].get("transfers", ())
            if account in (t["from"], t["to"]) and t.get("unit", "chips") == statement["unit"]
        )
        report.check(
            moved == net,
            f"event #{position}: lines match its transfers",
            f"event #{position}: the lines say {net:+}, the event moves {moved:+} (changed line)",
        )
    return total


def check_balance(report: Report, checkpoint: dict[str, Any], statement: dict[str, Any], total: int) -> None:
    unit = statement["unit"]
    tree = checkpoint["balances"].get(unit, {"root": hashlib.sha256(b"").hexdigest(), "sum": 0})
    balance = statement["balance"]
    if statement.get("salt") is not None:
        node = sum_leaf(statement["salt"], statement["account"], unit, balance)
        negative = False
        for step in statement["path"]:
            negative |= step["sum"] < 0
            sibling = (step["hash"], step["sum"])
            node = sum_parent(sibling, node) if step["side"] == "left" else sum_parent(node, sibling)
        report.check(
            not negative and node == (tree["root"], tree["sum"]),
            f"balance {balance} {unit}: in the checkpoint's balance tree",
            f"balance {balance} {unit}: not in the checkpoint's balance tree (changed balance)",
        )
    else:
        report.check(balance == 0, "no balance leaf: balance 0", "a non-zero balance without a leaf")
    report.check(
        total == balance,
        f"balance {balance} = the sum of the {len(statement['lines'])} lines",
        f"balance {balance} != the sum of the lines {total} (a line is missing or changed)",
    )
    report.check(
        tree["sum"] == checkpoint["issued"].get(unit, 0),
        f"the {unit} balances sum to what the issuers owe ({tree['sum']})",
        f"the {unit} balances sum to {tree['sum']}, the issuers owe {checkpoint['issued'].get(unit)}",
    )


def check_gossip(
    report: Report, checkpoints: list[dict[str, Any]], proofs: list[dict[str, Any]], keys: dict[str, str]
) -> None:
    by_number: dict[int, dict[str, Any]] = {}
    for checkpoint in checkpoints:
        check_signature(report, checkpoint, keys)
        known = by_number.setdefault(checkpoint["number"], checkpoint)
        report.check(
            canonical(known) == canonical(checkpoint),
            f"checkpoint {checkpoint['number']}: one version",
            f"checkpoint {checkpoint['number']}: two different versions (a fork)",
        )
    for proof in proofs:
        old, new = by_number.get(proof["from"]), by_number.get(proof["to"])
        roots_match = (old is None or old["log_root"] == proof["old_root"]) and (
            new is None or new["log_root"] == proof["new_root"]
        )
        ok = roots_match and verify_consistency(
            proof["old_size"],
            proof["new_size"],
            bytes.fromhex(proof["old_root"]),
            bytes.fromhex(proof["new_root"]),
            [bytes.fromhex(p) for p in proof["proof"]],
        )
        report.check(
            ok,
            f"checkpoints {proof['from']} -> {proof['to']}: the log only grew",
            f"checkpoints {proof['from']} -> {proof['to']}: not consistent (a forked log)",
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("statement")
    parser.add_argument("--key", help="the club's public key, hex (GET /audit/keys)")
    parser.add_argument("--keys", help="the answer of GET /audit/keys, saved")
    parser.add_argument("--checkpoint", action="append", default=[], help="a checkpoint to compare")
    parser.add_argument("--consistency", action="append", default=[], help="a consistency proof")
    args = parser.parse_args(argv)
    statement = _load(args.statement)
    keys = {key["key_id"]: key["public_key"] for key in statement.get("keys", [])}
    if args.keys:
        keys = {key["key_id"]: key["public_key"] for key in _load(args.keys)["keys"]}
    elif args.key:
        keys = {hashlib.sha256(bytes.fromhex(args.key)).hexdigest()[:16]: args.key}
    else:
        print("NOTE  no --key: trusting the key the statement names (pin it from GET /audit/keys)")
    report = Report()
    check_signature(report, statement["checkpoint"], keys)
    for proof in (statement, *statement.get("seats", ())):
        check_account(report, statement["checkpoint"], proof)
    check_gossip(
        report,
        [statement["checkpoint"], *map(_load, args.checkpoint)],
        list(map(_load, args.consistency)),
        keys,
    )
    if report.failures:
        print(f"VERDICT: NOT VERIFIED: {report.failures} check(s) failed")
        return 1
    print(
        f"VERDICT: VERIFIED: balance {statement['balance']} {statement['unit']} of {statement['account']} "
        f"is in checkpoint {statement['checkpoint']['number']} of the club's signed books"
    )
    return 0


def _load(path: str) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


if __name__ == "__main__":
    sys.exit(main())
