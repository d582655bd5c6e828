"""Signed checkpoints of the books, and the proofs that tie a statement to them (docs/audit.md).

A checkpoint is the event CheckpointPublished on the stream `ledger-checkpoints` (its number is its
version there). It covers the first `size` events of the log in log order (`store.read_all`'s
order, below the watermark: a prefix nothing can enter any more), the last of them at `position`,
and publishes

- `log_root`: the RFC 9162 Merkle root over those events' hashes (`ledger.merkle`);
- `balances`: per unit, the root, sum and leaf count of a Merkle sum tree over the posted balance
  of every account that may not go negative, each leaf salted with 128 fresh random bits and the
  leaves in a fresh random order at every checkpoint (a sibling in a proof shows a sum, not whose,
  and a leaf's place says nothing from one checkpoint to the next);
- `issued`: per unit, what the issuers (the cashier, a tournament's chip bank) owe, which the
  sums must equal (conservation);

signed with the club's Ed25519 key (GUTS_CHECKPOINT_KEY; public half at GET /audit/keys) over the
canonical JSON of everything but `signature`. Each checkpoint records the log leaves it adds
(LogLeaf) and its sum tree leaves (CheckpointLeaf, salts included: served only to readers of the
account), so proofs are read, not replayed. The library is `cryptography` (Ed25519 only); the
trees are ours, ~150 lines following the RFC, because no maintained library implements both
RFC 9162 proofs and sum trees.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from ledger import dbapi, merkle
from ledger.accounts import transfers_of
from ledger.errors import InvalidInput, UnknownCheckpoint
from ledger.hashing import canonical_json, iso_utc, new_salt
from ledger.models import CheckpointLeaf, LogLeaf
from ledger.money import may_go_negative
from ledger.store import NewEvent, StoredEvent, StreamWrite, append, read_all_raw, read_stream, stream_version

CHECKPOINT_STREAM = "ledger-checkpoints"
CHECKPOINT_PUBLISHED = "CheckpointPublished"
FORMAT = "guts-checkpoint/1"
CHECKPOINT_LOCK = (0x636B7074, 0)  # "ckpt": one checkpoint at a time
READ_BATCH = 5000
TREE_CACHE = 2  # log trees kept per process (by size)

_trees: dict[tuple[int, str], merkle.Levels] = {}


# --- the key ------------------------------------------------------------------------------------------


def signing_key() -> Ed25519PrivateKey:
    """The club's key: GUTS_CHECKPOINT_KEY (64 hex digits, the Ed25519 seed); without it, one
    derived from SECRET_KEY (a development key: set a real one in production)."""
    seed = settings.GUTS_CHECKPOINT_KEY
    if not seed:
        return Ed25519PrivateKey.from_private_bytes(
            hashlib.sha256(b"guts-checkpoint:" + settings.SECRET_KEY.encode()).digest()
        )
    if not re.fullmatch(r"[0-9a-fA-F]{64}", seed):
        raise ImproperlyConfigured("GUTS_CHECKPOINT_KEY must be 64 hex digits (a 32-byte Ed25519 seed)")
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed))


def public_key_hex() -> str:
    return (
        signing_key()
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        .hex()
    )


def key_id() -> str:
    """The first 16 hex digits of sha256(public key): names the key a checkpoint was signed with."""
    return hashlib.sha256(bytes.fromhex(public_key_hex())).hexdigest()[:16]


def keys() -> list[dict[str, str]]:
    return [{"key_id": key_id(), "algorithm": "Ed25519", "public_key": public_key_hex()}]


def signed_bytes(checkpoint: dict[str, Any]) -> bytes:
    """What the signature covers: the canonical JSON of the checkpoint without `signature`."""
    return canonical_json({k: v for k, v in checkpoint.items() if k != "signature"}).encode()


# --- publishing ---------------------------------------------------------------------------------------


def checkpoint_latest() -> dict[str, Any] | None:
    version = stream_version(CHECKPOINT_STREAM)
    return checkpoint_get(version) if version else None


def checkpoint_get(number: int) -> dict[str, Any]:
    events = read_stream(CHECKPOINT_STREAM, from_version=number, to_version=number) if number >= 1 else []
    if not events:
        raise UnknownCheckpoint(number)
    return events[0].data


def checkpoint_list() -> list[dict[str, Any]]:
    return [event.data for event in read_stream(CHECKPOINT_STREAM)]


def checkpoint_publish(*, now: datetime, meta: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Publish a checkpoint over the log as it stands; the latest one again (nothing appended)
    if no event was added since. One at a time (an advisory lock)."""
    with transaction.atomic():
        _lock()
        previous = checkpoint_latest()
        start = previous["size"] if previous else 0
        balances = _balances_at(previous["number"] if previous else None)
        size, position = _add_leaves(start, previous["position"] if previous else 0, balances)
        if size == start:
            return previous
        number = (previous["number"] if previous else 0) + 1
        body = {
            "format": FORMAT,
            "number": number,
            "size": size,
            "position": position,
            "log_root": merkle.root_of(log_tree(size)).hex(),
            **_sum_trees(number, balances),
            "issued_at": iso_utc(now),
            "key_id": key_id(),
        }
        body["signature"] = signing_key().sign(signed_bytes(body)).hex()
        append(
            [StreamWrite(CHECKPOINT_STREAM, number - 1, [NewEvent(CHECKPOINT_PUBLISHED, body)])], meta=meta
        )
        return body


def _lock() -> None:
    if dbapi.on_postgres():
        with dbapi.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", list(CHECKPOINT_LOCK))


def _add_leaves(start: int, after: int, balances: dict[tuple[str, str], int]) -> tuple[int, int]:
    """Read the events after position `after` in log order, batch by batch (as stored: what the
    hashes cover), writing their log leaves from index `start` and moving `balances`; the new
    size and the last event's position. Stops at the first short batch: a busy log is covered up
    to where the reading caught up, the rest by the next checkpoint."""
    size, position = start, after
    while batch := read_all_raw(after=position, limit=READ_BATCH):
        LogLeaf.objects.bulk_create(
            [
                LogLeaf(index=size + offset, position=event.position, hash=event.hash)
                for offset, event in enumerate(batch)
            ],
            batch_size=2000,
        )
        _move(balances, batch)
        size, position = size + len(batch), batch[-1].position
        if len(batch) < READ_BATCH:
            break
    return size, position


def _balances_at(previous: int | None) -> dict[tuple[str, str], int]:
    """Every balance at checkpoint `previous` (its leaves, the issuers summed per unit)."""
    balances: dict[tuple[str, str], int] = defaultdict(int)
    if previous is not None:
        for account, unit, amount in CheckpointLeaf.objects.filter(checkpoint=previous).values_list(
            "account", "unit", "balance"
        ):
            balances[(account, unit)] = amount
        issued = checkpoint_get(previous)["issued"]
        for unit, amount in issued.items():
            balances[(ISSUERS_KEY, unit)] = -amount
    return balances


def _move(balances: dict[tuple[str, str], int], events: Iterable[StoredEvent]) -> None:
    for event in events:
        for transfer in transfers_of(event.data):
            for account, sign in ((transfer.source, -1), (transfer.target, 1)):
                key = (ISSUERS_KEY if may_go_negative(account) else account, transfer.unit)
                balances[key] += sign * transfer.amount


ISSUERS_KEY = "\x00issuers"  # every issuer's balance of a unit, summed (never a leaf)


def _sum_trees(number: int, balances: dict[tuple[str, str], int]) -> dict[str, Any]:
    by_unit: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    issued: dict[str, int] = {}
    for (account, unit), amount in balances.items():
        if account == ISSUERS_KEY:
            issued[unit] = -amount
        else:
            by_unit[unit].append((new_salt(), account, amount))
    trees, rows = {}, []
    for unit, leaves in sorted(by_unit.items()):
        leaves.sort()  # by salt: a fresh random order
        levels = merkle.sum_levels(
            [merkle.sum_leaf(salt, account, unit, amount) for salt, account, amount in leaves]
        )
        root = merkle.sum_root(levels)
        trees[unit] = {"root": root.hash, "sum": root.sum, "leaves": len(leaves)}
        rows += [
            CheckpointLeaf(
                checkpoint=number, unit=unit, index=index, account=account, balance=amount, salt=salt
            )
            for index, (salt, account, amount) in enumerate(leaves)
        ]
    CheckpointLeaf.objects.bulk_create(rows, batch_size=2000)
    return {
        "balances": trees,
        "issued": {unit: issued.get(unit, 0) for unit in sorted(set(issued) | set(trees))},
    }


# --- trees and proofs ---------------------------------------------------------------------------------


def log_tree(size: int) -> merkle.Levels:
    """The log tree over the first `size` log leaves (cached per process: events never change)."""
    last = LogLeaf.objects.filter(index=size - 1).values_list("hash", flat=True).first()
    key = (size, last or "")  # a restored or flushed database reuses sizes, not leaves
    levels = _trees.get(key)
    if levels is None:
        hashes = LogLeaf.objects.filter(index__lt=size).order_by("index").values_list("hash", flat=True)
        levels = merkle.log_levels([bytes.fromhex(digest) for digest in hashes.iterator(chunk_size=10_000)])
        if len(levels[0]) != size:
            raise UnknownCheckpoint(f"of size {size}")
        while len(_trees) >= TREE_CACHE:
            _trees.pop(next(iter(_trees)))
        _trees[key] = levels
    return levels


def consistency(*, old: int, new: int) -> dict[str, Any]:
    """The RFC 9162 proof that checkpoint `new`'s log extends checkpoint `old`'s."""
    if not 1 <= old <= new:
        raise InvalidInput(
            "from must name a checkpoint at or before this one",
            errors={"from": ["A checkpoint number from 1 to this one."]},
        )
    first, second = checkpoint_get(old), checkpoint_get(new)
    proof = [] if old == new else merkle.consistency_proof(log_tree(second["size"]), first["size"])
    return {
        "from": old,
        "to": new,
        "old_size": first["size"],
        "new_size": second["size"],
        "old_root": first["log_root"],
        "new_root": second["log_root"],
        "proof": [node.hex() for node in proof],
    }


# --- verification (verify_ledger) -------------------------------------------------------------------


def check_checkpoint(
    checkpoint: dict[str, Any], root: bytes, balances: dict[tuple[str, str], int]
) -> list[str]:
    """What is wrong with `checkpoint`, given the walk's log root and balances at its size."""
    number = checkpoint["number"]
    problems = []
    if checkpoint["log_root"] != root.hex():
        problems.append(
            f"checkpoint {number}: its log root is not the root of the first {checkpoint['size']} events"
        )
    if not _signature_ok(checkpoint):
        problems.append(
            f"checkpoint {number}: the signature does not verify with key {checkpoint.get('key_id')}"
        )
    stored = {
        (account, unit): (amount, salt, index)
        for account, unit, amount, salt, index in CheckpointLeaf.objects.filter(
            checkpoint=number
        ).values_list("account", "unit", "balance", "salt", "index")
    }
    issued: dict[str, int] = defaultdict(int)
    for (account, unit), amount in balances.items():
        if may_go_negative(account):
            issued[unit] -= amount
        elif stored.get((account, unit), (0,))[0] != amount:
            problems.append(
                f"checkpoint {number}: {account} ({unit}) is {stored.get((account, unit), (0,))[0]} "
                f"in its sum tree, the replay gives {amount}"
            )
    for unit, tree in checkpoint["balances"].items():
        leaves = sorted(
            (index, salt, account, amount)
            for (account, leaf_unit), (amount, salt, index) in stored.items()
            if leaf_unit == unit
        )
        root_node = merkle.sum_root(
            merkle.sum_levels(
                [merkle.sum_leaf(salt, account, unit, amount) for _, salt, account, amount in leaves]
            )
        )
        if (root_node.hash, root_node.sum) != (tree["root"], tree["sum"]):
            problems.append(f"checkpoint {number}: the {unit} sum tree's root is not that of its leaves")
        if tree["sum"] != checkpoint["issued"].get(unit, 0) or tree["sum"] != issued.get(unit, 0):
            problems.append(
                f"checkpoint {number}: the {unit} balances sum to {tree['sum']}, "
                f"the issuers owe {issued.get(unit, 0)}"
            )
    return problems


def _signature_ok(checkpoint: dict[str, Any]) -> bool:
    from cryptography.exceptions import InvalidSignature

    if checkpoint.get("key_id") != key_id():
        return False
    try:
        signing_key().public_key().verify(bytes.fromhex(checkpoint["signature"]), signed_bytes(checkpoint))
    except (InvalidSignature, ValueError):
        return False
    return True
