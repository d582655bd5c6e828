"""HandValue: what every ranking returns. Comparable within one ranking, printable for humans."""

from __future__ import annotations

from typing import Literal

from tables.engine.cards import RANK_NAMES, RANK_PLURALS, Card

Category = Literal[
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
]
CATEGORIES: tuple[Category, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)


class RankingMismatch(TypeError):
    """Two values of different rankings were compared; the comparison has no meaning."""


class HandValue:
    """The value of a hand under one ranking.

    `key` is an int, larger is better, so comparison is one integer compare on the hot path.
    Rankings whose order is not total (Italian straight flushes, IT-28) subclass and override
    `beats`. `describe` is computed only when someone asks (str()).
    """

    __slots__ = ("_text", "cards", "category", "key", "ranking")

    def __init__(
        self,
        ranking: str,
        key: int,
        category: Category,
        cards: tuple[Card, ...] = (),
        text: str | None = None,
    ) -> None:
        self.ranking = ranking
        self.key = key
        self.category = category
        self.cards = cards  # the cards that make the value (e.g. the best five), if known
        self._text = text

    def beats(self, other: HandValue) -> bool:
        self._check(other)
        return self.key > other.key

    def ties(self, other: HandValue) -> bool:
        return not self.beats(other) and not other.beats(self)

    def __gt__(self, other: HandValue) -> bool:
        return self.beats(other)

    def __lt__(self, other: HandValue) -> bool:
        return other.beats(self)

    def __ge__(self, other: HandValue) -> bool:
        return not other.beats(self)

    def __le__(self, other: HandValue) -> bool:
        return not self.beats(other)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.ties(other)

    def __hash__(self) -> int:
        return hash((self.ranking, self.key))

    def _check(self, other: HandValue) -> None:
        if other.ranking != self.ranking:
            raise RankingMismatch(f"cannot compare {self.ranking} with {other.ranking}")

    def describe(self) -> str:
        return self._text if self._text is not None else self.category.replace("_", " ")

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"HandValue({self.ranking}, {self.category}, {self.describe()!r})"


# --- values described by their ranks ------------------------------------------------------------

RANK_BITS = 4  # ranks 1..14 fit in a nibble; ace-low plays as 1


def pack_ranks(ranks: tuple[int, ...], width: int = 5) -> int:
    """Ranks in significance order -> one int (nibbles, first rank most significant)."""
    key = 0
    for rank in ranks:
        key = (key << RANK_BITS) | rank
    return key << (RANK_BITS * (width - len(ranks)))


class RankedValue(HandValue):
    """A HandValue that keeps its deciding ranks (significance order) and describes itself from them.

    `size` is the number of cards the combination has (3 for three-card straights), so the text
    can say "Three-card straight". The text is built on first use only: evaluation stays cheap.
    """

    __slots__ = ("ranks", "size")

    def __init__(
        self,
        ranking: str,
        key: int,
        category: Category,
        ranks: tuple[int, ...],
        *,
        size: int,
        cards: tuple[Card, ...] = (),
        text: str | None = None,
    ) -> None:
        super().__init__(ranking, key, category, cards, text)
        self.ranks = ranks
        self.size = size

    def describe(self) -> str:
        if self._text is None:
            self._text = describe_ranks(self.category, self.ranks, size=self.size)
        return self._text


def rank_name(rank: int) -> str:
    return RANK_NAMES[14 if rank == 1 else rank]


def rank_plural(rank: int) -> str:
    return RANK_PLURALS[14 if rank == 1 else rank]


def kickers_text(ranks: tuple[int, ...]) -> str:
    """', ace kicker' / ', ace and nine kickers' / ', ace, nine and four kickers'."""
    if not ranks:
        return ""
    names = [rank_name(rank) for rank in ranks]
    if len(names) == 1:
        return f", {names[0]} kicker"
    return ", " + ", ".join(names[:-1]) + f" and {names[-1]} kickers"


def describe_ranks(category: Category, ranks: tuple[int, ...], *, size: int) -> str:
    """Human text for a value: 'Pair of kings, ace kicker', 'Three-card straight flush, queen high'."""
    prefix = "three-card " if size == 3 else ""
    top = ranks[0]
    match category:
        case "high_card":
            text = f"{rank_name(top)} high{kickers_text(ranks[1:])}"
        case "pair":
            text = f"pair of {rank_plural(top)}{kickers_text(ranks[2:])}"
        case "two_pair":
            text = f"two pair, {rank_plural(top)} and {rank_plural(ranks[2])}{kickers_text(ranks[4:])}"
        case "three_of_a_kind":
            text = f"three {rank_plural(top)}{kickers_text(ranks[3:])}"
        case "straight" | "straight_flush":
            text = f"{prefix}{category.replace('_', ' ')}, {rank_name(top)} high"
        case "flush":
            text = f"{prefix}flush, {rank_name(top)} high{kickers_text(ranks[1:])}"
        case "full_house":
            text = f"full house, {rank_plural(top)} over {rank_plural(ranks[3])}"
        case "four_of_a_kind":
            text = f"four {rank_plural(top)}{kickers_text(ranks[4:])}"
        case _:
            text = f"five {rank_plural(top)}"
    return text[0].upper() + text[1:]
