"""Rules engine: pure Python, no Django. Cards, provable deck, hand rankings, variants, decider.

`evaluate(cards, ranking, ...)` values a hand under a named ranking (see RANKINGS);
`showdown(values)` says who wins, loses and holds the worst hand; the deck API deals provably.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tables.engine.cards import ALL_CARDS, Card, CardError, parse_card, parse_cards
from tables.engine.deck import (
    STANDARD_PACK,
    DealProof,
    Deck,
    DeckError,
    DeckExhausted,
    InvalidSeed,
    commitment,
    italian_pack,
    new_seed,
    reshuffle_seed,
    shuffled_deck,
    verify_deal,
)
from tables.engine.hand_value import HandValue, RankedValue
from tables.engine.rankings import (
    RANKINGS,
    Evaluator,
    InvalidHandSize,
    InvalidOption,
    Ranking,
    RankingError,
    UnknownRanking,
    get_ranking,
    parse_wild_cards,
    parse_wild_ranks,
)
from tables.engine.showdown import Showdown, showdown


def evaluate(
    cards: Iterable[str | Card] | str,
    ranking: str,
    *,
    wild_ranks: Sequence[int | str] = (),
    wild_cards: Sequence[str | Card] = (),
    **options: Any,
) -> HandValue:
    """The value of a hand under a ranking; larger `key` is better, `str()` describes it.

    Nothing is wild unless the caller says so: the games pass the ranks their rules make wild
    (3s for stage 1 of Three-Five-Seven, 2s for Four-Two-Two/Three; `RANKINGS[name]` lists them as
    `default_wild_ranks`). A card may appear twice only if it is wild.
    """
    hand = _hand(cards)
    defaults = not wild_ranks and not wild_cards and not options
    if defaults:
        fast = _FAST.get(ranking)
        value = fast(hand) if fast is not None else None
        if value is not None:
            return value
    spec = get_ranking(ranking)
    if len(hand) not in spec.hand_sizes:
        sizes = " or ".join(str(size) for size in spec.hand_sizes)
        raise InvalidHandSize(f"{ranking} values hands of {sizes} cards, not {len(hand)}")
    ranks = parse_wild_ranks(wild_ranks) if wild_ranks else ()
    specific = parse_wild_cards(wild_cards) if wild_cards else ()
    if len(set(hand)) != len(hand):
        _check_duplicates(hand, ranks, specific)
    checked = spec.checked_options(options)
    evaluator = _evaluator(spec)
    if defaults and ranking not in _FAST:
        _FAST[ranking] = _fast_path(spec, evaluator, {**checked, "wild_ranks": ranks, "wild_cards": ()})
    return evaluator(hand, wild_ranks=ranks, wild_cards=specific, **checked)


FastPath = Callable[[list[Card]], HandValue | None]
_FAST: dict[str, FastPath] = {}


def _fast_path(spec: Ranking, evaluator: Evaluator, arguments: dict[str, Any]) -> FastPath:
    """The all-defaults call, remembered so the next one skips the checks (None = not handled:
    wrong size or repeated cards, which the full path reports)."""
    if spec.fast is not None:
        module_name, function_name = spec.fast.split(":")
        factory: Callable[[str], FastPath] = getattr(importlib.import_module(module_name), function_name)
        return factory(spec.name)
    sizes = spec.hand_sizes

    def fast(hand: list[Card]) -> HandValue | None:
        if len(hand) in sizes and len(set(hand)) == len(hand):
            return evaluator(hand, **arguments)
        return None

    return fast


def _hand(cards: Iterable[str | Card] | str) -> list[Card]:
    """Cards from tokens or Card objects; Card lists pass straight through (the hot path)."""
    if type(cards) is list:
        for card in cards:
            if type(card) is not Card:
                break
        else:
            return cards
    return parse_cards(cards, allow_duplicates=True)


def _check_duplicates(hand: list[Card], wild_ranks: tuple[int, ...], wild_cards: tuple[Card, ...]) -> None:
    """Only a wild card may repeat (it stands for anything, D-GEN-03)."""
    seen: set[Card] = set()
    for card in hand:
        if card in seen and card.rank not in wild_ranks and card not in wild_cards:
            raise CardError(f"duplicate card in hand: {card}", str(card))
        seen.add(card)


_EVALUATORS: dict[str, Evaluator] = {}


def _evaluator(spec: Ranking) -> Evaluator:
    evaluator = _EVALUATORS.get(spec.name)
    if evaluator is None:
        module_name = spec.target.split(":")[0]
        try:
            evaluator = spec.evaluator()
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            raise UnknownRanking(f"ranking {spec.name!r} is not available in this build") from None
        _EVALUATORS[spec.name] = evaluator
    return evaluator


__all__ = [
    "ALL_CARDS",
    "RANKINGS",
    "STANDARD_PACK",
    "Card",
    "CardError",
    "DealProof",
    "Deck",
    "DeckError",
    "DeckExhausted",
    "HandValue",
    "InvalidHandSize",
    "InvalidOption",
    "InvalidSeed",
    "RankedValue",
    "Ranking",
    "RankingError",
    "Showdown",
    "UnknownRanking",
    "commitment",
    "evaluate",
    "italian_pack",
    "new_seed",
    "parse_card",
    "parse_cards",
    "reshuffle_seed",
    "showdown",
    "shuffled_deck",
    "verify_deal",
]
