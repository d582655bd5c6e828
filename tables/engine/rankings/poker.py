"""Five-card poker: the best five of 5 to 7 cards, with wild cards (357-17, 357-23, JP, D-GEN-03).

Order (high card < pair < two pair < three of a kind < straight < flush < full house < four of a
kind < straight flush < five of a kind) and ties as in standard poker: suits never count.

Keys: `category << 20` plus the ranks of the best five in order of significance, one nibble each
(an ace playing low is 1), so equal keys are exactly the hands poker calls equal, across 5, 6 and
7 cards. One `PokerValue` exists per key (a few thousand), shared by every hand with that value.

How it stays fast without trying the 21 five-card subsets of seven cards:

- five cards: the sum of per-card codes is a base-5 rank signature plus suit counters; one dict
  look-up (6,175 + 4 x 1,287 entries, built at import) gives the value.
- six or seven cards: the sum of per-card codes holds the four suits' 13-bit rank masks and suit
  counters that flag five of a suit with one AND; ranks held twice, three or four times come from
  bit operations on the four masks; straights and the top five ranks of a mask are table
  look-ups (`_poker_tables`, about 350 kB).
- wild cards are analytic: from the natural cards' masks and the number of wilds w the best hand
  is read off category by category (five of a kind, straight flush, quads, full house, flush,
  straight, trips, pair); four or more wilds always make five of a kind, so the commonest
  heavy-wild case is the cheapest.

Interpretations, with their IDs:

- D-GEN-03 / Q-GEN-03: a wild stands for any rank and suit, even a card already held; five of a
  kind ranks above a straight flush; natural and wild-made equal hands tie (keys are equal).
  Consequence: in a flush a wild plays as the ace of the suit even if that ace is held (a
  "double-ace flush": A♥ K♥ Q♥ 9♥ + wild = flush A-A-K-Q-9, which beats A-K-Q-J-9).
- D-GEN-04 / Q-GEN-04: an ace may play low in A-2-3-4-5 (the lowest straight, "five high");
  `ace_low=False` makes the ace high only.
- Natural (non-wild) cards must be distinct (the dispatcher checks plain hands); a wild card may
  repeat (a shared card such as the piss card, JP-04); a repeated natural card in a wild hand is a
  CardError.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations_with_replacement

from tables.engine.cards import Card, CardError
from tables.engine.hand_value import CATEGORIES, HandValue, describe_ranks
from tables.engine.rankings._poker_tables import (
    CARD_CODE,
    FIVE_CODE,
    FIVE_KEY_MASK,
    FIVE_OF_A_KIND,
    FIVE_SUIT_BIAS,
    FLUSH,
    FLUSH_BITS,
    FULL_HOUSE,
    HIGH_CARD,
    LANE,
    LANE_FLUSH_BIT,
    PAIR,
    QUADS,
    RANK_MASK,
    STRAIGHT,
    STRAIGHT_FLUSH,
    STRAIGHT_NIBBLES,
    STRAIGHT_TOP,
    SUIT_COUNT_BIAS,
    TOP_FIVE,
    TRIPS,
    TWO_PAIR,
)

RANKING = "poker"


class PokerValue(HandValue):
    """A poker value; its text ("Full house, queens over fives") is built from the key on demand.

    Values are shared: there is one per key (at most a few thousand), so evaluating allocates
    nothing and a text, once built, is reused. `cards` is therefore empty; the hand is the caller's.
    """

    __slots__ = ()

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks of the best five cards in order of significance (an ace playing low is 1)."""
        key = self.key
        return tuple((key >> shift) & 0xF for shift in (16, 12, 8, 4, 0))

    def describe(self) -> str:
        if self._text is None:
            self._text = describe_ranks(self.category, self.ranks, size=5)
        return self._text


_VALUES: dict[int, PokerValue] = {}


def _value(key: int) -> PokerValue:
    """The shared value for a key, made on first use."""
    value = _VALUES.get(key)
    if value is None:
        value = _VALUES[key] = PokerValue(RANKING, key, CATEGORIES[key >> 20])
    return value


def evaluate_poker(
    cards: Sequence[Card],
    *,
    wild_ranks: Collection[int] = (),
    wild_cards: Collection[Card] = (),
    ace_low: bool = True,
) -> PokerValue:
    """The value of the best five of `cards` (5 to 7); wilds per D-GEN-03, ace low per D-GEN-04.

    Natural cards must be distinct (the dispatcher checks; a wild hand is checked here)."""
    count = len(cards)
    if wild_ranks or wild_cards:
        naturals = [card for card in cards if card.rank not in wild_ranks and card not in wild_cards]
        wilds = count - len(naturals)
        if wilds and 5 <= count <= 7:
            return _VALUES.get(key := _wild_key(naturals, wilds, STRAIGHT_TOP[ace_low])) or _value(key)
    # The hot path: unpacking and adding by card index is about twice as fast as sum(map(...)).
    try:
        if count == 5:
            c0, c1, c2, c3, c4 = cards
            code = (
                FIVE_CODE[c0.index]
                + FIVE_CODE[c1.index]
                + FIVE_CODE[c2.index]
                + FIVE_CODE[c3.index]
                + FIVE_CODE[c4.index]
                + FIVE_SUIT_BIAS
            )
            return (_FIVE_CARD_ACE_LOW if ace_low else _five_card_table(False))[code & FIVE_KEY_MASK]
        if count == 7:
            c0, c1, c2, c3, c4, c5, c6 = cards
            code = (
                CARD_CODE[c0.index]
                + CARD_CODE[c1.index]
                + CARD_CODE[c2.index]
                + CARD_CODE[c3.index]
                + CARD_CODE[c4.index]
                + CARD_CODE[c5.index]
                + CARD_CODE[c6.index]
                + SUIT_COUNT_BIAS
            )
        elif count == 6:
            c0, c1, c2, c3, c4, c5 = cards
            code = (
                CARD_CODE[c0.index]
                + CARD_CODE[c1.index]
                + CARD_CODE[c2.index]
                + CARD_CODE[c3.index]
                + CARD_CODE[c4.index]
                + CARD_CODE[c5.index]
                + SUIT_COUNT_BIAS
            )
        else:
            raise CardError(f"poker needs 5 to 7 cards, not {count}", count)
    except (AttributeError, TypeError):  # not Card objects
        bad = next(card for card in cards if not isinstance(card, Card))
        raise CardError(f"not a card: {bad!r}", bad) from None
    straight_top = STRAIGHT_TOP[ace_low][0]
    if code & FLUSH_BITS:
        key = _flush_key(code, straight_top)
    else:
        key = _counted_key(
            code & RANK_MASK,
            (code >> LANE) & RANK_MASK,
            (code >> 2 * LANE) & RANK_MASK,
            (code >> 3 * LANE) & RANK_MASK,
            straight_top,
        )
    return _VALUES.get(key) or _value(key)


def _five_card_table(ace_low: bool) -> dict[int, PokerValue]:
    """The value of every five-card hand keyed by its code without the suit counters' low bits:
    the base-5 rank signature, plus the flush bit of the suit if all five share one. 6,175 rank
    multisets + 4 x 1,287 suited ones; built once from `_counted_key`, so the five-card and the
    six-or-seven-card paths share one definition of the order."""
    if not ace_low and _FIVE_CARD_ACE_HIGH:
        return _FIVE_CARD_ACE_HIGH
    straight_top = STRAIGHT_TOP[ace_low][0]
    table: dict[int, PokerValue] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks.count(ranks[2]) == 5:
            continue
        masks = [0, 0, 0, 0]  # the n-th copy of a rank goes to the n-th "suit"
        for rank in ranks:
            copy = next(n for n in range(4) if not masks[n] >> rank & 1)
            masks[copy] |= 1 << rank
        signature = sum(5**rank for rank in ranks) << 16
        table[signature] = _value(_counted_key(masks[0], masks[1], masks[2], masks[3], straight_top))
        if not masks[1]:
            top = straight_top[masks[0]]
            suited = _value(STRAIGHT_FLUSH | STRAIGHT_NIBBLES[top] if top else FLUSH | TOP_FIVE[masks[0]])
            for suit in range(4):
                table[signature | 8 << (4 * suit)] = suited
    if not ace_low:
        _FIVE_CARD_ACE_HIGH.update(table)
    return table


_FIVE_CARD_ACE_HIGH: dict[int, PokerValue] = {}  # filled on first use of ace_low=False


def _flush_key(code: int, straight_top: bytes) -> int:
    """Key of 6-7 cards holding five or more of one suit. The suited cards have distinct ranks,
    which leaves no room among seven cards for quads or a full house: the flush (or straight
    flush) is the best hand."""
    suit = next(s for s in range(4) if code & LANE_FLUSH_BIT[s])
    suited = (code >> (LANE * suit)) & RANK_MASK
    top = straight_top[suited]
    return STRAIGHT_FLUSH | STRAIGHT_NIBBLES[top] if top else FLUSH | TOP_FIVE[suited]


def _counted_key(a: int, b: int, c: int, d: int, straight_top: bytes) -> int:
    """Key of distinct non-flush cards given by their four suits' rank masks."""
    ranks = a | b | c | d
    a_and_b, c_and_d, a_or_b, c_or_d = a & b, c & d, a | b, c | d
    pairs = a_and_b | c_and_d | (a_or_b & c_or_d)  # ranks held at least twice
    if not pairs:
        top = straight_top[ranks]
        return STRAIGHT | STRAIGHT_NIBBLES[top] if top else HIGH_CARD | TOP_FIVE[ranks]
    trips = (a_and_b & c_or_d) | (c_and_d & a_or_b)  # ranks held at least three times
    if trips:
        quads = a_and_b & c_and_d
        if quads:
            bit = quads.bit_length() - 1
            return QUADS | (bit + 2) * 0x11110 | TOP_FIVE[ranks ^ (1 << bit)] >> 16
        bit = trips.bit_length() - 1
        others = pairs ^ (1 << bit)
        if others:
            return FULL_HOUSE | (bit + 2) * 0x11100 | (others.bit_length() + 1) * 0x11
        top = straight_top[ranks]
        if top:
            return STRAIGHT | STRAIGHT_NIBBLES[top]
        return TRIPS | (bit + 2) * 0x11100 | TOP_FIVE[ranks ^ (1 << bit)] >> 12
    top = straight_top[ranks]
    if top:
        return STRAIGHT | STRAIGHT_NIBBLES[top]
    high = pairs.bit_length() - 1
    low_pairs = pairs ^ (1 << high)
    if low_pairs:
        low = low_pairs.bit_length() - 1
        kicker = TOP_FIVE[ranks ^ (1 << high) ^ (1 << low)] >> 16
        return TWO_PAIR | (high + 2) * 0x11000 | (low + 2) * 0x110 | kicker
    return PAIR | (high + 2) * 0x11000 | TOP_FIVE[ranks ^ (1 << high)] >> 8


def _wild_key(naturals: Sequence[Card], wilds: int, straights: tuple[bytes, ...]) -> int:
    """Key of the best five from `naturals` plus `wilds` (>= 1) wild cards, read off analytically."""
    if len(set(naturals)) != len(naturals):
        raise CardError("duplicate card in hand", ", ".join(str(card) for card in naturals))
    if wilds >= 4:  # five wild aces, or four wilds with the best natural card
        return FIVE_OF_A_KIND | (14 if wilds >= 5 else max([card.rank for card in naturals])) * 0x11111
    masks = [0, 0, 0, 0]
    for card in naturals:
        masks[card.index & 3] |= 1 << (card.rank - 2)
    a, b, c, d = masks
    ranks = a | b | c | d
    a_and_b, c_and_d, a_or_b, c_or_d = a & b, c & d, a | b, c | d
    pairs = a_and_b | c_and_d | (a_or_b & c_or_d)
    trips = (a_and_b & c_or_d) | (c_and_d & a_or_b)
    at_least = (ranks, pairs, trips, a_and_b & c_and_d)  # at_least[k - 1]: ranks held >= k times
    five = at_least[4 - wilds]
    if five:  # w wilds + 5 - w of one rank
        return FIVE_OF_A_KIND | (five.bit_length() + 1) * 0x11111
    straight_top = straights[wilds]  # wilds <= 3 from here on
    top = max(straight_top[a], straight_top[b], straight_top[c], straight_top[d])
    if top:
        return STRAIGHT_FLUSH | STRAIGHT_NIBBLES[top]
    four = at_least[3 - wilds]
    if four:  # no wild is left over (it would have made five of a kind): kicker is natural
        bit = four.bit_length() - 1
        return QUADS | (bit + 2) * 0x11110 | TOP_FIVE[ranks ^ (1 << bit)] >> 16
    # From here wilds <= 2; with two wilds any natural pair made quads above.
    if wilds == 1 and pairs.bit_count() >= 2:
        high = pairs.bit_length() - 1
        low = (pairs ^ (1 << high)).bit_length() - 1
        return FULL_HOUSE | (high + 2) * 0x11100 | (low + 2) * 0x11
    flush = max((_wild_flush(mask, wilds) for mask in masks if mask.bit_count() + wilds >= 5), default=0)
    if flush:
        return flush
    top = straight_top[ranks]
    if top:
        return STRAIGHT | STRAIGHT_NIBBLES[top]
    if wilds == 2:  # all naturals distinct: trips of the top
        bit = ranks.bit_length() - 1
        return TRIPS | (bit + 2) * 0x11100 | TOP_FIVE[ranks ^ (1 << bit)] >> 12
    if pairs:  # one natural pair plus the wild
        bit = pairs.bit_length() - 1
        return TRIPS | (bit + 2) * 0x11100 | TOP_FIVE[ranks ^ (1 << bit)] >> 12
    bit = ranks.bit_length() - 1  # the wild pairs the top card
    return PAIR | (bit + 2) * 0x11000 | TOP_FIVE[ranks ^ (1 << bit)] >> 8


def _wild_flush(suited: int, wilds: int) -> int:
    """Flush key: each wild is the ace of the suit (D-GEN-03 lets it duplicate a held ace)."""
    return FLUSH | (0xEEEEE << (20 - 4 * wilds) & 0xFFFFF) | TOP_FIVE[suited] >> (4 * wilds)


_FIVE_CARD_ACE_LOW = _five_card_table(True)  # at import: about 50 ms
