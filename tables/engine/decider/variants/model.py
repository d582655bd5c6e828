"""The shape of a game as data: options, steps, stages and the variant that holds them.

Each kind checks its parameters when a variant is built, so a bad program fails at import."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.engine.decider.errors import DomainError
from tables.engine.decider.game_end import GAME_END_RULES
from tables.engine.decider.steps import KINDS, StepKind, check_step, resolve

PACK_SIZE = 52  # GEN-04: standard pack, no jokers
STEP_KINDS = frozenset(KINDS)  # what the decider runs


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its type, default, allowed values and the rule it implements."""

    name: str
    type: str  # "int" | "bool" | "choice"
    default: Any
    description: str
    rule: str  # the RULES.md ID(s) it implements
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """The value if valid for this option, else DomainError invalid_option."""
        if self.type == "bool":
            ok = type(value) is bool
        elif self.type == "int":
            ok = (
                type(value) is int
                and (self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum)
            )
        else:
            ok = isinstance(value, str) and value in self.choices
        if not ok:
            raise DomainError(
                "invalid_option",
                f"invalid value for option {self.name}: {value!r}",
                option=self.name,
                value=value,
            )
        return value

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"description": f"{self.description} ({self.rule})", "default": self.default}
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
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
            "rule": self.rule,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a stage: a kind of `steps.KINDS` and its parameters ("$option" references);
    `when` names a boolean option that must be on for the step to run."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()
    when: str | None = None

    def param(self, name: str, options: Mapping[str, Any]) -> Any:
        """The parameter's value (resolved, its kind's default if not given)."""
        return getattr(resolve(KINDS[self.kind], self, options), name)

    def resolved(self, options: Mapping[str, Any]) -> Any:
        """The parameters at work: an instance of the kind's `params`."""
        return resolve(KINDS[self.kind], self, options)

    @property
    def definition(self) -> StepKind:
        """The step's kind: what it does, takes, offers and shows."""
        return KINDS[self.kind]

    def enabled(self, options: Mapping[str, Any]) -> bool:
        """On without `when`, or when that option is on: a true boolean, or a choice other than
        "none" (``when="exchange"``)."""
        if self.when is None:
            return True
        value = options.get(self.when)
        return bool(value) and value != "none"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            **{k: list(v) if isinstance(v, tuple) else v for k, v in self.params},
        }
        if self.when is not None:
            data["when"] = self.when
        return data


def step(kind: str, when: str | None = None, **params: Any) -> Step:
    return Step(kind, tuple(params.items()), when)


@dataclass(frozen=True, slots=True)
class Stage:
    """A named run of steps; multi-stage games (TSG, 357, TPO) have several."""

    name: str
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    title: str
    rules: str  # the RULES.md prefixes this variant implements
    stages: tuple[Stage, ...]
    options: tuple[Option, ...]
    deck: str = "standard52"
    game_ends: str = "pot_empty"  # a rule of decider.game_end (D-GEN-08)
    new_players_wait: bool = False  # MC-07: seated during a game, dealt in from the next
    min_buy_in_antes: int = 0  # MC-08: the smallest buy-in, in antes (0: no rule)
    option_index: dict[str, Option] = field(init=False, repr=False, compare=False)
    program: tuple[Step, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "option_index", {o.name: o for o in self.options})
        object.__setattr__(self, "program", tuple(s for stage in self.stages for s in stage.steps))
        if self.game_ends not in GAME_END_RULES:
            raise ValueError(f"{self.name}: unknown game-end rule {self.game_ends!r}")
        for st in self.program:
            kind = KINDS.get(st.kind)
            if kind is None:
                raise ValueError(f"{self.name}: unknown step kind {st.kind}")
            check_step(kind, self.name, dict(st.params), self.option_index)
            if st.when is not None and self.option_index.get(st.when, None) is None:
                raise ValueError(f"{self.name}: step {st.kind} runs when {st.when!r}, not an option")
        kinds = [st.kind for st in self.program]
        after = kinds[kinds.index("betting") :] if "betting" in kinds else []
        if after and "award_bets" not in after and "pots" not in after:
            raise ValueError(
                f"{self.name}: a betting step needs award_bets (D-BET) or pots (D-IT-02) after it"
            )

    @property
    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def cards_needed(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """(cards per player, other cards: board and deck comparisons) a deal can take (D-GEN-02)."""
        per_player = other = 0
        for st in self.program:
            if st.enabled(options):
                mine, others = st.definition.cards(st.resolved(options), per_player)
                per_player, other = per_player + mine, other + others
        return per_player, other

    def capacity(self, options: Mapping[str, Any]) -> int:
        """D-GEN-02: the most players one pack serves in a deal of this variant."""
        per_player, other = self.cards_needed(options)
        return (PACK_SIZE - other) // per_player

    @property
    def cards_per_player(self) -> int:
        return self.cards_needed(self.defaults)[0]

    @property
    def max_seats(self) -> int:
        return self.capacity(self.defaults)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "rules": self.rules,
            "deck": self.deck,
            "cards_per_player": self.cards_per_player,
            "max_seats": self.max_seats,
            "game_ends": self.game_ends,
            "new_players_wait": self.new_players_wait,
            "min_buy_in_antes": self.min_buy_in_antes,
            "stages": [
                {"stage": i, "name": s.name, "steps": [x.to_json() for x in s.steps]}
                for i, s in enumerate(self.stages, start=1)
            ],
            "options": [o.to_json() for o in self.options],
            "defaults": self.defaults,
            "options_schema": options_json_schema(self),
        }


def options_json_schema(variant: Variant) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {o.name: o.json_schema() for o in variant.options},
    }
