"""Cards: parse, format, and a compact integer identity for fast evaluation.

A card is one of 52 interned `Card` objects. `card.index` = (rank - 2) * 4 + suit index, so
0..51 in rank-major order; rankings and the deck work on these indices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"  # rank value = position + 2 (2..14); ace is 14 (GEN-05)
SUITS = "cdhs"  # clubs, diamonds, hearts, spades (suit index 0..3)
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS = {r: ("sixes" if r == 6 else name + "s") for r, name in RANK_NAMES.items()}


class CardError(ValueError):
    """A token is not a card, or a hand repeats a card. `token` names the offending input."""

    code = "invalid_card"

    def __init__(self, message: str, token: object) -> None:
        super().__init__(message)
        self.token = token


class Card:
    """One playing card. Interned: `parse_card("As") is parse_card("as")`."""

    __slots__ = ("index", "rank", "suit")
    rank: int  # 2..14
    suit: str  # one of SUITS
    index: int  # 0..51

    def __new__(cls, rank: int, suit: str) -> Card:
        try:
            return _BY_INDEX[(rank - 2) * 4 + SUITS.index(suit)] if _BY_INDEX else _make(rank, suit)
        except (ValueError, TypeError, IndexError):
            raise CardError(f"no card with rank {rank!r} and suit {suit!r}", (rank, suit)) from None

    @property
    def suit_index(self) -> int:
        return self.index & 3

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def pretty(self) -> str:
        """'A♠', '10♥': for human-readable histories."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 2]
        return rank + SUIT_SYMBOLS[self.suit]


def _make(rank: int, suit: str) -> Card:
    if not (2 <= rank <= 14) or suit not in SUITS:
        raise ValueError
    card = object.__new__(Card)
    card.rank = rank
    card.suit = suit
    card.index = (rank - 2) * 4 + SUITS.index(suit)
    return card


_BY_INDEX: list[Card] = []
_BY_INDEX.extend(_make(r, s) for r in range(2, 15) for s in SUITS)
ALL_CARDS: tuple[Card, ...] = tuple(_BY_INDEX)
_BY_TEXT: dict[str, Card] = {}
for _card in ALL_CARDS:
    _r, _s = RANKS[_card.rank - 2], _card.suit
    for _rank_text in {_r, _r.lower(), *(("10",) if _card.rank == 10 else ())}:
        for _suit_text in (_s, _s.upper()):
            _BY_TEXT[_rank_text + _suit_text] = _card


def card_from_index(index: int) -> Card:
    return _BY_INDEX[index]


def parse_card(token: str | Card) -> Card:
    """'As', 'Td', '10d', '2c' (rank and suit case-insensitive) -> Card; CardError otherwise."""
    if isinstance(token, Card):
        return token
    if isinstance(token, str):
        card = _BY_TEXT.get(token.strip())
        if card is not None:
            return card
    raise CardError(f"not a card: {token!r} (expected e.g. 'As', 'Td', '10d', '2c')", token)


def parse_cards(tokens: Iterable[str | Card] | str, *, allow_duplicates: bool = False) -> list[Card]:
    """A hand from tokens ('As Kd' or ['As', 'Kd']); duplicates are an error unless allowed."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    cards = [parse_card(token) for token in tokens]
    if not allow_duplicates:
        seen: set[int] = set()
        for card in cards:
            if card.index in seen:
                raise CardError(f"duplicate card in hand: {card}", str(card))
            seen.add(card.index)
    return cards


def format_cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]
