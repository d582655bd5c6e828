"""Lookup tables for the five-to-seven-card poker evaluator, built once at import (< 50 ms).

Ranks are bit positions 0..12 (two..ace) in a 13-bit mask; rank values are 2..14, and an ace
playing low is 1 (as in `hand_value.pack_ranks`). A key is `category << 20 | five rank nibbles`,
the nibbles being the ranks of the best five cards in order of significance, so equal keys are
exactly the hands standard poker calls equal (suits never matter).
"""

from __future__ import annotations

from tables.engine.cards import ALL_CARDS

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_OF_A_KIND = (
    c << 20 for c in range(10)
)
RANK_MASK = 0x1FFF
MAX_WILDS_TABLED = 3  # four or more wilds always make five of a kind (any card + 4 wilds)

# A card's code: its rank bit in its suit's 17-bit lane (bits 0..12) plus one in the lane's suit
# counter (bits 13..16). Starting the sum at 3 per counter sets bit 16 exactly when a suit holds
# five or more cards, so one AND detects a flush among up to 7 (non-duplicate) cards.
LANE = 17
SUIT_COUNT_BIAS = sum(3 << (LANE * s + 13) for s in range(4))
FLUSH_BITS = sum(1 << (LANE * s + 16) for s in range(4))
LANE_FLUSH_BIT = tuple(1 << (LANE * s + 16) for s in range(4))
CARD_CODE: list[int] = [
    (1 << (LANE * card.suit_index + card.rank - 2)) + (1 << (LANE * card.suit_index + 13))
    for card in ALL_CARDS
]  # by card.index
# Five-card hands: a base-5 count per rank (bits 16 and up) identifies the rank multiset, and a
# 4-bit counter per suit starting at 3 has its top bit set exactly when all five share the suit.
FIVE_SUIT_BIAS = 0x3333
FIVE_KEY_MASK = ~0x7777  # keeps the rank signature and the flush bit, if any
FIVE_CODE: list[int] = [
    (5 ** (card.rank - 2) << 16) + (1 << (4 * card.suit_index)) for card in ALL_CARDS
]  # by card.index


def _windows(ace_low: bool) -> list[tuple[int, int]]:
    """(top rank value, 13-bit mask) of every straight, best first; the wheel A-2-3-4-5 if ace_low."""
    windows = [(top, 0b11111 << (top - 6)) for top in range(14, 5, -1)]
    if ace_low:
        windows.append((5, 0b1000000001111))
    return windows


def _straight_table(ace_low: bool, wilds: int) -> bytes:
    """mask -> top rank value of the best straight reachable with `wilds` missing ranks (0: none)."""
    windows = _windows(ace_low)
    table = bytearray(RANK_MASK + 1)
    for mask in range(RANK_MASK + 1):
        for top, window in windows:
            if (window & ~mask).bit_count() <= wilds:
                table[mask] = top
                break
    return bytes(table)


def _top_five(mask: int) -> int:
    """The five highest ranks of a mask as nibbles, highest first, left-aligned in 20 bits."""
    packed, taken = 0, 0
    while mask and taken < 5:
        bit = mask.bit_length() - 1
        packed |= (bit + 2) << (16 - 4 * taken)
        mask ^= 1 << bit
        taken += 1
    return packed


# STRAIGHT_TOP[ace_low][wilds][mask]; 2 x 4 tables of 8 kB.
STRAIGHT_TOP: tuple[tuple[bytes, ...], tuple[bytes, ...]] = tuple(
    tuple(_straight_table(ace_low, wilds) for wilds in range(MAX_WILDS_TABLED + 1))
    for ace_low in (False, True)
)  # type: ignore[assignment]
TOP_FIVE: list[int] = [_top_five(mask) for mask in range(RANK_MASK + 1)]
# The five rank nibbles of the straight with a given top (the wheel's ace plays as 1).
STRAIGHT_NIBBLES: dict[int, int] = {
    top: sum((top - i) << (16 - 4 * i) for i in range(5)) for top in range(6, 15)
} | {5: 0x54321}
