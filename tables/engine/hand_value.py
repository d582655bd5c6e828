"""HandValue: what every ranking returns. Comparable within one ranking, printable for humans."""
from __future__ import annotations

from typing import Literal

Category = Literal["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
                   "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind"]
CATEGORIES: tuple[Category, ...] = ("high_card", "pair", "two_pair", "three_of_a_kind", "straight",
                                    "flush", "full_house", "four_of_a_kind", "straight_flush",
                                    "five_of_a_kind")


class RankingMismatch(TypeError):
    """Two values of different rankings were compared; the comparison has no meaning."""


class HandValue:
    """The value of a hand under one ranking.

    `key` is an int, larger is better, so comparison is one integer compare on the hot path.
    Rankings whose order is not total (Italian straight flushes, IT-28) subclass and override
    `beats`. `describe` is computed only when someone asks (str()).
    """

    __slots__ = ("_text", "cards", "category", "key", "ranking")

    def __init__(self, ranking: str, key: int, category: Category, cards: tuple = (),
                 text: str | None = None) -> None:
        self.ranking = ranking
        self.key = key
        self.category = category
        self.cards = cards        # the cards that make the value (e.g. the best five), if known
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
