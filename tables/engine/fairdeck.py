"""Fair deals that keep unshown cards secret (docs/deck.md, deck schema 2).

The recipe, in three parts, each checkable with the standard library (docs/verify_deal.py):

1. **Commit per card.** The server shuffles the pack secretly and draws an independent 128-bit salt
   per position from the OS CSPRNG. Position i is committed as ``c_i = sha256(salt_i || card_i)``
   (the salt's 16 bytes, then the card's two ASCII characters); the public commitment is the
   RFC 9162 Merkle tree hash over the leaves ``c_i``. Opening one position (position, card, salt
   and its inclusion path) proves that card without saying anything about the others.
2. **Entropy the house cannot choose.** A deal's deck is committed before the players' seeds that
   permute it exist (the next deal's deck is committed when a deal starts). The k-th card dealt is
   the committed position ``perm[k]``, where ``perm`` is the deck's Fisher-Yates shuffle of
   ``range(size)`` keyed by ``permutation_key(root, seeds)``: public, recomputable by anyone, and
   revealing nothing about the cards. A short pack (Italian poker, D-IT-01) is dealt from the same
   52 committed cards: the positions in ``perm`` order whose card is outside the pack are skipped
   (`in_play`), and those cards, out of play, are opened to everyone.
3. **Reshuffles** (D-GEN-02) put the discards, in pack index order, through the same Fisher-Yates
   keyed by HMAC(permutation key, "guts-reshuffle" || generation), and commit the new stock's
   slots afresh (new salts, a new root) before anyone draws from it.

Pure functions over hex strings and card tokens: the service draws the secrets
(`new_secret_deck`, `new_salts`) and passes them into the engine's commands as data.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from tables.engine.cards import parse_card
from tables.engine.deck import RESHUFFLE_LABEL, STANDARD_PACK, fisher_yates, shuffle

SCHEMA = 2  # DealStarted.deck_schema: 1 = the seed recipe (deck.py), 2 = this one
SALT_BYTES = 16  # 128 bits per position
# The salts the service sends with a command that may reshuffle a stock (a draw, a timeout): one
# decision puts each card into a reshuffled stock at most once (a card must be discarded again,
# by another draw, to be reshuffled again), so one per card of the pack always suffices.
DECISION_SALTS = len(STANDARD_PACK)
PERMUTATION_LABEL = b"guts-permutation"
_HEX = re.compile(r"[0-9a-f]+")
_CLIENT_SEED = re.compile(r"[0-9a-f]{32,128}")


class SecretDeck(NamedTuple):
    """What the service draws for one deal and nobody but an auditor ever sees whole: the
    committed order of the pack (position 0 first) and one salt per position."""

    cards: tuple[str, ...]
    salts: tuple[str, ...]


class FairDeckError(ValueError):
    code = "invalid_seed"


# --- drawing the secrets (the service) -------------------------------------------------------------


def new_salts(count: int) -> tuple[str, ...]:
    """`count` independent salts from the OS CSPRNG (never derived: a salt is what hides a card),
    read in one call: a deal draws over a hundred of them."""
    raw = secrets.token_bytes(SALT_BYTES * count)
    return tuple(raw[start : start + SALT_BYTES].hex() for start in range(0, len(raw), SALT_BYTES))


def new_secret_deck() -> SecretDeck:
    """A secret order of the standard pack (the OS CSPRNG's shuffle) and its salts."""
    cards = [str(card) for card in STANDARD_PACK]
    csprng_shuffle(cards)
    return SecretDeck(tuple(cards), new_salts(len(cards)))


def csprng_shuffle(items: list[Any]) -> None:
    """In place, by the deck's Fisher-Yates (unbiased: rejection sampling of 32-bit words) on words
    of the OS CSPRNG, read a buffer at a time instead of a system call per draw."""
    fisher_yates(items, _csprng_words(max(len(items), 8)))


def _csprng_words(per_read: int) -> Iterator[int]:
    while True:
        yield from struct.unpack(f">{per_read}I", secrets.token_bytes(4 * per_read))


def check_secret_deck(deck: SecretDeck) -> SecretDeck:
    """A permutation of the standard pack with one well-formed salt per position, or FairDeckError.
    Every deal start checks two decks: one spelled as the service draws them (the pack's own card
    names, lowercase hex salts) is checked whole; anything else card by card and salt by salt."""
    cards = tuple(deck.cards)
    named = len(cards) == len(_PACK_NAMES) and all(type(card) is str for card in cards)
    if not (named and set(cards) == _PACK_NAMES):
        cards = tuple(str(parse_card(card)) for card in deck.cards)
        if sorted(cards) != sorted(_PACK_NAMES):
            raise FairDeckError("a committed deck is an order of the 52-card pack")
    salts = tuple(deck.salts)
    plain = all(type(salt) is str and len(salt) == 2 * SALT_BYTES for salt in salts)
    if not plain or not _HEX.fullmatch("".join(salts)):
        salts = tuple(check_salt(salt) for salt in salts)
    if len(salts) != len(cards):
        raise FairDeckError("a committed deck has one salt per position")
    return SecretDeck(cards, salts)


_PACK_NAMES = frozenset(str(card) for card in STANDARD_PACK)


def check_salt(salt: str) -> str:
    if not isinstance(salt, str) or len(salt) != 2 * SALT_BYTES or not _HEX.fullmatch(salt):
        raise FairDeckError(f"a salt is {2 * SALT_BYTES} lowercase hex digits")
    return salt


def check_client_seed(seed: object) -> str | None:
    """A player's seed normalised (lowercase hex, 128 to 512 bits), or None if it is not one."""
    if not isinstance(seed, str):
        return None
    text = seed.strip().lower()
    return text if _CLIENT_SEED.fullmatch(text) else None


# --- commitments and the Merkle tree (RFC 9162 §2.1) ----------------------------------------------


def card_commitment(salt: str, card: str) -> str:
    """c_i = sha256(salt bytes || card ASCII), hex."""
    return hashlib.sha256(bytes.fromhex(salt) + card.encode("ascii")).hexdigest()


def commitments(deck: SecretDeck) -> list[str]:
    return [card_commitment(salt, card) for card, salt in zip(deck.cards, deck.salts, strict=True)]


def _leaf(commitment: str) -> bytes:
    return hashlib.sha256(b"\x00" + bytes.fromhex(commitment)).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _tree_hash(leaves: Sequence[bytes]) -> bytes:
    """MTH of RFC 9162 §2.1.1, level by level: pairing neighbours and carrying an odd last node up
    unchanged builds the same tree as splitting at the largest power of two below n."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = list(leaves)
    while len(level) > 1:
        paired = [_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def merkle_root(values: Sequence[str]) -> str:
    """MTH over the commitments (each leaf is sha256(0x00 || commitment bytes)), hex."""
    return _tree_hash([_leaf(value) for value in values]).hex()


def _path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return [*_path(index, leaves[:k]), _tree_hash(leaves[k:])]
    return [*_path(index - k, leaves[k:]), _tree_hash(leaves[:k])]


def inclusion_path(index: int, values: Sequence[str]) -> list[str]:
    """PATH(index, D[n]) of RFC 9162 §2.1.3.1, hex, leaf's sibling first."""
    return [node.hex() for node in _path(index, [_leaf(value) for value in values])]


def verify_inclusion(root: str, size: int, index: int, commitment: str, path: Sequence[str]) -> bool:
    """RFC 9162 §2.1.3.2: does `path` prove the leaf `commitment` at `index` of a tree of `size`?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, _leaf(commitment)
    for sibling in path:
        p = bytes.fromhex(sibling)
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and hmac.compare_digest(r.hex(), root)


# --- the public permutation -----------------------------------------------------------------------


def permutation_key(root: str, seeds: Sequence[tuple[str, str]]) -> str:
    """sha256(b"guts-permutation\\n" || root || "\\n" || each "player:client_seed\\n" in the order
    contributed), hex: fixed only once every seed is in, after the deck was committed."""
    lines = "".join(f"{player}:{seed}\n" for player, seed in seeds)
    return hashlib.sha256(PERMUTATION_LABEL + b"\n" + f"{root}\n{lines}".encode()).hexdigest()


@lru_cache(maxsize=512)
def permutation(key: str, size: int = len(STANDARD_PACK)) -> tuple[int, ...]:
    """perm[k] = the committed position of the k-th card dealt: Fisher-Yates of range(size) with
    the HMAC-SHA256 stream keyed by the key's bytes (docs/deck.md §3-5)."""
    return tuple(shuffle(list(range(size)), bytes.fromhex(key)))


def reshuffle_key(key: str, generation: int) -> bytes:
    """The key of the generation-th reshuffle (1, 2, ...): HMAC(key bytes, label || g 8-byte BE)."""
    return hmac.digest(bytes.fromhex(key), RESHUFFLE_LABEL + generation.to_bytes(8, "big"), "sha256")


def in_play(deck: Sequence[str], key: str, pack: Collection[str] | None = None) -> list[int]:
    """The committed positions in the order they are dealt: ``perm``, without the positions whose
    card is not in `pack` (a short pack; None: every card is in play). The k-th card dealt is the
    committed card at ``in_play(...)[k]``; the skipped cards are out of play, so their openings
    are public and anyone recomputes this list from them."""
    perm = permutation(key, len(deck))
    if pack is None:
        return list(perm)
    return [position for position in perm if deck[position] in pack]


def dealing_sequence(deck: Sequence[str], key: str, pack: Collection[str] | None = None) -> list[str]:
    """The cards in the order they are dealt: deck[perm[0]], deck[perm[1]], ... (of a short
    pack: only its cards, in that order)."""
    return [deck[position] for position in in_play(deck, key, pack)]


__all__ = [
    "DECISION_SALTS",
    "SCHEMA",
    "FairDeckError",
    "SecretDeck",
    "card_commitment",
    "check_client_seed",
    "check_secret_deck",
    "commitments",
    "dealing_sequence",
    "in_play",
    "inclusion_path",
    "merkle_root",
    "new_salts",
    "new_secret_deck",
    "permutation",
    "permutation_key",
    "reshuffle_key",
    "verify_inclusion",
]
