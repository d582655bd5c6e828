"""Variants as data (DESIGN §2.2): what a game is, written as a value the decider interprets.

A `Variant` names its pack, how many cards a player holds, a program of stages built from a small
vocabulary of step kinds, and an option schema. The decider walks the program; adding a game is
mostly adding data here (plus, at most, one new step kind, ranking or settlement rule).

Step kinds (`Step.kind`) and their parameters:

- ``ante``      ``when``: ``pot_empty`` (G2-05) | ``every_deal`` (SL-03)
- ``deal``      ``count`` cards, ``face`` ``down`` | ``up``, one at a time from the dealer's left (D-G2-01)
- ``declare``   ``mode``: ``sequential`` (G2-08) | ``simultaneous`` (SIM); ``choices`` ``["in","out"]``
- ``showdown``  ``ranking``: a ranking name understood by ``tables.engine.evaluate``
- ``settle``    ``rule``: ``match_pot_each`` (G2-13)

A parameter written ``"$name"`` takes the table option ``name`` (e.g. ``{"mode": "$declare_mode"}``),
so one program serves every option setting. Later games add the kinds reserved in
`RESERVED_STEP_KINDS` (exchange, pass, bet, award_leg) and settlement rules in `SETTLEMENT_RULES`.

Public interface (all JSON-friendly):

- `get_variant(name) -> Variant` (DomainError ``unknown_variant``)
- `validate_options(variant_name, options) -> dict` fills defaults, checks types, ranges and
  cross-field constraints; raises DomainError ``invalid_option`` (``.detail["option"]`` names it)
- `variant_catalog() -> list[dict]`: every variant with its program, options, defaults and a JSON
  schema of its options (for ``GET /variants``)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.engine.decider.errors import DomainError

PACK_SIZE = 52                    # GEN-04: standard pack, no jokers

STEP_KINDS = frozenset({"ante", "deal", "declare", "showdown", "settle"})   # what the decider runs
# Reserved for the later games (DESIGN §2.2): refused until the decider interprets them.
RESERVED_STEP_KINDS = frozenset({"exchange", "pass", "bet", "award_leg"})
SETTLEMENT_RULES = frozenset({"match_pot_each"})   # later: losers_share, worst_matches, ...
RANKINGS_3C = ("guts3_sf_high", "guts3_trips_high", "guts3_classic")   # Table 3C, D-3C-01


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its type, default, allowed values and the rule it implements."""

    name: str
    type: str                                   # "int" | "bool" | "choice"
    default: Any
    description: str
    rule: str                                   # the RULES.md ID(s) it implements
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """The value if valid for this option, else DomainError invalid_option."""
        if self.type == "bool":
            ok = type(value) is bool
        elif self.type == "int":
            ok = (type(value) is int and (self.minimum is None or value >= self.minimum)
                  and (self.maximum is None or value <= self.maximum))
        else:
            ok = isinstance(value, str) and value in self.choices
        if not ok:
            raise DomainError("invalid_option", f"invalid value for option {self.name}: {value!r}",
                              option=self.name, value=value)
        return value

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"description": f"{self.description} ({self.rule})",
                                  "default": self.default}
        if self.type == "bool":
            schema["type"] = "boolean"
        elif self.type == "int":
            schema["type"] = "integer"
            if self.minimum is not None:
                schema["minimum"] = self.minimum
            if self.maximum is not None:
                schema["maximum"] = self.maximum
        else:
            schema["type"] = "string"
            schema["enum"] = list(self.choices)
        return schema

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default,
                                "description": self.description, "rule": self.rule}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a stage: a kind from STEP_KINDS and its parameters ("$option" references)."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str, options: Mapping[str, Any]) -> Any:
        """The parameter's value, resolving a "$option" reference against the table's options."""
        value = dict(self.params)[name]
        if isinstance(value, str) and value.startswith("$"):
            return options[value[1:]]
        return value

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **{k: list(v) if isinstance(v, tuple) else v for k, v in self.params}}


def step(kind: str, **params: Any) -> Step:
    return Step(kind, tuple(params.items()))


@dataclass(frozen=True, slots=True)
class Stage:
    """A named run of steps; multi-stage games (TSG, 357) have several."""

    name: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    title: str
    rules: str                                  # the RULES.md prefixes this variant implements
    cards_per_player: int
    stages: tuple[Stage, ...]
    options: tuple[Option, ...]
    deck: str = "standard52"
    game_ends: str = "pot_empty"                # D-GEN-08, Q-G2-04
    option_index: dict[str, Option] = field(init=False, repr=False, compare=False)
    program: tuple[Step, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "option_index", {o.name: o for o in self.options})
        # All steps of all stages in order: what the decider walks.
        object.__setattr__(self, "program", tuple(s for stage in self.stages for s in stage.steps))
        for st in self.program:
            if st.kind not in STEP_KINDS:
                raise ValueError(f"{self.name}: unknown step kind {st.kind}")
            if st.kind == "settle" and dict(st.params)["rule"] not in SETTLEMENT_RULES:
                raise ValueError(f"{self.name}: unknown settlement rule")

    @property
    def max_seats(self) -> int:
        """D-GEN-02: the most players one pack can serve in a deal."""
        return PACK_SIZE // self.cards_per_player

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "title": self.title, "rules": self.rules, "deck": self.deck,
            "cards_per_player": self.cards_per_player, "max_seats": self.max_seats,
            "game_ends": self.game_ends,
            "stages": [{"name": s.name, "steps": [x.to_json() for x in s.steps]} for s in self.stages],
            "options": [o.to_json() for o in self.options],
            "defaults": {o.name: o.default for o in self.options},
            "options_schema": options_json_schema(self),
        }


def options_json_schema(variant: Variant) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False,
            "properties": {o.name: o.json_schema() for o in variant.options}}


def _common_options(max_seats: int) -> tuple[Option, ...]:
    """Options shared by two- and three-card Guts (3C-05: all two-card rules carry over)."""
    return (
        Option("ante", "int", 1, "chips each player antes", "G2-03", minimum=1),
        Option("pot_limit", "int", 0, "most the pot may hold; 0 = no limit (e.g. 100 x ante)",
               "G2-04, CAP-01, RES-01..03, D-RES-02", minimum=0),
        Option("max_loss", "int", 0, "most one player pays in one deal; 0 = no limit", "CAP-02",
               minimum=0),
        Option("cap_rule", "choice", "reserve",
               "pot above pot_limit: excess to a reserve, or losers pay at most pot_limit",
               "CAP-01, D-CAP", choices=("reserve", "pay_limit_only")),
        Option("min_buy_in", "int", 100, "smallest buy-in (at least the ante)", "D-GEN-06", minimum=1),
        Option("max_buy_in", "int", 0, "largest stack after a buy-in or top-up; 0 = no maximum",
               "D-GEN-06", minimum=0),
        Option("seats", "int", min(10, max_seats), "seats at the table", "GEN-07, D-GEN-02",
               minimum=2, maximum=max_seats),
        Option("declare_timeout", "int", 30, "seconds per declare turn or window", "DESIGN 2.8",
               minimum=1, maximum=3600),
        Option("declare_mode", "choice", "sequential", "declare in turn or all at once, sealed",
               "G2-08, SIM-01, D-DECLARE", choices=("sequential", "simultaneous")),
        Option("ante_rule", "choice", "pot_empty", "antes when the pot is empty, or every deal",
               "G2-05, SL-03", choices=("pot_empty", "every_deal")),
        Option("ties", "choice", "split", "tied best hands split the pot, or neither win nor pay",
               "G2-14, D-G2-02, NSP-01..02", choices=("split", "no_split")),
        Option("all_out", "choice", "carry",
               "every player out: carry the pot, extra ante, wimp rules, best hand matches, or one "
               "more card each and a new declare (best hand of the size dealt, of all cards held)",
               "AO-01..07, D-AO",
               choices=("carry", "extra_ante", "wimp_all", "wimp_others", "best_matches",
                        "extra_card", "pass_right")),
        Option("dealer_forced_in", "bool", True,
               "dealer automatically in when all others are out (sequential declare only)",
               "G2-10, D-G2-05"),
        Option("timeout_effect", "choice", "out", "what a declare timeout does", "DESIGN 2.8",
               choices=("out",)),
        Option("sit_out_after", "int", 0,
               "sit a player out after this many consecutive declare timeouts; 0 = never",
               "DESIGN 2.8", minimum=0, maximum=100),
        Option("stack_policy", "choice", "default",
               "table stakes; allow_debt extends credit; pay_what_you_have lets a short player in",
               "D-GEN-06", choices=("default", "allow_debt", "pay_what_you_have")),
        Option("end_on_empty_pot", "bool", False,
               "Dealer's Choice: the table closes when the pot empties (game over)",
               "D-GEN-08, G2-15, Q-G2-04"),
    )


def _guts_program(cards: int, ranking: str) -> tuple[Stage, ...]:
    return (Stage("deal", (
        step("ante", when="$ante_rule"),
        step("deal", count=cards, face="down"),
        step("declare", mode="$declare_mode", choices=("in", "out")),
        step("showdown", ranking=ranking),
        step("settle", rule="match_pot_each"),
    )),)


GUTS2 = Variant(
    name="guts2", title="Two-card Guts", rules="G2, CAP, RES, SIM, AO, NSP", cards_per_player=2,
    stages=_guts_program(2, "guts2"), options=_common_options(PACK_SIZE // 2))

GUTS3 = Variant(
    name="guts3", title="Three-card Guts", rules="3C, G2, CAP, RES, SIM, AO, NSP", cards_per_player=3,
    stages=_guts_program(3, "$ranking"),
    options=(*_common_options(PACK_SIZE // 3),
             Option("ranking", "choice", "guts3_sf_high", "three-card hand-ranking preset",
                    "3C-04, Table 3C, D-3C-01", choices=RANKINGS_3C),
             Option("ace_low", "bool", True, "an ace may play low in A-2-3 (false: ace high only)",
                    "D-GEN-04, Q-3C-02")))

VARIANTS: dict[str, Variant] = {v.name: v for v in (GUTS2, GUTS3)}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise DomainError("unknown_variant", f"unknown variant: {name!r}", variant=name) from None


def validate_options(variant_name: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The complete, checked options of a table: defaults filled in, every value validated."""
    variant = get_variant(variant_name)
    given = dict(options or {})
    for name in given:
        if name not in variant.option_index:
            raise DomainError("invalid_option", f"unknown option: {name!r}", option=name)
    result = {o.name: o.check(given.get(o.name, o.default)) for o in variant.options}
    if result["min_buy_in"] < result["ante"]:
        raise DomainError("invalid_option", "min_buy_in must cover the ante", option="min_buy_in")
    if result["max_buy_in"] and result["max_buy_in"] < result["min_buy_in"]:
        raise DomainError("invalid_option", "max_buy_in is below min_buy_in", option="max_buy_in")
    return result


def variant_catalog() -> list[dict[str, Any]]:
    """Every variant as JSON: program, options with defaults and rule IDs, options JSON schema."""
    return [v.to_json() for v in VARIANTS.values()]
