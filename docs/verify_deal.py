#!/usr/bin/env python3
"""Check a Guts deal yourself: python docs/verify_deal.py deal.json
Check the hash chain of served events: python docs/verify_deal.py --chain events.json
Check a tournament's seating: python docs/verify_deal.py --seating tournament.json

Needs only the Python standard library. The input is what the API exports: a deal's history
(GET /api/v1/tables/<id>/deals/<n>/history?format=json), its proof (.../proof) or a whole
table's history (GET /api/v1/tables/<id>/history.json).

A deal of deck schema 2 (docs/deck.md §10: per-card commitments; every deal dealt now) is checked
from what your role was served, with no seed:

- as anyone: the permutation recomputed from the published Merkle root and the players' seeds
  (and whether any player contributed entropy at all); for a short pack (Italian poker, D-IT-01)
  the cards out of play, opened to everyone: each opens its committed leaf and together they are
  exactly the 52-card pack's cards outside the deal's pack, so the k-th card dealt is at the k-th
  position of the permutation not among them;
- as a player: every card opened to you (your own, the face-up and shown ones) hashes, with its
  salt, to the leaf committed at the position the permutation assigns to its dealing index, the
  inclusion path leads to the root published before the deal, and no position is used twice;
- as an auditor (every position opened, once the deal is over): the whole committed deck is an
  order of the pack whose Merkle root is the published one, the undealt stock included, and each
  reshuffled stock is the discards mixed by the deal's permutation key (D-GEN-02).

A proof fetched while the deal is being played (`"finished": false`) holds the openings served so
far: your own cards as soon as you hold them, the cards shown so far; it is checked the same way.

A deal of deck schema 1 (old deals, whose seed is public) is checked by the old recipe:

1. checks that sha256(seed) is the commitment published when the deal started,
2. recomputes the deck from the seed exactly as docs/deck.md specifies (HMAC-SHA256 stream,
   rejection sampling, Fisher-Yates), independently of the server's code,
3. compares every dealt card you can see, in dealing order, with the card the seed puts there.

With --chain and served events instead (a feed page, GET /api/v1/tables/<id>/events, or any export with an
`events` list), it re-checks the hash chain exactly as ledger/hashing.py specifies: every link
(prev_hash = the previous event's hash in the stream), every hash over the event's chain form
(secret values replaced by their salted commitments), and every secret value you are shown
against its commitment. Hidden values are never needed to check a link.

With --seating and a tournament (GET /api/v1/tournaments/<id>, or just its `seating` object), it
checks that sha256(seed) is the commitment published when the tournament was created, and that
the deck's shuffle (the same Fisher-Yates, HMAC-SHA256 stream keyed by the seed) of the entrants
in registration order gives the published seating order; entrant i of the order sat at table
i mod (number of tables).

It prints one line per card (or per event) and exits 1 on any mismatch; otherwise 0 if at least
one deal (or chain) was proven, 2 if the file holds nothing provable (a stacked deck, a deal of
the seed recipe still being played, or not an export at all).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

RANKS, SUITS = "23456789TJQKA", "cdhs"
PACK = [rank + suit for rank in RANKS for suit in SUITS]  # index order: 2c 2d 2h 2s 3c ... As
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


def shuffle(cards: list[str], key: bytes) -> list[str]:
    order, stream = list(cards), words(key)
    for i in range(len(order) - 1, 0, -1):
        j = draw_below(i + 1, stream)
        order[i], order[j] = order[j], order[i]
    return order


def shuffled_deck(seed_hex: str, pack: list[str]) -> list[str]:
    return shuffle(pack, bytes.fromhex(seed_hex))  # order[0] is the top card, dealt first


def reshuffled(seed_hex: str, generation: int, discards: list[str]) -> list[str]:
    """The g-th batch of discards shuffled into the stock (docs/deck.md §6, D-GEN-02): in pack
    index order, shuffled with HMAC-SHA256(seed, b"guts-reshuffle" + g as 8 bytes) as the key."""
    key = hmac.new(
        bytes.fromhex(seed_hex), b"guts-reshuffle" + generation.to_bytes(8, "big"), hashlib.sha256
    ).digest()
    return shuffle(sorted(discards, key=PACK.index), key)


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
    if (proof.get("deck_schema") or 1) >= 2:
        return verify_committed(proof, out)
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
    batches = proof.get("reshuffles")
    for generation, batch in enumerate(batches or [], start=1):
        deck += reshuffled(seed, generation, batch)
    checked = hidden = 0
    for dealt in proof.get("dealt", []):
        index, card = dealt["index"], dealt.get("card")
        label = f"  card {index + 1:>2} to player {dealt['player']}:"
        if card is None or (index >= len(deck) and batches is None):
            hidden += 1
            reason = "hidden from you" if card is None else "from reshuffled discards you may not see"
            print(f"{label} {reason}, not checked", file=out)
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


# --- deck schema 2: per-card commitments (docs/deck.md §10) ----------------------------------------


def card_commitment(salt_hex: str, card: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + card.encode("ascii")).hexdigest()


def leaf_hash(commitment_hex: str) -> bytes:
    return hashlib.sha256(b"\x00" + bytes.fromhex(commitment_hex)).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def tree_hash(leaves: list[bytes]) -> bytes:
    """RFC 9162 §2.1.1 MTH over leaf hashes."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node_hash(tree_hash(leaves[:k]), tree_hash(leaves[k:]))


def included(root: str, size: int, index: int, commitment_hex: str, path: list[str]) -> bool:
    """RFC 9162 §2.1.3.2: the inclusion path of leaf `index` in a tree of `size` leads to `root`."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf_hash(commitment_hex)
    for sibling in path:
        p = bytes.fromhex(sibling)
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r.hex() == root


def permutation_key(root: str, seeds: list[tuple[str, str]]) -> str:
    lines = "".join(f"{player}:{seed}\n" for player, seed in seeds)
    return hashlib.sha256(b"guts-permutation\n" + f"{root}\n{lines}".encode()).hexdigest()


def check_permutation(proof: dict[str, Any], out: Any) -> tuple[list[int], str, bool]:
    """The permutation anyone recomputes: (perm, key, agrees with what was served)."""
    seeds = [(item["player"], item["client_seed"]) for item in proof.get("entropy") or []]
    key = permutation_key(proof["root"], seeds)
    perm = shuffle(list(range(proof["size"])), bytes.fromhex(key))
    served = proof.get("permutation")
    same = (served is None or served == perm) and proof.get("permutation_key") in (None, key)
    if not seeds:
        print(
            "  no player entropy: no player contributed a seed, so the house alone fixed this order", file=out
        )
    else:
        print(f"  player entropy: {len(seeds)} seed(s) from " + ", ".join(p for p, _ in seeds), file=out)
    verdict = "OK" if same else "MISMATCH: the served permutation is not the one the root and seeds give"
    print(f"  permutation {verdict} (key {key})", file=out)
    return perm, key, same


def check_out_of_play(proof: dict[str, Any], out: Any) -> tuple[set[int], bool]:
    """A short pack's committed cards out of play (public openings): each opens its leaf, and
    they are exactly the cards of the 52-card pack outside the deal's pack, each position once.
    Returns their positions and whether all of it holds."""
    pack = proof.get("pack") or PACK
    if not isinstance(pack, list) or not known_pack(pack):
        print("  MISMATCH: the pack is not a standard or Italian pack in index order", file=out)
        return set(), False
    openings = proof.get("out_of_play") or []
    positions = {opening["position"] for opening in openings}
    outside = [card for card in PACK if card not in pack]
    ok = len(positions) == len(openings) and sorted((o["card"] for o in openings), key=PACK.index) == outside
    for opening in openings:
        leaf = card_commitment(opening["salt"], opening["card"])
        if opening.get("tree", 0) != 0 or not included(
            proof["root"], proof["size"], opening["position"], leaf, opening.get("path") or []
        ):
            where = f"not the leaf committed at position {opening['position']}"
            print(f"  out of play {opening['card']} MISMATCH: {where}", file=out)
            ok = False
    if not ok:
        print("  MISMATCH: the cards out of play are not the pack's cards outside the deal's pack", file=out)
    elif outside:
        print(f"  short pack of {len(pack)} cards: {len(outside)} cards out of play, opened, OK", file=out)
    return positions, ok


def opening_problem(
    opening: dict[str, Any], proof: dict[str, Any], in_play: list[int], dealt: dict[int, dict[str, Any]]
) -> str | None:
    """What is wrong with one opening, or None (`in_play`: the permutation without the positions
    out of play, i.e. the committed position of each dealing index)."""
    index, tree, position = opening["index"], opening.get("tree", 0), opening["position"]
    card, salt = opening["card"], opening["salt"]
    if tree == 0:
        root, size = proof["root"], proof["size"]
        expected = in_play[index] if 0 <= index < len(in_play) else None
    else:
        stock = next((s for s in proof.get("stocks") or [] if s["generation"] == tree), None)
        if stock is None:
            return f"no reshuffled stock {tree} was published"
        root, size, expected = stock["root"], stock["count"], index - stock["first_index"]
    if position != expected:
        return f"position {position} is not the one the permutation assigns ({expected})"
    if card not in PACK:
        return f"{card!r} is not a card"
    if not included(root, size, position, card_commitment(salt, card), opening.get("path") or []):
        return "sha256(salt || card) is not the leaf committed at that position"
    shown = dealt.get(index, {}).get("card")
    if shown is not None and shown != card:
        return f"the deal says {shown} was dealt here"
    return None


def verify_committed(proof: dict[str, Any], out: Any) -> int:
    """Deck schema 2: the permutation, every opening served, and (auditors) the whole deck."""
    if proof.get("stacked") or not proof.get("root"):
        print("  no proof possible: stacked deck or nothing committed", file=out)
        return UNUSABLE
    perm, key, result_ok = check_permutation(proof, out)
    outside, pack_ok = check_out_of_play(proof, out)
    result = OK if result_ok and pack_ok else MISMATCH
    in_play = [position for position in perm if position not in outside]
    live = proof.get("finished") is False
    if live:
        print("  deal still being played: checking the cards opened to you so far", file=out)
    dealt = {item["index"]: item for item in proof.get("dealt") or []}
    used: set[tuple[int, int]] = {(0, position) for position in outside}
    indices: set[int] = set()
    openings = proof.get("openings") or []
    for opening in openings:
        problem = opening_problem(opening, proof, in_play, dealt)
        slot = (opening.get("tree", 0), opening["position"])
        if problem is None and (slot in used or opening["index"] in indices):
            problem = f"position {slot[1]} of tree {slot[0]} is used twice"
        used.add(slot)
        indices.add(opening["index"])
        label = f"  card {opening['index'] + 1:>2} to {opening.get('player') or 'the stock'}:"
        if problem:
            print(f"{label} {opening['card']} MISMATCH: {problem}", file=out)
            result = MISMATCH
        elif opening["index"] in dealt:
            print(f"{label} {opening['card']} OK (position {opening['position']})", file=out)
    unopened = [
        item for item in dealt.values() if item.get("card") is not None and item["index"] not in indices
    ]
    for item in unopened:
        print(f"  card {item['index'] + 1:>2}: {item['card']} MISMATCH: shown but not opened", file=out)
        result = MISMATCH
    whole = {position for tree, position in used if tree == 0} == set(range(proof["size"]))
    if whole:
        everything = [*openings, *({"tree": 0, **o} for o in proof.get("out_of_play") or [])]
        result = max(result, verify_whole_deck(proof, everything, key, out))
    hidden = sum(1 for item in dealt.values() if item["index"] not in indices)
    role = "auditor" if whole else ("player" if openings else "anyone")
    verdict = "OK" if result == OK else "MISMATCH"
    checked = len([o for o in openings if o["index"] in dealt])
    so_far = " so far (the deal is being played)" if live else ""
    print(f"  {verdict} as {role}: {checked} cards checked, {hidden} hidden{so_far}", file=out)
    return result


def verify_whole_deck(proof: dict[str, Any], openings: list[dict[str, Any]], key: str, out: Any) -> int:
    """Every position opened (an auditor's proof): the deck is an order of the pack with the
    published root, and each reshuffled stock is its discards mixed by the permutation key."""
    deck = {o["position"]: o for o in openings if o.get("tree", 0) == 0}
    cards = [deck[position]["card"] for position in range(proof["size"])]
    leaves = [leaf_hash(card_commitment(deck[p]["salt"], deck[p]["card"])) for p in range(proof["size"])]
    result = OK
    if sorted(cards, key=PACK.index) != PACK:
        print("  MISMATCH: the committed deck is not an order of the pack", file=out)
        result = MISMATCH
    if tree_hash(leaves).hex() != proof["root"]:
        print("  MISMATCH: the committed deck does not hash to the published root", file=out)
        result = MISMATCH
    else:
        print(f"  whole deck OK: {len(cards)} positions, Merkle root {proof['root']}", file=out)
    for generation, batch in enumerate(proof.get("reshuffles") or [], start=1):
        stock = next(s for s in proof["stocks"] if s["generation"] == generation)
        subkey = hmac.new(
            bytes.fromhex(key), b"guts-reshuffle" + generation.to_bytes(8, "big"), hashlib.sha256
        ).digest()
        mixed = shuffle(sorted(batch, key=PACK.index), subkey)
        slots = {o["position"]: o for o in openings if o.get("tree") == generation}
        opened = [slots[j]["card"] if j in slots else None for j in range(stock["count"])]
        leaves = [
            leaf_hash(card_commitment(slots[j]["salt"], slots[j]["card"]))
            for j in range(stock["count"])
            if j in slots
        ]
        if opened != mixed or tree_hash(leaves).hex() != stock["root"]:
            print(f"  MISMATCH: reshuffled stock {generation} is not its discards mixed by the key", file=out)
            result = MISMATCH
        else:
            print(f"  reshuffled stock {generation} OK: {len(mixed)} discards", file=out)
    return result


# --- the hash chain (ledger/hashing.py) -----------------------------------------------------------

GENESIS = "0" * 64


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sealed_commitment(salt: str, key: str, value: Any) -> str:
    return hashlib.sha256(f"{salt}:{key}:{canonical_json(value)}".encode()).hexdigest()


def chain_data(event: dict[str, Any]) -> dict[str, Any]:
    """What the hash covers of a served event's data: without the salt, each secret key as its
    commitment (served in `commitments`, whether or not you may see the value)."""
    data = {key: value for key, value in event["data"].items() if key != "salt"}
    return {**data, **(event.get("commitments") or {})}


def chain_hash(event: dict[str, Any]) -> str:
    moment = datetime.fromisoformat(event["recorded_at"]).astimezone(UTC)
    body = canonical_json(
        {
            "data": chain_data(event),
            "meta": event["meta"],
            "recorded_at": moment.isoformat(timespec="microseconds"),
            "stream": event["stream"],
            "type": event["type"],
            "version": event["version"],
        }
    )
    return hashlib.sha256((event["prev_hash"] + body).encode("utf-8")).hexdigest()


def event_problem(event: dict[str, Any], heads: dict[str, tuple[int, str]]) -> str | None:
    """What is wrong with one served event given the stream heads seen before it, or None."""
    if event.get("hash") is None or event.get("prev_hash") is None:
        return "no hash served (a legacy event hidden from you): the chain cannot be checked here"
    version, head = heads.get(event["stream"], (0, GENESIS))
    follows = event["version"] == version + 1  # a filtered page skips versions
    if follows and event["prev_hash"] != head:
        return "prev_hash is not the previous event's hash"
    if chain_hash(event) != event["hash"]:
        return "hash does not match the event"
    data, commitments = event["data"], event.get("commitments") or {}
    salt = data.get("salt")
    for key in data.get("secret") or ():
        if salt is not None and sealed_commitment(salt, key, data[key]) != commitments.get(key):
            return f"the shown {key!r} is not the value committed in the chain"
    return None


def verify_chain(events: list[dict[str, Any]], out: Any) -> int:
    """Check served events in order (a page may start mid-stream: its first link is not checked)."""
    heads: dict[str, tuple[int, str]] = {}
    result, checked = OK, 0
    for event in events:
        problem = event_problem(event, heads)
        label = f"  event {event['position']} ({event['stream']} v{event['version']} {event['type']}):"
        if problem:
            print(f"{label} MISMATCH: {problem}", file=out)
            result = MISMATCH
        else:
            checked += 1
            shown = [key for key in event["data"].get("secret") or () if event["data"].get("salt")]
            print(
                f"{label} OK" + (f", shown {', '.join(shown)} match their commitments" if shown else ""),
                file=out,
            )
        heads[event["stream"]] = (event["version"], event["hash"])
    print(f"  {'OK' if result == OK else 'MISMATCH'}: {checked} of {len(events)} events checked", file=out)
    return result if checked or result == MISMATCH else UNUSABLE


def served_events(document: Any) -> list[dict[str, Any]]:
    """The served events of a feed page (`results`) or an export (`events`, or its deals')."""
    if not isinstance(document, dict):
        return []
    if isinstance(document.get("deals"), list):
        return [event for deal in document["deals"] for event in served_events(deal)]
    for key in ("results", "events"):
        found = document.get(key)
        if isinstance(found, list) and all(isinstance(e, dict) and "hash" in e for e in found):
            return found
    return []


def verify_seating(document: Any, out: Any) -> int:
    """A tournament's seating: the commitment, then the order recomputed from the seed."""
    proof = document.get("seating", document) if isinstance(document, dict) else None
    if not isinstance(proof, dict) or not proof.get("seed") or not isinstance(proof.get("entrants"), list):
        print("no revealed seating in this file (the tournament has not started?)", file=sys.stderr)
        return UNUSABLE
    committed = commitment(proof["seed"]) == proof.get("commitment")
    print(
        f"commitment {'OK' if committed else 'MISMATCH'}: sha256(seed) = {commitment(proof['seed'])}",
        file=out,
    )
    order = shuffle([str(entrant) for entrant in proof["entrants"]], bytes.fromhex(proof["seed"]))
    same = order == [str(entrant) for entrant in proof.get("order") or []]
    print(f"seating order {'OK' if same else 'MISMATCH'}: {' '.join(order)}", file=out)
    return OK if committed and same else MISMATCH


def main(argv: list[str]) -> int:
    chain = len(argv) == 3 and argv[1] == "--chain"
    seating = len(argv) == 3 and argv[1] == "--seating"
    if len(argv) != 2 and not chain and not seating:
        print("usage: python docs/verify_deal.py [--chain | --seating] file.json", file=sys.stderr)
        return UNUSABLE
    try:
        with open(argv[-1], encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"cannot read {argv[-1]}: {error}", file=sys.stderr)
        return UNUSABLE
    if chain:
        return chain_main(document)
    if seating:
        return verify_seating(document, sys.stdout)
    proofs = proofs_in(document)
    if not proofs:
        print("no finished deal with a proof in this file", file=sys.stderr)
        return UNUSABLE
    results = [verify(proof, sys.stdout) for proof in proofs]
    if MISMATCH in results:
        return MISMATCH
    return OK if OK in results else UNUSABLE


def chain_main(document: Any) -> int:
    events = served_events(document)
    if not events:
        print("no served events in this file", file=sys.stderr)
        return UNUSABLE
    print("Hash chain of the served events")
    return verify_chain(events, sys.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
