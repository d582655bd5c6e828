#!/usr/bin/env python3
"""Check a Guts deal yourself: python docs/verify_deal.py deal.json

Needs only the Python standard library. The input is what the API exports: a deal's history
(GET /api/v1/tables/<id>/deals/<n>/history?format=json), its proof (.../proof) or a whole
table's history (GET /api/v1/tables/<id>/history.json). For every deal it

1. checks that sha256(seed) is the commitment published when the deal started,
2. recomputes the deck from the seed exactly as docs/deck.md specifies (HMAC-SHA256 stream,
   rejection sampling, Fisher-Yates), independently of the server's code,
3. compares every dealt card you can see, in dealing order, with the card the seed puts there.

It prints one line per card and exits 1 on any mismatch; otherwise 0 if at least one deal was
proven, 2 if the file holds nothing provable (a stacked deck, a deal still being played, or not
an export at all).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import struct
import sys
from collections.abc import Iterator
from typing import Any

RANKS, SUITS = "23456789TJQKA", "cdhs"
PACK = [rank + suit for rank in RANKS for suit in SUITS]     # index order: 2c 2d 2h 2s 3c ... As
OK, MISMATCH, UNUSABLE = 0, 1, 2


def commitment(seed_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def words(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        yield from struct.unpack(">8I", block)
        counter += 1


def draw_below(n: int, stream: Iterator[int]) -> int:
    limit = 2**32 - (2**32 % n)
    while True:
        word = next(stream)
        if word < limit:
            return word % n


def shuffled_deck(seed_hex: str, pack: list[str]) -> list[str]:
    order, stream = list(pack), words(bytes.fromhex(seed_hex))
    for i in range(len(order) - 1, 0, -1):
        j = draw_below(i + 1, stream)
        order[i], order[j] = order[j], order[i]
    return order                                   # order[0] is the top card, dealt first


def known_pack(pack: list[str]) -> bool:
    """The 52-card pack or an Italian short pack (ranks from some rank up), in index order."""
    return any(pack == [card for card in PACK if RANKS.index(card[0]) >= lowest] for lowest in range(13))


def proofs_in(document: Any) -> list[dict[str, Any]]:
    """The proof sections of an export: one deal's history, one proof, or a table's history."""
    if not isinstance(document, dict):
        return []
    if isinstance(document.get("deals"), list):
        return [proof for deal in document["deals"] for proof in proofs_in(deal)]
    if "dealt" in document and "commitment" in document:
        return [document]
    if isinstance(document.get("proof"), dict):
        return [document["proof"]]
    return []


def verify(proof: dict[str, Any], out: Any) -> int:
    """Check one deal; print what was checked; return OK, MISMATCH or UNUSABLE."""
    print(f"Deal {proof.get('deal_no')} of table {proof.get('table_id')}", file=out)
    seed, published, pack = proof.get("seed"), proof.get("commitment"), proof.get("pack")
    if proof.get("stacked") or not seed or not published:
        print("  no proof possible: stacked deck or seed not revealed", file=out)
        return UNUSABLE
    if not isinstance(pack, list) or not known_pack(pack):
        print("  MISMATCH: the pack is not a standard or Italian pack in index order", file=out)
        return MISMATCH
    result = OK
    if hmac.compare_digest(commitment(seed), published.lower()):
        print(f"  commitment OK: sha256(seed) = {published}", file=out)
    else:
        print(f"  MISMATCH: sha256(seed) = {commitment(seed)}, published {published}", file=out)
        result = MISMATCH
    deck = shuffled_deck(seed, pack)
    checked = hidden = 0
    for dealt in proof.get("dealt", []):
        index, card = dealt["index"], dealt.get("card")
        label = f"  card {index + 1:>2} to player {dealt['player']}:"
        if card is None:
            hidden += 1
            print(f"{label} hidden from you, not checked", file=out)
            continue
        checked += 1
        expected = deck[index] if index < len(deck) else None
        if card == expected:
            print(f"{label} {card} OK", file=out)
        else:
            print(f"{label} {card} MISMATCH: the seed deals {expected}", file=out)
            result = MISMATCH
    verdict = "OK" if result == OK else "MISMATCH"
    print(f"  {verdict}: {checked} cards checked, {hidden} hidden", file=out)
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python docs/verify_deal.py deal.json", file=sys.stderr)
        return UNUSABLE
    try:
        with open(argv[1], encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {argv[1]}: {error}", file=sys.stderr)
        return UNUSABLE
    proofs = proofs_in(document)
    if not proofs:
        print("no finished deal with a proof in this file", file=sys.stderr)
        return UNUSABLE
    results = [verify(proof, sys.stdout) for proof in proofs]
    if MISMATCH in results:
        return MISMATCH
    return OK if OK in results else UNUSABLE


if __name__ == "__main__":
    sys.exit(main(sys.argv))
