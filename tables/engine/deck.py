"""The provable deck (DESIGN §2.7): a deal anyone can recompute once the seed is revealed.

The order of the pack is a Fisher-Yates shuffle driven by an HMAC-SHA256 byte stream keyed by a
secret seed; the deal publishes sha256(seed) first and the seed afterwards. Discards shuffled
into a new stock (D-GEN-02) use a sub-seed derived from the seed, so they are provable too.
docs/deck.md specifies the algorithm for independent re-implementation.

A `Deck` is cheap to rebuild from (seed, pack, reshuffled discards, number of cards dealt): the
base shuffle is cached, so an immutable game state can store those four values only.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from tables.engine.cards import ALL_CARDS, Card, parse_cards

STANDARD_PACK: tuple[Card, ...] = ALL_CARDS  # GEN-04: 52 cards, no jokers, index order
SEED_BYTES = 32
RESHUFFLE_LABEL = b"guts-reshuffle"
T = TypeVar("T")


class DeckError(ValueError):
    code = "invalid_deck"


class InvalidSeed(DeckError):
    code = "invalid_seed"


class DeckExhausted(DeckError):
    code = "deck_exhausted"


# --- packs --------------------------------------------------------------------------------------


def italian_pack(players: int) -> tuple[Card, ...]:
    """D-IT-01: the lowest rank is 11 - players (4 -> 7s, 5 -> 6s, 6 -> 5s); 9 or 10 -> full pack."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 10:
        raise DeckError(f"Italian poker is for 2 to 10 players, not {players!r}")
    lowest = max(2, 11 - players)
    return tuple(card for card in STANDARD_PACK if card.rank >= lowest)


PACKS = ("standard52", "italian")  # Variant.deck: the pack a deal is dealt from


def pack_for(deck: str, players: int) -> tuple[Card, ...]:
    """The pack a deal of `players` players is dealt from: the standard pack, or Italian poker's
    short pack (D-IT-01, Table IT-A, EX-10)."""
    return italian_pack(players) if deck == "italian" else STANDARD_PACK


# --- seeds and the byte stream --------------------------------------------------------------------


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_key(seed: str) -> bytes:
    """The seed's bytes (the HMAC key). A seed is a non-empty even-length hex string."""
    try:
        key = bytes.fromhex(seed)
    except (ValueError, TypeError):
        raise InvalidSeed(f"a seed is a hex string, not {seed!r}") from None
    if not key:
        raise InvalidSeed("a seed must not be empty")
    return key


def commitment(seed: str) -> str:
    """sha256 of the seed's bytes, hex: published before the deal, checked after."""
    return hashlib.sha256(seed_key(seed)).hexdigest()


def random_words(key: bytes) -> Iterator[int]:
    """Unsigned 32-bit big-endian words of HMAC-SHA256(key, counter) for counter = 0, 1, 2, …
    (the counter as 8 bytes big-endian); each 32-byte block gives eight words."""
    counter = 0
    while True:
        yield from struct.unpack(">8I", hmac.digest(key, counter.to_bytes(8, "big"), "sha256"))
        counter += 1


def draw_below(n: int, words: Iterator[int], *, word_bits: int = 32) -> int:
    """A uniform integer in [0, n): words at or above the largest multiple of n are rejected
    (rejection sampling), so every residue is equally likely."""
    span = 1 << word_bits
    limit = span - span % n
    while True:
        word = next(words)
        if word < limit:
            return word % n


def shuffle(cards: Sequence[T], key: bytes) -> list[T]:
    """The provable shuffle: Fisher-Yates on the HMAC stream of `key`. Any items, not only cards:
    a tournament seats its entrants by the same provable shuffle."""
    order = list(cards)
    fisher_yates(order, random_words(key))
    return order


def fisher_yates(order: list[T], words: Iterator[int]) -> None:
    """In place: for i from the last position down to 1, swap i with draw_below(i + 1, words)."""
    for i in range(len(order) - 1, 0, -1):
        j = draw_below(i + 1, words)
        order[i], order[j] = order[j], order[i]


@lru_cache(maxsize=512)
def _shuffled(key: bytes, pack: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(shuffle(pack, key))


def shuffled_deck(seed: str, pack: Sequence[Card] = STANDARD_PACK) -> list[Card]:
    """The deck order for a seed: element 0 is the top card, dealt first."""
    return list(_shuffled(seed_key(seed), tuple(pack)))


def reshuffle_seed(seed: str, generation: int) -> str:
    """D-GEN-02 sub-seed for the n-th (1, 2, …) reshuffle of discards into a new stock:
    HMAC-SHA256(key=seed bytes, msg=b'guts-reshuffle' + generation as 8 bytes big-endian), hex."""
    message = RESHUFFLE_LABEL + generation.to_bytes(8, "big")
    return hmac.digest(seed_key(seed), message, "sha256").hex()


# --- verification ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealProof:
    """The result of checking a revealed seed against a commitment and the cards dealt."""

    commitment_ok: bool
    matches: tuple[bool, ...]  # one per dealt card: is it the card the seed puts there?
    expected: tuple[Card, ...]  # what the seed deals, as many cards as were claimed
    ok: bool

    @property
    def first_mismatch(self) -> int | None:
        return next((i for i, match in enumerate(self.matches) if not match), None)


def verify_deal(
    seed: str,
    commitment_hex: str,
    dealt: Sequence[str | Card],
    pack: Sequence[Card] = STANDARD_PACK,
    reshuffles: Iterable[Iterable[Card | str]] = (),
) -> DealProof:
    """Does the seed match the published commitment, and does it deal exactly these cards in
    this order from the top of the pack (and then of each batch of discards reshuffled into the
    stock, D-GEN-02)?"""
    cards = parse_cards(dealt, allow_duplicates=True)
    order = list(Deck.shuffled(seed, pack, reshuffles=reshuffles).stock)
    expected = tuple(order[: len(cards)])
    matches = tuple(i < len(order) and card is order[i] for i, card in enumerate(cards))
    commitment_ok = hmac.compare_digest(commitment(seed), commitment_hex.strip().lower())
    return DealProof(commitment_ok, matches, expected, commitment_ok and all(matches))


# --- the deck in play ---------------------------------------------------------------------------------


class Deck:
    """A stock dealt from the top. Its whole card sequence is the seed's shuffle of the pack,
    followed by each reshuffled batch of discards; `dealt` says how far it has been dealt.

    Rebuild with `Deck.shuffled(seed, pack, dealt=n, reshuffles=batches)`; a stacked deck
    (tests, demos: DESIGN §2.7) has an explicit order and no seed.
    """

    __slots__ = ("_sequence", "dealt", "pack", "reshuffles", "seed")

    def __init__(
        self,
        sequence: Sequence[Card],
        *,
        seed: str | None,
        pack: tuple[Card, ...],
        dealt: int = 0,
        reshuffles: tuple[tuple[Card, ...], ...] = (),
    ) -> None:
        if not 0 <= dealt <= len(sequence):
            raise DeckError(f"cannot have dealt {dealt} of {len(sequence)} cards")
        self._sequence = list(sequence)
        self.seed = seed
        self.pack = pack
        self.dealt = dealt
        self.reshuffles = reshuffles

    @classmethod
    def shuffled(
        cls,
        seed: str,
        pack: Sequence[Card] = STANDARD_PACK,
        *,
        dealt: int = 0,
        reshuffles: Iterable[Iterable[Card | str]] = (),
    ) -> Deck:
        pack = tuple(pack)
        deck = cls(_shuffled(seed_key(seed), pack), seed=seed, pack=pack)
        for batch in reshuffles:
            deck._append_batch(parse_cards(batch), rebuilding=True)
        deck._set_dealt(dealt)
        return deck

    @classmethod
    def committed(
        cls,
        sequence: Sequence[Card],
        key: str,
        *,
        pack: Sequence[Card] = STANDARD_PACK,
        reshuffles: Iterable[Iterable[Card | str]] = (),
    ) -> Deck:
        """A committed deck (fairdeck) already in dealing order (of a short pack: its cards only);
        its reshuffles are keyed by the deal's permutation key exactly as a seeded deck's by its
        seed (§6 of docs/deck.md)."""
        deck = cls(sequence, seed=key, pack=tuple(pack))
        for batch in reshuffles:
            deck._append_batch(parse_cards(batch), rebuilding=True)
        return deck

    @classmethod
    def stacked(
        cls,
        cards: Iterable[Card | str],
        *,
        pack: Sequence[Card] | None = None,
        dealt: int = 0,
        reshuffles: Iterable[Iterable[Card | str]] = (),
    ) -> Deck:
        """Cards dealt in exactly the given order; with `pack`, the rest of the pack follows in
        pack order so the deck never runs short of what a real deck would hold."""
        order = parse_cards(list(cards))
        full = tuple(pack) if pack is not None else tuple(order)
        unknown = [card for card in order if card not in full]
        if unknown:
            raise DeckError(f"stacked card {unknown[0]} is not in the pack")
        listed = set(order)
        order += [card for card in full if card not in listed]
        deck = cls(order, seed=None, pack=full)
        for batch in reshuffles:
            deck._append_batch(parse_cards(batch), rebuilding=True)
        deck._set_dealt(dealt)
        return deck

    @property
    def commitment(self) -> str | None:
        return commitment(self.seed) if self.seed is not None else None

    @property
    def remaining(self) -> int:
        return len(self._sequence) - self.dealt

    @property
    def stock(self) -> tuple[Card, ...]:
        """The undealt cards, top first."""
        return tuple(self._sequence[self.dealt :])

    def peek(self, n: int) -> list[Card]:
        """The next n cards without dealing them."""
        self._check_available(n)
        return self._sequence[self.dealt : self.dealt + n]

    def deal(self, n: int = 1) -> list[Card]:
        """Take n cards from the top, in order."""
        cards = self.peek(n)
        self.dealt += n
        return cards

    def reshuffle(self, discards: Iterable[Card | str]) -> None:
        """D-GEN-02: shuffle discards (never cards in live hands) under the remaining stock.

        The batch is put in pack-index order first, then shuffled with
        reshuffle_seed(seed, generation), generation = 1 for the first reshuffle; so the result
        does not depend on the order the discards were gathered in. A stacked deck appends the
        discards in the given order (tests choose it)."""
        self._append_batch(parse_cards(list(discards)))

    def copy(self) -> Deck:
        return Deck(
            self._sequence, seed=self.seed, pack=self.pack, dealt=self.dealt, reshuffles=self.reshuffles
        )

    def _append_batch(self, batch: list[Card], *, rebuilding: bool = False) -> None:
        # When rebuilding, the batch was checked against the stock of its time, now unknown.
        in_stock = set() if rebuilding else set(self._sequence[self.dealt :])
        for card in batch:
            if card in in_stock:
                raise DeckError(f"discard {card} is still in the stock")
            if card not in self.pack:
                raise DeckError(f"discard {card} is not in the pack")
        recorded = tuple(batch)
        if self.seed is not None:
            recorded = tuple(sorted(batch))
            batch = shuffle(recorded, seed_key(reshuffle_seed(self.seed, len(self.reshuffles) + 1)))
        self._sequence.extend(batch)
        self.reshuffles = (*self.reshuffles, recorded)

    def _set_dealt(self, dealt: int) -> None:
        if not 0 <= dealt <= len(self._sequence):
            raise DeckError(f"cannot have dealt {dealt} of {len(self._sequence)} cards")
        self.dealt = dealt

    def _check_available(self, n: int) -> None:
        if n < 0:
            raise DeckError(f"cannot deal {n} cards")
        if n > self.remaining:
            raise DeckExhausted(f"the deck has {self.remaining} cards left, {n} needed")

    def __repr__(self) -> str:
        kind = "stacked" if self.seed is None else f"commitment {commitment(self.seed)[:12]}…"
        return f"<Deck {kind}, {self.remaining} of {len(self._sequence)} left>"


__all__ = [
    "STANDARD_PACK",
    "DealProof",
    "Deck",
    "DeckError",
    "DeckExhausted",
    "InvalidSeed",
    "commitment",
    "draw_below",
    "fisher_yates",
    "italian_pack",
    "new_seed",
    "random_words",
    "reshuffle_seed",
    "shuffle",
    "shuffled_deck",
    "verify_deal",
]
