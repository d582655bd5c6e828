"""The registry of hand rankings: names, descriptions, accepted options, and lazy dispatch.

Each ranking lives in its own module and is imported only when first used, so a ranking whose
module is not there yet (or is broken) cannot stop the others from working.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables.engine.cards import RANKS, Card, parse_card
from tables.engine.hand_value import HandValue


class RankingError(ValueError):
    """A request to evaluate that cannot be served; `code` is the machine-readable reason."""

    code = "invalid_ranking_request"


class UnknownRanking(RankingError):
    code = "unknown_ranking"


class InvalidOption(RankingError):
    code = "invalid_option"


class InvalidHandSize(RankingError):
    code = "invalid_hand_size"


@dataclass(frozen=True)
class OptionSpec:
    """One accepted option: its type, default, allowed values (if a closed set) and meaning."""

    type: type
    default: object
    description: str
    choices: tuple[object, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = False

    def check(self, name: str, value: object) -> object:
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            raise InvalidOption(f"option {name!r} must be {self.type.__name__}, not {value!r}")
        if self.choices and value not in self.choices:
            raise InvalidOption(f"option {name!r} must be one of {list(self.choices)}, not {value!r}")
        if not isinstance(value, int):  # the bounds below are for int options only
            return value
        if self.minimum is not None and value < self.minimum:
            raise InvalidOption(f"option {name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOption(f"option {name!r} must be at most {self.maximum}, not {value!r}")
        return value


ACE_LOW = OptionSpec(
    bool,
    True,
    "an ace may play low: A-2-3 (A-2-3-4-5) is the lowest straight (D-GEN-04); False = ace high only",
)

Evaluator = Callable[..., HandValue]
_DEFAULTS: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True)
class Ranking:
    """A named ranking. `target` is 'module:function'; the function takes
    (cards: list[Card], *, wild_ranks: tuple[int, ...], wild_cards: tuple[Card, ...], **options)."""

    name: str
    description: str
    hand_sizes: tuple[int, ...]
    target: str
    rules: tuple[str, ...] = ()
    options: Mapping[str, OptionSpec] = field(default_factory=dict)
    default_wild_ranks: tuple[int, ...] = ()
    fast: str | None = None  # 'module:function(name)' -> a lookup for default calls

    def evaluator(self) -> Evaluator:
        module_name, function_name = self.target.split(":")
        evaluator: Evaluator = getattr(importlib.import_module(module_name), function_name)
        return evaluator

    def checked_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in; unknown names or bad values raise InvalidOption."""
        if not options:
            return self._defaults()
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            accepted = ", ".join(sorted(self.options)) or "none"
            raise InvalidOption(f"ranking {self.name!r} has no option {unknown[0]!r} (accepted: {accepted})")
        checked: dict[str, Any] = {}
        for name, spec in self.options.items():
            if name in options:
                checked[name] = spec.check(name, options[name])
            elif spec.required:
                raise InvalidOption(f"ranking {self.name!r} needs option {name!r}")
            else:
                checked[name] = spec.default
        return checked

    def _defaults(self) -> dict[str, Any]:
        missing = [name for name, spec in self.options.items() if spec.required]
        if missing:
            raise InvalidOption(f"ranking {self.name!r} needs option {missing[0]!r}")
        defaults = _DEFAULTS.get(self.name)
        if defaults is None:
            defaults = _DEFAULTS[self.name] = {name: spec.default for name, spec in self.options.items()}
        return dict(defaults)

    def as_dict(self) -> dict[str, Any]:
        """A plain description for the variants API."""
        return {
            "name": self.name,
            "description": self.description,
            "hand_sizes": list(self.hand_sizes),
            "rules": list(self.rules),
            "default_wild_ranks": [RANKS[rank - 2] for rank in self.default_wild_ranks],
            "options": {
                name: {
                    "type": spec.type.__name__,
                    "default": spec.default,
                    "description": spec.description,
                    "required": spec.required,
                    **({"choices": list(spec.choices)} if spec.choices else {}),
                }
                for name, spec in self.options.items()
            },
        }


def _ranking(
    name: str,
    description: str,
    sizes: Sequence[int],
    target: str,
    rules: Sequence[str],
    options: Mapping[str, OptionSpec] | None = None,
    wild: Sequence[int] = (),
) -> Ranking:
    fast = f"{_GUTS}:fast_evaluator" if target.startswith(f"{_GUTS}:") else None
    return Ranking(
        name, description, tuple(sizes), target, tuple(rules), dict(options or {}), tuple(wild), fast
    )


_GUTS = "tables.engine.rankings.guts"
_SMALL = "tables.engine.rankings.small"
_RANKINGS: tuple[Ranking, ...] = (
    _ranking(
        "guts2",
        "Two-card Guts: any pair beats unpaired cards; pairs by rank; unpaired by top "
        "card, then second card; suits do not count (91 ranks).",
        (2,),
        f"{_GUTS}:evaluate_guts2",
        ("G2-16", "G2-17", "G2-18", "G2-19", "G2-20", "G2-21"),
    ),
    _ranking(
        "guts3_sf_high",
        "Three-card Guts, default: straight flush > three of a kind > straight > "
        "flush > pair > high card; ties by highest card of the combination, then kickers.",
        (3,),
        f"{_GUTS}:evaluate_guts3_sf_high",
        ("3C-04", "MC-02", "MC-03", "MC-04", "D-3C-01"),
        {"ace_low": ACE_LOW},
    ),
    _ranking(
        "guts3_trips_high",
        "Three-card Guts: three of a kind > straight flush > straight > flush > pair > high card.",
        (3,),
        f"{_GUTS}:evaluate_guts3_trips_high",
        ("3C-03", "3C-04", "MC-03", "MC-04"),
        {"ace_low": ACE_LOW},
    ),
    _ranking(
        "guts3_classic",
        "Three-card Guts, classic: three of a kind > pair > high card; straights and flushes do not count.",
        (3,),
        f"{_GUTS}:evaluate_guts3_classic",
        ("3C-06", "MC-03", "MC-04"),
        {"ace_low": ACE_LOW},
    ),
    _ranking(
        "stage1_357",
        "Three-Five-Seven stage one: three of a kind > pair > high card, no straights "
        "or flushes; threes wild unless other wild ranks are given.",
        (3,),
        f"{_SMALL}:evaluate_stage1_357",
        ("357-10",),
        wild=(3,),
    ),
    _ranking(
        "consecutive",
        "Consecutive Guts: best three of five; each disjoint pair of consecutive "
        "ranks (ace next to K and 2) may form one wild card; three of a kind > pair > high card.",
        (5,),
        f"{_SMALL}:evaluate_consecutive",
        ("CONS-02", "CONS-03", "CONS-04", "D-CONS-01"),
    ),
    _ranking(
        "alternating",
        "Alternating Guts: as Consecutive, but a wild is formed by two ranks one "
        "apart (Q-A and A-3 bridge over the ace).",
        (5,),
        f"{_SMALL}:evaluate_alternating",
        ("ALT-01", "ALT-02", "D-CONS-01"),
    ),
    _ranking(
        "four_card",
        "Four-card comparison: four of a kind > three of a kind > two pair > pair > "
        "high card, no straights or flushes; twos wild unless other wild ranks are given.",
        (4,),
        f"{_SMALL}:evaluate_four_card",
        ("42X-03", "D-42X-04"),
        wild=(2,),
    ),
    _ranking(
        "low_a5",
        "Ace-to-five low: the lowest five of up to seven cards wins; ace is low, "
        "straights and flushes do not count; A-2-3-4-5 is best.",
        (5, 6, 7),
        "tables.engine.rankings.low:evaluate_low_a5",
        ("43-03", "D-43-01"),
    ),
    _ranking(
        "poker",
        "Five-card poker: the best five of five to seven cards; five of a kind with wild "
        "cards ranks above a straight flush.",
        (5, 6, 7),
        "tables.engine.rankings.poker:evaluate_poker",
        ("357-17", "357-23", "422-05", "D-GEN-03"),
        {"ace_low": ACE_LOW},
    ),
    _ranking(
        "italian",
        "Italian poker: short pack by player count, suits rank hearts > diamonds > clubs > spades.",
        (5,),
        "tables.engine.rankings.italian:evaluate_italian",
        ("IT-20", "IT-21", "IT-28", "IT-30", "D-IT-01"),
        {
            "players": OptionSpec(
                int, None, "number of players (deck size, D-IT-01)", minimum=2, maximum=10, required=True
            ),
            "tie_rule": OptionSpec(
                str, "default", "how equal hands are separated", choices=("default", "fantini")
            ),
            "suit_order": OptionSpec(str, "hdcs", "suits from highest to lowest"),
        },
    ),
)

RANKINGS: Mapping[str, Ranking] = {ranking.name: ranking for ranking in _RANKINGS}


def get_ranking(name: str) -> Ranking:
    try:
        return RANKINGS[name]
    except (KeyError, TypeError):
        raise UnknownRanking(f"unknown ranking {name!r} (known: {', '.join(RANKINGS)})") from None


_RANK_BY_TEXT = {
    text: position + 2 for position, char in enumerate(RANKS) for text in (char, char.lower())
} | {"10": 10}


def parse_wild_ranks(wild_ranks: Sequence[int | str]) -> tuple[int, ...]:
    """Ranks as ints 2..14 or rank texts ('3', 'J', '10') -> sorted distinct ints."""
    if isinstance(wild_ranks, (str, int)):
        wild_ranks = (wild_ranks,)
    parsed: set[int] = set()
    for rank in wild_ranks:
        if isinstance(rank, int) and not isinstance(rank, bool) and 2 <= rank <= 14:
            parsed.add(rank)
        elif isinstance(rank, str) and rank.strip() in _RANK_BY_TEXT:
            parsed.add(_RANK_BY_TEXT[rank.strip()])
        else:
            raise InvalidOption(f"not a wild rank: {rank!r} (expected 2..14 or '2'..'A')")
    return tuple(sorted(parsed))


def parse_wild_cards(wild_cards: Sequence[str | Card]) -> tuple[Card, ...]:
    if isinstance(wild_cards, (str, Card)):
        wild_cards = (wild_cards,)
    return tuple(sorted({parse_card(card) for card in wild_cards}))
