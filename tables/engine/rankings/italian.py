"""Italian poker: five cards from a short pack, suits that rank, and a straight-flush cycle (§14).

Order (Table IT-B, IT-21, IT-22), low to high: high card < pair < two pair < three of a kind <
straight < full house < FLUSH < four of a kind < straight flush; five of a kind (wild cards only,
D-GEN-03) ranks above everything. Within a category ranks compare as in ordinary poker; only when
all ranks are equal does one card's suit decide (IT-20, IT-32). Among straight flushes the
minimum beats the maximum, the maximum the medium and the medium the minimum (IT-28), so
`ItalianValue.beats` is not transitive there; `showdown` splits a full cycle (IT-30, Q-IT-06).

Interpretations, with their IDs:

- D-IT-01 / Q-IT-01: the pack for `players` is every rank from 11 - players up (4 -> 7s, 5 -> 6s,
  6 -> 5s; 9 or 10 players: the full pack). A card below that rank is a CardError naming it.
- IT-23, EX-12, EX-16: an ace plays low just below the lowest rank in use (A-6-7-8-9 with five
  players); such a straight is "nine high", the lowest; the ace counts as 1 in the key.
- IT-24..IT-26: minimum = the ace-low straight flush, maximum = A-K-Q-J-10, medium = the rest.
- Q-IT-03 (a): two medium straight flushes compare by top card, then suit; two minimums or two
  maximums by suit (IT-29). The cycle applies to straight flushes only, never to mixed straights
  (IT-31).
- D-IT-01 / Q-IT-02: suits rank hearts > diamonds > clubs > spades (`suit_order="hdcs"`); any
  other order is an option, e.g. "hdsc" (the Persian words).
- Tie rule "default" (IT-32..IT-37): the suit of one card decides equal hands:
  straight (IT-34, EX-17), straight flush (IT-33), high card (IT-37; Q-IT-05: the highest card)
  -> the top card (an ace-low straight's top card is its highest rank, not the ace);
  flush (Q-IT-05) -> its suit; pair (IT-36) -> the best suit in the pair; two pair (IT-35,
  Q-IT-04, EX-18) -> the best suit in the higher pair, whatever the kicker's suit; three or four
  of a kind, full house, five of a kind (only reachable with wild cards) -> the best suit in the
  set, by analogy with IT-36.
- Tie rule "fantini" (IT-39, IT-40, EX-19, EX-20): the suit of the highest kicker decides: high
  card -> the second card (the first is the combination); pair -> the highest unpaired card; two
  pair -> the fifth card; three / four of a kind -> the highest kicker. Hands without kickers
  (straights, flushes, full houses, straight flushes, five of a kind) keep the default rule.
- D-GEN-03 wild cards: a wild card becomes whichever card of the pack (even one already held)
  makes the hand highest in the linear order of keys; for straight flushes that order is maximum >
  medium > minimum, i.e. the holder does not play the cycle. Natural cards must be distinct.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from itertools import combinations_with_replacement

from tables.engine.cards import RANK_NAMES, Card, CardError
from tables.engine.deck import italian_pack
from tables.engine.hand_value import Category, HandValue, describe_ranks

RANKING = "italian"
TIE_RULES = ("default", "fantini")
MINIMUM, MEDIUM, MAXIMUM = "minimum", "medium", "maximum"
# IT-28: (winner, loser) between straight flushes of different classes.
_CYCLE_WINS = frozenset({(MINIMUM, MAXIMUM), (MAXIMUM, MEDIUM), (MEDIUM, MINIMUM)})
# Table IT-B, low to high (flush above full house, IT-22); five of a kind on top (D-GEN-03).
ITALIAN_ORDER: tuple[Category, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "full_house",
    "flush",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)
_ORDER_INDEX = {category: index for index, category in enumerate(ITALIAN_ORDER)}
_STRAIGHT_FLUSH = _ORDER_INDEX["straight_flush"]
# Fantini (IT-39, IT-40): position of the highest kicker in the significance order.
_FANTINI_KICKER = {"high_card": 1, "pair": 2, "two_pair": 4, "three_of_a_kind": 3, "four_of_a_kind": 4}
# The category fixed by the largest count of one rank alone (3 and 2 need the second count).
_BY_LARGEST_COUNT: dict[int, Category] = {5: "five_of_a_kind", 4: "four_of_a_kind", 1: "high_card"}
_SUIT_NAMES = {"h": "hearts", "d": "diamonds", "c": "clubs", "s": "spades"}


class ItalianValue(HandValue):
    """An Italian value. `key` = category (Table IT-B) | rank nibbles | deciding suit; `deciding`
    is the card whose suit breaks ties; `lowest` the pack's lowest rank (for the cycle classes)."""

    __slots__ = ("deciding", "lowest", "ranks")

    def __init__(
        self,
        key: int,
        category: Category,
        cards: tuple[Card, ...],
        *,
        ranks: tuple[int, ...],
        deciding: Card,
        lowest: int,
    ) -> None:
        self.ranking = RANKING
        self.key = key
        self.category = category
        self.cards = cards
        self._text = None
        self.ranks = ranks
        self.deciding = deciding
        self.lowest = lowest

    @property
    def straight_flush_class(self) -> str | None:
        """'minimum', 'medium' or 'maximum' for a straight flush (IT-24..IT-26), else None."""
        if self.category != "straight_flush":
            return None
        top = self.ranks[0]
        return MAXIMUM if top == 14 else MINIMUM if top == self.lowest + 3 else MEDIUM

    def beats(self, other: HandValue) -> bool:
        """Key order, except the straight-flush cycle (IT-28): classes differ -> the cycle decides."""
        self._check(other)
        if isinstance(other, ItalianValue) and self.key >> 24 == other.key >> 24 == _STRAIGHT_FLUSH:
            mine, theirs = self.straight_flush_class, other.straight_flush_class
            if mine != theirs:
                return (mine, theirs) in _CYCLE_WINS
        return self.key > other.key

    def describe(self) -> str:
        if self._text is None:
            text = describe_ranks(self.category, self.ranks, size=5)
            if self.category == "straight_flush":
                text += f" ({self.straight_flush_class})"
            self._text = (
                f"{text}; {RANK_NAMES[self.deciding.rank]} of {_SUIT_NAMES[self.deciding.suit]} decides ties"
            )
        return self._text


def evaluate_italian(
    cards: Sequence[Card],
    *,
    players: int,
    wild_ranks: Collection[int] = (),
    wild_cards: Collection[Card] = (),
    tie_rule: str = "default",
    suit_order: str = "hdcs",
) -> ItalianValue:
    """The value of a five-card Italian hand for a table of `players` (D-IT-01)."""
    rules = _RULES.get((players, tie_rule, suit_order)) or _rules_for(players, tie_rule, suit_order)
    if len(cards) != 5:
        raise CardError(f"Italian poker values five cards, not {len(cards)}", len(cards))
    lowest = rules.lowest
    for card in cards:
        if card.rank < lowest:
            raise CardError(
                f"{card} is not in the {4 * (15 - lowest)}-card pack for {players} players "
                f"(lowest rank {RANK_NAMES[lowest]})",
                str(card),
            )
    if wild_ranks or wild_cards:
        naturals = [card for card in cards if card.rank not in wild_ranks and card not in wild_cards]
        if len(set(naturals)) != len(naturals):
            raise CardError("duplicate card in hand", ", ".join(str(card) for card in naturals))
        if len(naturals) < 5:
            return _best_with_wilds(naturals, 5 - len(naturals), rules, tuple(cards))
    return rules.value(cards, tuple(cards))


def _rules_for(players: int, tie_rule: str, suit_order: str) -> _Rules:
    """Check a table's settings once and remember them."""
    pack = italian_pack(players)  # D-IT-01; DeckError (a ValueError) if not 2..10
    if tie_rule not in TIE_RULES:
        raise ValueError(f"tie_rule must be one of {TIE_RULES}, not {tie_rule!r}")
    if not isinstance(suit_order, str) or sorted(suit_order) != sorted("cdhs"):
        raise ValueError(f"suit_order must order the four suits 'h', 'd', 'c', 's', not {suit_order!r}")
    rules = _Rules(pack, {suit: 3 - suit_order.index(suit) for suit in "cdhs"}, tie_rule == "fantini")
    _RULES[players, tie_rule, suit_order] = rules
    return rules


class _Rules:
    """The table's settings that shape a value: pack, suit order, tie rule. Shapes (category and
    significance order of a rank multiset) are cached per pack: at most 6,175 of them."""

    def __init__(self, pack: tuple[Card, ...], suit_value: dict[str, int], fantini: bool) -> None:
        self.pack = pack
        self.lowest = min(card.rank for card in pack)
        self.suit_value = suit_value
        self.fantini = fantini
        self.shapes = _SHAPES.setdefault(self.lowest, {})

    def value(self, five: Sequence[Card], cards: tuple[Card, ...]) -> ItalianValue:
        """Value of five cards (repeats allowed: a wild may copy a held card)."""
        ranks = tuple(sorted([card.rank for card in five], reverse=True))
        shape = self.shapes.get(ranks) or self._shape(ranks)
        category, significant = shape[0], shape[1]
        suits = [card.suit for card in five]
        if suits.count(suits[0]) == 5 and category not in _ABOVE_FLUSH:
            category, significant = ("straight_flush", shape[2]) if shape[2] else ("flush", ranks)
        kicker = _FANTINI_KICKER.get(category, 0) if self.fantini else 0
        deciding_rank = significant[kicker]
        suit_value = self.suit_value
        candidates = [card for card in five if card.rank == deciding_rank]
        deciding = (
            candidates[0] if len(candidates) == 1 else max(candidates, key=lambda card: suit_value[card.suit])
        )
        key = _ORDER_INDEX[category] << 24 | _pack(significant) << 4 | suit_value[deciding.suit]
        return ItalianValue(key, category, cards, ranks=significant, deciding=deciding, lowest=self.lowest)

    def _shape(self, ranks: tuple[int, ...]) -> tuple[Category, tuple[int, ...], tuple[int, ...] | None]:
        """Category ignoring suits, ranks in significance order, and the straight's ranks if the
        ranks form one (an ace-low straight's ace as 1)."""
        counts = Counter(ranks)
        ordered = tuple(sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True))
        shape = [*sorted(counts.values(), reverse=True), 0]
        straight = self._straight(list(ranks)) if len(counts) == 5 else None
        category: Category
        if straight:
            category, ordered = "straight", straight
        else:
            category = _BY_LARGEST_COUNT.get(shape[0]) or (
                ("full_house" if shape[1] == 2 else "three_of_a_kind")
                if shape[0] == 3
                else ("two_pair" if shape[1] == 2 else "pair")
            )
        self.shapes[ranks] = category, ordered, straight
        return category, ordered, straight

    def _straight(self, ranks: list[int]) -> tuple[int, ...] | None:
        """Five distinct ranks, highest first -> the straight's ranks, or None (IT-23: the ace may
        sit just below the pack's lowest rank)."""
        if ranks[0] - ranks[4] == 4:
            return tuple(ranks)
        if ranks == [14, *range(self.lowest + 3, self.lowest - 1, -1)]:
            return (*ranks[1:], 1)
        return None


_RULES: dict[tuple[int, str, str], _Rules] = {}
_SHAPES: dict[int, dict[tuple[int, ...], tuple[Category, tuple[int, ...], tuple[int, ...] | None]]] = {}
# A flush of five cards holding four or five of a rank (wild copies only) stays four / five of a kind.
_ABOVE_FLUSH = frozenset({"four_of_a_kind", "five_of_a_kind"})


def _pack(ranks: tuple[int, ...]) -> int:
    key = 0
    for rank in ranks:
        key = key << 4 | rank
    return key


def _best_with_wilds(
    naturals: list[Card], wilds: int, rules: _Rules, cards: tuple[Card, ...]
) -> ItalianValue:
    """The highest value (linear key order) over every choice of the wild cards (D-GEN-03).

    One or two wilds: every multiset of pack cards is tried (at most 1,378). Three or more leave
    at most two natural cards, and the best hand is known: five of a kind when the naturals share
    a rank (or four or more wilds), else the best straight flush through both naturals, else
    four of a kind of the higher natural with the other as kicker."""
    if wilds <= 2:
        candidates = (
            rules.value([*naturals, *chosen], cards)
            for chosen in combinations_with_replacement(rules.pack, wilds)
        )
        return max(candidates, key=lambda value: value.key)
    best_suit = max("cdhs", key=rules.suit_value.__getitem__)
    ranks = sorted((card.rank for card in naturals), reverse=True)
    if len(set(ranks)) <= 1:
        rank = ranks[0] if ranks else 14
        return rules.value([*naturals, *[Card(rank, best_suit)] * wilds], cards)
    high, low = naturals if naturals[0].rank > naturals[1].rank else naturals[::-1]
    fillers = _straight_flush_fillers(naturals, rules)
    flushes = [rules.value([*naturals, *chosen], cards) for chosen in fillers]
    if flushes:
        return max(flushes, key=lambda value: value.key)
    return rules.value([high, low, *[Card(high.rank, best_suit)] * 3], cards)


def _straight_flush_fillers(naturals: list[Card], rules: _Rules) -> list[tuple[Card, ...]]:
    """The three cards completing each straight flush that contains both natural cards."""
    first, second = naturals
    if first.suit != second.suit:
        return []
    tops = range(rules.lowest + 3, 15)
    fillers = []
    for top in tops:
        window = [14 if rank == rules.lowest - 1 else rank for rank in range(top - 4, top + 1)]
        if first.rank in window and second.rank in window:
            fillers.append(
                tuple(Card(rank, first.suit) for rank in window if rank not in (first.rank, second.rank))
            )
    return fillers
