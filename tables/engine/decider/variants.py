"""Variants as data (DESIGN §2.2): what a game is, written as a value the decider interprets.

A `Variant` is a program of stages, each a tuple of steps; a step is a kind from the registry
`tables.engine.decider.steps.KINDS` (ante, deal, declare, all_out, lone_in, showdown, settle,
award_pot) with parameters. Each kind checks its parameters when the variant is built, so a bad
program fails at import, not at deal 400. A parameter written ``"$name"`` takes the table option
``name`` (``{"mode": "$declare_mode"}``), so one program serves every option setting; a step with
``when="option"`` runs only when that boolean option is on (TPO-04's extra ante).
`game_ends` names the rule that ends a game (`decider.game_end`).

D-GEN-02: `capacity(options)` is how many players one pack serves (cards per player, the board,
the deck cards of 42X-03, the ghost hand); the ``seats`` option may not exceed it.

Public interface (all JSON-friendly):

- `get_variant(name) -> Variant` (DomainError ``unknown_variant``)
- `validate_options(variant_name, options) -> dict` fills defaults, checks types, ranges and
  cross-field constraints; raises DomainError ``invalid_option`` (``.detail["option"]`` names it)
- `variant_catalog() -> list[dict]`: every variant with its stages, options, defaults and a JSON
  schema of its options (for ``GET /variants``)

Adding a game: see docs/variants.md (Three-Five-Seven is the worked example).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.engine.decider import ghost
from tables.engine.decider.errors import DomainError
from tables.engine.decider.game_end import GAME_END_RULES
from tables.engine.decider.steps import KINDS, StepKind, check_step, resolve

PACK_SIZE = 52  # GEN-04: standard pack, no jokers
STEP_KINDS = frozenset(KINDS)  # what the decider runs
RANKINGS_3C = ("guts3_sf_high", "guts3_trips_high", "guts3_classic")  # Table 3C, D-3C-01


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
        return resolve(KINDS[self.kind], self, options)[name]

    def resolved(self, options: Mapping[str, Any]) -> dict[str, Any]:
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


# --- options ------------------------------------------------------------------------------------


def _table_options(max_seats: int, *, default_seats: int = 10) -> tuple[Option, ...]:
    """Options every variant has: stakes, buy-ins, seats, timeouts, table stakes."""
    return (
        Option("ante", "int", 1, "chips each player antes", "G2-03", minimum=1),
        Option("min_buy_in", "int", 100, "smallest buy-in (at least the ante)", "D-GEN-06", minimum=1),
        Option(
            "max_buy_in",
            "int",
            0,
            "largest stack after a buy-in or top-up; 0 = no maximum",
            "D-GEN-06",
            minimum=0,
        ),
        Option(
            "seats",
            "int",
            min(default_seats, max_seats),
            "seats at the table (at most what one pack serves)",
            "GEN-07, D-GEN-02",
            minimum=2,
            maximum=max_seats,
        ),
        Option(
            "declare_timeout",
            "int",
            30,
            "seconds per declare turn or window",
            "DESIGN 2.8",
            minimum=1,
            maximum=3600,
        ),
        Option(
            "timeout_effect", "choice", "out", "what a declare timeout does", "DESIGN 2.8", choices=("out",)
        ),
        Option(
            "sit_out_after",
            "int",
            0,
            "sit a player out after this many consecutive declare timeouts; 0 = never",
            "DESIGN 2.8",
            minimum=0,
            maximum=100,
        ),
        Option(
            "stack_policy",
            "choice",
            "default",
            "table stakes; allow_debt extends credit; pay_what_you_have lets a short player in",
            "D-GEN-06",
            choices=("default", "allow_debt", "pay_what_you_have"),
        ),
    )


DECLARE_MODE = Option(
    "declare_mode",
    "choice",
    "sequential",
    "declare in turn or all at once, sealed",
    "G2-08, SIM-01, D-DECLARE, 357-06",
    choices=("sequential", "simultaneous"),
)
MAX_LOSS = Option(
    "max_loss",
    "int",
    0,
    "most one player pays in one payment; 0 = no limit (CAP_PAY_LIMIT_ONLY)",
    "CAP-02, 422-07, EX-03",
    minimum=0,
)
ACE_LOW = Option(
    "ace_low",
    "bool",
    True,
    "an ace may play low in A-2-3 and A-2-3-4-5 (false: ace high only)",
    "D-GEN-04, Q-3C-02",
)
GHOST = Option(
    "ghost",
    "choice",
    ghost.NONE,
    "a ghost hand (Kitty) dealt to nobody, last in each "
    'round, secret until shown at the showdown: the "in" players must beat it in every '
    'showdown (always) or a lone "in" must (only_if_one_in); a tie with it loses; when '
    'it wins every "in" player matches; everyone out: everyone antes anew',
    "GH-01..08, D-GH-02, D-GH-03",
    choices=ghost.GHOSTS,
)
RANKING_3C = Option(
    "ranking",
    "choice",
    "guts3_sf_high",
    "three-card hand-ranking preset",
    "3C-04, Table 3C, D-3C-01",
    choices=RANKINGS_3C,
)
EXCHANGE_RULES_2C = ("none", "draw")  # EXC-01
EXCHANGE_RULES_3C = (*EXCHANGE_RULES_2C, "pass_left")  # EXC-02, EXC-03


def exchange_option(choices: tuple[str, ...]) -> Option:
    """EXC-01..03 with the Q-EXC-01/02 defaults (steps/exchange.py)."""
    return Option(
        "exchange",
        "choice",
        "none",
        "before the declare: no exchange; draw (in turn from the dealer's left, discard "
        "up to all your cards and take as many from the stock); pass_left (three-card: "
        "everyone passes one card to the left, chosen sealed)",
        "EXC-01..03, Q-EXC-01, Q-EXC-02, D-GEN-02",
        choices=choices,
    )


ALL_OUT_CHOICES = (
    "carry",
    "extra_ante",
    "wimp_all",
    "wimp_others",
    "best_matches",
    "extra_card",
    "pass_right",
)


def _guts_options(max_seats: int, all_out: tuple[str, ...] = ALL_OUT_CHOICES) -> tuple[Option, ...]:
    """Options of two- and three-card Guts and their family (3C-05: all two-card rules carry over)."""
    return (
        *_table_options(max_seats),
        Option(
            "pot_limit",
            "int",
            0,
            "most the pot may hold; 0 = no limit (e.g. 100 x ante)",
            "G2-04, CAP-01, RES-01..03, D-RES-02",
            minimum=0,
        ),
        Option("max_loss", "int", 0, "most one player pays in one deal; 0 = no limit", "CAP-02", minimum=0),
        Option(
            "cap_rule",
            "choice",
            "reserve",
            "pot above pot_limit: excess to a reserve, or losers pay at most pot_limit",
            "CAP-01, D-CAP",
            choices=("reserve", "pay_limit_only"),
        ),
        DECLARE_MODE,
        Option(
            "ante_rule",
            "choice",
            "pot_empty",
            "antes when the pot is empty, or every deal",
            "G2-05, SL-03",
            choices=("pot_empty", "every_deal"),
        ),
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02, NSP-01..02",
            choices=("split", "no_split"),
        ),
        Option(
            "all_out",
            "choice",
            "carry",
            "every player out: carry the pot, extra ante, wimp rules, best hand matches, or one "
            "more card each and a new declare (best hand of the size dealt, of all cards held)",
            "AO-01..07, D-AO",
            choices=all_out,
        ),
        Option(
            "dealer_forced_in",
            "bool",
            True,
            "dealer automatically in when all others are out (sequential declare only)",
            "G2-10, D-G2-05",
        ),
        Option(
            "end_on_empty_pot",
            "bool",
            False,
            "Dealer's Choice: the table closes when the pot empties (game over)",
            "D-GEN-08, G2-15, Q-G2-04",
        ),
    )


LOSER_RULES = ("match_pot_each", "single_loser")


def _optional_rules() -> tuple[Option, ...]:
    """The optional rules of two- and three-card Guts of RULES §7 (CFR, SL; NSP is `ties`)."""
    return (
        Option(
            "loser_rule",
            "choice",
            "match_pot_each",
            'who matches the pot: every losing "in" player, or only the worst "in" hand(s), '
            "each in full, who then skip the next deal's ante (single_loser antes every deal: "
            "ante_rule then defaults to every_deal and pot_empty is refused)",
            "G2-13, SL-01..04, D-MC-01",
            choices=LOSER_RULES,
        ),
        Option(
            "compulsory_first_round",
            "bool",
            False,
            "on the first deal of a game (of the session, or after the pot emptied) every player "
            'is "in" without declaring',
            "CFR-01, CFR-02, Q-CFR-01",
        ),
    )


# D-AO-03: two-card Guts ranks the three cards held after AO-07's extra card by the table's
# three-card preset (Table 3C), with D-GEN-04's ace-low option.
EXTRA_CARD_RANKING = Option(
    "ranking",
    "choice",
    "guts3_sf_high",
    "the three-card preset (Table 3C) that ranks the three cards held after all_out extra_card",
    "D-AO-03, AO-07, Table 3C, D-3C-01",
    choices=RANKINGS_3C,
)
EXTRA_CARD_ACE_LOW = Option(
    "ace_low",
    "bool",
    True,
    "after all_out extra_card: an ace may play low in A-2-3 (false: ace high only)",
    "D-AO-03, D-GEN-04, Q-3C-02",
)


def _check_optional_rules(variant: Variant, result: dict[str, Any], given: Mapping[str, Any]) -> None:
    """Conflicts among the optional rules; an unset option they imply takes its
    implied value."""
    if variant.name == "guts2" and result["all_out"] != "extra_card":  # D-AO-03
        for name in ("ranking", "ace_low"):
            if result[name] != variant.option_index[name].default:
                raise DomainError(
                    "invalid_option",
                    f"{name} ranks the three cards of all_out "
                    "extra_card in two-card Guts (D-AO-03): set all_out=extra_card",
                    option=name,
                    conflict="all_out",
                )
    if result.get("loser_rule") == "single_loser":  # SL-03
        if "ante_rule" not in given:
            result["ante_rule"] = "every_deal"
        elif result["ante_rule"] != "every_deal":
            raise DomainError(
                "invalid_option",
                "loser_rule single_loser antes every deal (SL-03): ante_rule must be every_deal",
                option="ante_rule",
                conflict="loser_rule",
            )


# --- programs -----------------------------------------------------------------------------------


def _guts_program(
    cards: int, ranking: str, ace_low: bool | str | None = None, grown: str | None = None
) -> tuple[Stage, ...]:
    return (
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule", ghost="$ghost"),  # GH-06
                step("deal", count=cards, face="down", ghost="$ghost"),  # D-GH-03
                step("exchange", when="exchange", rule="$exchange", max=cards),  # EXC-01..03
                step(
                    "declare",
                    mode="$declare_mode",
                    dealer_forced_in="$dealer_forced_in",
                    compulsory="$compulsory_first_round",
                ),  # CFR-01
                step("all_out", rule="$all_out"),
                step(
                    "showdown",
                    ranking=ranking,
                    best=cards,
                    all_out="$all_out",
                    ace_low=ace_low,
                    ghost="$ghost",
                    settle="$loser_rule",
                    grown_ranking=grown,
                ),  # GH-03..08; SL-01/02; D-AO-03
                step("settle", rule="$loser_rule", all_out="$all_out"),  # G2-13, SL-01..04
            ),
        ),
    )


GUTS2 = Variant(
    name="guts2",
    title="Two-card Guts",
    rules="G2, CAP, RES, SIM, AO, NSP, EXC",
    stages=_guts_program(2, "guts2", "$ace_low", grown="$ranking"),
    options=(
        *_guts_options(PACK_SIZE // 2),
        GHOST,
        *_optional_rules(),
        EXTRA_CARD_RANKING,
        EXTRA_CARD_ACE_LOW,
        exchange_option(EXCHANGE_RULES_2C),
    ),
)

GUTS3 = Variant(
    name="guts3",
    title="Three-card Guts",
    rules="3C, G2, CAP, RES, SIM, AO, NSP, EXC",
    stages=_guts_program(3, "$ranking", "$ace_low"),
    options=(
        *_guts_options(PACK_SIZE // 3),
        RANKING_3C,
        ACE_LOW,
        GHOST,
        *_optional_rules(),
        exchange_option(EXCHANGE_RULES_3C),
    ),
)

TWO_PLUS_ONE = Variant(
    name="two_plus_one",
    title="Two plus One",
    rules="TPO, D-TPO-01, G2, 3C, CAP, RES, SIM",
    stages=(
        Stage(
            "two cards",
            (
                step("ante", who="$ante_rule"),
                step("deal", count=2, face="down"),  # TPO-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),
                step("lone_in", rule="takes_pot"),  # D-TPO-01, G2-11
            ),
        ),
        Stage(
            "plus one",
            (
                step("ante", when="extra_ante_redeclare", who="in_players", reason="extra_ante"),  # TPO-04
                step("deal", count=1, face="down", to="in_players"),  # TPO-02, D-TPO-01
                step("declare", when="extra_ante_redeclare", mode="$declare_mode", who="in_players"),
                step(
                    "showdown", ranking="$ranking", best=3, all_out="$all_out", ace_low="$ace_low"
                ),  # TPO-03
                step("settle", rule="match_pot_each", all_out="$all_out"),
            ),
        ),
    ),
    options=(
        *_guts_options(PACK_SIZE // 3, all_out=("carry", "extra_ante")),
        RANKING_3C,
        ACE_LOW,
        Option(
            "extra_ante_redeclare",
            "bool",
            False,
            'the "in" players ante again for the '
            "third card, then declare again; going out then forfeits only the extra ante",
            "TPO-04, D-TPO-01",
        ),
    ),
)


def _four_two_x_options(max_seats: int) -> tuple[Option, ...]:
    return (
        *_table_options(max_seats),
        MAX_LOSS,
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02",
            choices=("split", "no_split"),
        ),
        Option(
            "lone_in",
            "choice",
            "takes_pot",
            'a lone "in" player: takes the pot and the '
            "game ends (LONE_IN_WINS), or must beat the deck's top four cards first "
            "(LONE_IN_VS_DECK4)",
            "422-08, 42X-03, Q-42X-01, D-42X-01",
            choices=("takes_pot", "vs_deck"),
        ),
    )


def _four_two_x(last: Step, board: bool) -> tuple[Stage, ...]:
    return (
        Stage(
            "four cards",
            (
                step("ante", who="went_out_last_deal"),  # 42X-01, D-42X-02
                step("deal", count=4, face="down"),  # 422-02
                step("declare", mode="simultaneous"),  # 422-04, SIM-05
                step("lone_in", rule="$lone_in", count=4, ranking="four_card", wild=(2,)),  # 422-08, 42X-03
                last,  # 422-05 / 423-02
                step(
                    "showdown", ranking="poker", wild=(2,), board=board, all_out="twos_match"
                ),  # 422-03/05, 423-03
                step("settle", rule="match_pot_each", all_out="twos_match"),  # 422-06/07, 42X-02
            ),
        ),
    )


FOUR_TWO_TWO = Variant(
    name="four_two_two",
    title="Four-Two-Two",
    rules="422, 42X, D-42X-01..04, SIM-05",
    stages=_four_two_x(step("deal", count=2, face="up", to="in_players"), board=False),
    options=_four_two_x_options((PACK_SIZE - 4) // 6),
    game_ends="lone_in_wins",
)

FOUR_TWO_THREE = Variant(
    name="four_two_three",
    title="Four-Two-Three",
    rules="423, 422, 42X, D-42X-01..04, SIM-05",
    stages=_four_two_x(step("deal", count=3, face="up", to="board"), board=True),
    options=_four_two_x_options((PACK_SIZE - 3 - 4) // 4),
    game_ends="lone_in_wins",
)


def _stage_357(name: str, cards: int, showdown: Step) -> Stage:
    first = (step("ante", who="every_deal"),) if cards == 3 else ()  # 357-05, 357-24
    return Stage(
        name,
        (
            *first,
            step("deal", count=cards, face="down"),  # 357-05, 357-14, 357-19
            step("declare", mode="$declare_mode"),  # TSG-02, 357-06
            step("lone_in", rule="earns_leg"),  # 357-03, 357-08
            showdown,
            step("settle", rule="losers_pay_winners"),  # 357-11..13, D-357-01/02
            step("award_pot", legs=3),  # 357-04, 357-25
        ),
    )


THREE_FIVE_SEVEN = Variant(
    name="three_five_seven",
    title="Three-Five-Seven",
    rules="TSG, 357, D-357-01..03",
    stages=(
        _stage_357("three cards", 3, step("showdown", ranking="stage1_357", wild=(3,), private=True)),
        _stage_357(
            "five cards", 2, step("showdown", ranking="poker", wild=(5,), private=True, ace_low="$ace_low")
        ),
        _stage_357("seven cards", 2, step("showdown", ranking="poker", wild=(7,), ace_low="$ace_low")),
    ),
    options=(*_table_options(PACK_SIZE // 7), DECLARE_MODE, MAX_LOSS, ACE_LOW),
    game_ends="legs_reached",
)

MC_PLAYERS = 10  # MC-01, PLAYERS_001


def _monte_carlo_options() -> tuple[Option, ...]:
    return (
        *_table_options(MC_PLAYERS),
        Option(
            "replenish_cap",
            "int",
            50,
            "most the losers replenish together, in antes; the winner "
            "still takes the whole pot (CAP_PAY_LIMIT_ONLY); 0 = the whole pot",
            "MC-13, CAP-01, CAP-02, D-CAP",
            minimum=0,
        ),
        Option(
            "pot_limit",
            "int",
            0,
            "an additional limit on the pot, in chips; 0 = none",
            "MCA-03, CAP-01",
            minimum=0,
        ),
        Option(
            "cap_rule",
            "choice",
            "pay_limit_only",
            "pot above pot_limit: losers pay at most pot_limit, or the excess waits in a reserve",
            "MCA-03, CAP-01, D-CAP, RES-01..03",
            choices=("pay_limit_only", "reserve"),
        ),
        Option(
            "all_out",
            "choice",
            "carry",
            "every player out: the pot carries (MC-15); the best "
            "hand replenishes it (MCA-01); each passes a card right and declares again (MCA-06); "
            "one more card each and a new declare (MCA-07)",
            "MC-15, MCA-01, MCA-06, MCA-07, AO-01, AO-05..07, D-AO",
            choices=("carry", "best_matches", "pass_right", "extra_card"),
        ),
        Option(
            "lone_in",
            "choice",
            "takes_pot",
            'a lone "in" player takes the pot (MC-11), or '
            "must beat the deck's top two cards, else replenishes it (MCA-02, Q-MC-03 (a))",
            "MC-11, MCA-02, Q-MC-03",
            choices=("takes_pot", "vs_deck"),
        ),
        Option(
            "open_hand",
            "choice",
            ghost.NONE,
            "an extra hand dealt face up: face_up, every "
            '"in" player must beat it (a tie loses), and when none does nobody takes the pot '
            'and the "in" players replenish it; auction, before the declare the players bid in '
            "turn for it and the high bidder pays his bid into the pot and swaps hands with it",
            "MCA-05, Q-MC-05, GH-04, GH-05, D-GH-02, MCA-04, D-MC-04",
            choices=(ghost.NONE, ghost.FACE_UP, ghost.AUCTION),
        ),
        ACE_LOW,
    )


def _monte_carlo(settle_rule: str, *, worst: bool) -> tuple[Stage, ...]:
    ranking = "guts3_sf_high"  # MC-02, 3C-06
    return (
        Stage(
            "deal",
            (
                step("ante", who="every_deal"),  # MC-09, MC-14, D-MC-01
                step("deal", count=3, face="down", ghost="$open_hand"),  # MC-01, MC-09, MCA-04/05
                step("auction", rule="$open_hand"),  # MCA-04, D-MC-04
                step("declare", mode="simultaneous"),  # MC-10, SIM-01
                step("all_out", rule="$all_out"),  # MCA-06, MCA-07
                step(
                    "lone_in",
                    rule="$lone_in",
                    count=2,
                    ranking=ranking,
                    wild=(),
                    ace_low="$ace_low",
                    loser_skips_ante=True,
                    ghost="$open_hand",
                ),  # MC-11, MCA-02, D-MC-01
                step(
                    "showdown",
                    ranking=ranking,
                    best=3,
                    all_out="$all_out",
                    ace_low="$ace_low",
                    worst=worst,
                    ghost="$open_hand",
                ),  # MC-02..04, MCA-01, MCA-05
                step("settle", rule=settle_rule, all_out="$all_out"),  # MC-12/13, SV-02/03, MC-15
            ),
        ),
    )


MONTE_CARLO = Variant(
    name="monte_carlo",
    title="Monte Carlo Guts",
    rules="MC, MCA, SIM, CAP, D-MC-01, D-MC-04, D-CAP",
    stages=_monte_carlo("losers_share", worst=False),
    options=_monte_carlo_options(),
    game_ends="round_over",
    new_players_wait=True,
    min_buy_in_antes=100,
)

SURVIVOR = Variant(
    name="survivor",
    title="Survivor Guts",
    rules="SV, MC, MCA, SIM, CAP, D-MC-01, D-MC-04, D-CAP",
    stages=_monte_carlo("worst_replenishes", worst=True),
    options=_monte_carlo_options(),
    game_ends="round_over",
    new_players_wait=True,
    min_buy_in_antes=100,
)

# --- Thirty Eight (T38, D-T38-01) and Four-Three (43, D-43-01) ---------------------------

DEALER_FORCED_IN = Option(
    "dealer_forced_in",
    "bool",
    True,
    "dealer automatically in when all others are out (sequential declare only)",
    "G2-10, D-G2-05",
)
HIGH_LOW = ("high", "low", "both")  # 43-03


def _thirty_eight_options() -> tuple[Option, ...]:
    return (
        *_table_options(PACK_SIZE // 5),
        DECLARE_MODE,
        DEALER_FORCED_IN,
        MAX_LOSS,
        ACE_LOW,
        Option(
            "ties",
            "choice",
            "split",
            "tied best hands split the pot, or neither win nor pay",
            "G2-14, D-G2-02, NSP-01..02",
            choices=("split", "no_split"),
        ),
    )


THIRTY_EIGHT = Variant(
    name="thirty_eight",
    title="Thirty Eight",
    rules="T38, T25, D-T38-01, G2, SIM",
    stages=(
        Stage(
            "three to five",
            (
                step("ante"),  # G2-05: on an empty pot
                step("deal", count=3, face="down"),  # T25-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # T25-03
                step("lone_in", rule="takes_pot"),  # G2-11
                step("deal", count=2, face="down", to="in_players"),  # T25-02
                step("escalation", levels=("single", "double", "triple")),  # T38-03/04, D-T38-01
                step("showdown", ranking="poker", wild=(3, 8), ace_low="$ace_low"),  # T25-05, T38-02/05
                step("settle", rule="match_escalated"),  # T38-04/05, D-T38-01
            ),
        ),
    ),
    options=_thirty_eight_options(),
)

# --- games with a betting round (D-BET) -----------------------------------------------------

BET_UNIT = Option(
    "bet_unit",
    "int",
    0,
    "the size of a bet and of a raise in the betting round (fixed "
    "limit, at most three raises a round); 0 = the ante",
    "D-BET, Q-JP-01, Q-T25-01",
    minimum=0,
)


def _betting_and_showdown(showdown: Step) -> tuple[Step, ...]:
    """D-BET: the betting round, the showdown among those still in the betting, the pot matched
    at its pre-betting size (the bets are apart from it, JP-12, T25-04), the bets to the winner(s)."""
    return (
        step("betting", unit="$bet_unit"),  # JP-10, T25-03, D-BET
        showdown,  # JP-11, T25-04
        step("settle", rule="match_pot_each", all_out="$all_out"),  # JP-12, T25-04, G2-13
        step("award_bets"),  # D-BET
    )


THREE_TO_FIVE = Variant(
    name="three_to_five",
    title="Three to Five",
    rules="T25, D-BET, G2, CAP, RES, SIM",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # T25-03: classic Guts, G2-05
                step("deal", count=3, face="down"),  # T25-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # T25-03
                step("lone_in", rule="takes_pot"),  # G2-11: no more cards
                step("deal", count=2, face="down", to="in_players"),  # T25-02, Q-T25-01: face down
                *_betting_and_showdown(
                    step("showdown", ranking="poker", ace_low="$ace_low", all_out="$all_out")
                ),  # T25-05
            ),
        ),
    ),
    options=(*_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")), ACE_LOW, BET_UNIT),
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        GUTS2,
        GUTS3,
        TWO_PLUS_ONE,
        FOUR_TWO_TWO,
        FOUR_TWO_THREE,
        THREE_FIVE_SEVEN,
        MONTE_CARLO,
        SURVIVOR,
        THIRTY_EIGHT,
    )
}


JP_PLAYERS = (PACK_SIZE - 1 - 4) // 4  # four cards each, the piss card, one whole draw: 11
DRAW_MAX = Option(
    "draw_max",
    "int",
    0,
    'the most cards an "in" player may exchange; 0 = no limit (all four)',
    "JP-09, JP-14",
    minimum=0,
    maximum=4,
)

JACKS_AND_PISS = Variant(
    name="jacks_and_piss",
    title="Jacks and Piss",
    rules="JP, EX-04, EX-05, D-BET, G2, GH, CAP, RES, SIM, D-GEN-02, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule", ghost="$ghost"),  # classic Guts (CZV-03); GH-06
                step("deal", count=4, face="down", ghost="$ghost"),  # JP-01; the Kitty, JP-15
                step("deal", count=1, face="up", to="board"),  # JP-01, JP-04: the piss card
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # JP-06, JP-07
                step("lone_in", rule="takes_pot", ghost="$ghost"),  # JP-13
                step("exchange", rule="draw", max="$draw_max", who="in_players"),  # JP-02, JP-09, JP-14
                *_betting_and_showdown(
                    step(
                        "showdown",
                        ranking="poker",
                        wild=(11,),
                        board=True,
                        wild_board=True,
                        ace_low="$ace_low",
                        all_out="$all_out",
                        ghost="$ghost",
                    )
                ),  # JP-03..05, JP-11, GH-04
            ),
        ),
    ),
    options=(*_guts_options(JP_PLAYERS, all_out=("carry", "extra_ante")), ACE_LOW, BET_UNIT, DRAW_MAX, GHOST),
    game_ends="lone_in_wins",
)  # JP-13

VARIANTS.update({v.name: v for v in (THREE_TO_FIVE, JACKS_AND_PISS)})  # D-BET

# --- Four-Three (43, D-43-01), after BET_UNIT for its optional betting round (43-07) -------

FOUR_THREE_BETTING = Option(
    "betting",
    "bool",
    False,
    "a fixed-limit betting round (D-BET) after the "
    "three more cards, before the High/Low/Both declare; the pot is matched at "
    "its pre-betting size and the bets go to the winner(s)",
    "43-07, D-BET",
)

FOUR_THREE = Variant(
    name="four_three",
    title="Four-Three",
    rules="43, D-43-01, D-BET, G2, SIM",
    stages=(
        Stage(
            "four cards",
            (
                step("ante", who="every_deal"),  # 43-01, Q-CZV-01
                step("deal", count=4, face="down"),  # D-43-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # G2-08
                step("lone_in", rule="takes_pot"),  # G2-11
            ),
        ),
        Stage(
            "three more",
            (
                step("deal", count=3, face="down", to="in_players"),  # 43-02
                step("betting", when="betting", unit="$bet_unit"),  # 43-07, D-BET
                step(
                    "declare", mode="simultaneous", who="in_players", choices=HIGH_LOW, timeout="high"
                ),  # 43-03, D-43-01
                step("high_low_showdown", high="poker", low="low_a5"),  # 43-04, D-43-01
                step("settle", rule="high_low"),  # 43-05, 43-06, D-43-01
                step("award_bets", when="betting"),  # 43-07, D-BET
            ),
        ),
    ),
    options=(
        *_table_options(PACK_SIZE // 7),
        DECLARE_MODE,
        DEALER_FORCED_IN,
        MAX_LOSS,
        FOUR_THREE_BETTING,
        BET_UNIT,
    ),
)

VARIANTS.update({FOUR_THREE.name: FOUR_THREE})

# --- Italian poker (IT, D-IT-01..05): five-card draw with openers and side pots -------------------

IT_PLAYERS = 10  # D-IT-05: 2 to 10


def _italian_round(multiple: int, **params: Any) -> Step:
    """D-IT-02: a poker betting round of everyone dealt in, all-ins and side pots allowed."""
    return step(
        "betting",
        who="all",
        unit="$bet_unit",
        multiple=multiple,
        limit="$limit",
        all_in=True,
        ranking="italian",
        **params,
    )


ITALIAN = Variant(
    name="italian",
    title="Italian poker",
    rules="IT, EX-10, EX-11, D-IT-01..05, D-GEN-01, D-GEN-02",
    deck="italian",  # D-IT-01, Table IT-A
    stages=(
        Stage(
            "first round",
            (
                step("ante", who="every_deal"),  # IT-05, IT-11
                step("deal", count=5, face="down"),  # IT-06
                _italian_round(1, opens="jacks"),  # IT-07..11, D-IT-02
            ),
        ),
        Stage(
            "draw",
            (
                step("draw", max=4),  # IT-12..16, D-IT-03
                _italian_round(2, first="opener"),  # IT-17, D-IT-02
                step("pots", ranking="italian", ties="$ties"),  # IT-18..40, D-IT-02..04
            ),
        ),
    ),
    options=(
        *_table_options(IT_PLAYERS),
        Option(
            "bet_unit",
            "int",
            0,
            "the bet and raise size of the first round, twice that in the "
            "second (under pot limit the least bet); 0 = the ante",
            "D-IT-02, Q-IT-07",
            minimum=0,
        ),
        Option(
            "limit",
            "choice",
            "fixed",
            "fixed limit (bets and raises of one unit, two in the "
            "second round, at most three raises a round) or pot limit (a bet from the round's "
            "unit, a raise by at least the last raise, up to the pot after calling)",
            "D-IT-02, Q-IT-07",
            choices=("fixed", "pot"),
        ),
        Option(
            "ties",
            "choice",
            "default",
            "how equal hands are separated: the suit rules of the "
            "source (default) or Fantini's kicker suit (fantini)",
            "IT-32..40, D-IT-04",
            choices=("default", "fantini"),
        ),
    ),
)

VARIANTS.update({ITALIAN.name: ITALIAN})


# --- Consecutive and Alternating Guts (CONS, ALT, D-CONS-01) ---------------------------------------


def _paired_wilds(ranking: str) -> tuple[Stage, ...]:
    """CONS-01..05, ALT-01/02: five cards, a sequential declare (D-CONS-01), the best three of five
    with pair-made wilds (the ranking: EX-06, EX-07), the classic settlement (CZV-03)."""
    return (
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # CONS-01
                step("declare", mode="$declare_mode", dealer_forced_in="$dealer_forced_in"),  # D-CONS-01
                step("all_out", rule="$all_out"),
                step("showdown", ranking=ranking, all_out="$all_out"),  # CONS-02..04, ALT-02
                step("settle", rule="match_pot_each", all_out="$all_out"),  # CONS-01, G2-13
            ),
        ),
    )


CONSECUTIVE = Variant(
    name="consecutive",
    title="Consecutive Guts",
    rules="CONS, EX-06, D-CONS-01, G2, CAP, RES",
    stages=_paired_wilds("consecutive"),
    options=_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")),
    game_ends="lone_in_wins",
)  # CONS-05

ALTERNATING = Variant(
    name="alternating",
    title="Alternating Guts",
    rules="ALT, CONS, EX-07, D-CONS-01, G2, CAP, RES",
    stages=_paired_wilds("alternating"),
    options=_guts_options(PACK_SIZE // 5, all_out=("carry", "extra_ante")),
    game_ends="lone_in_wins",
)  # CONS-05 (ALT-01)

VARIANTS.update({v.name: v for v in (CONSECUTIVE, ALTERNATING)})


# --- Buddha's Folly (BF, D-BF-01) and Wolfie's Lou (WL, EX-09, D-WL-01..06) --------------------------

_NOT_COIN = frozenset({"declare_mode", "dealer_forced_in"})


def _coin_declare_options(max_seats: int, all_out: tuple[str, ...]) -> tuple[Option, ...]:
    """Classic Guts options (CZV-03) under the Coin Declare (Q-CZV-01: simultaneous, so no declare
    mode and no dealer forced in)."""
    return tuple(o for o in _guts_options(max_seats, all_out=all_out) if o.name not in _NOT_COIN)


BUDDHAS_FOLLY = Variant(
    name="buddhas_folly",
    title="Buddha's Folly",
    rules="BF, D-BF-01, G2, CAP, RES, SIM, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # BF-01
                step("offer"),  # BF-02..04, D-BF-01
                step("declare", mode="simultaneous"),  # BF-05, SIM-04
                step("all_out", rule="$all_out"),
                step("showdown", ranking="poker", ace_low="$ace_low", all_out="$all_out"),  # BF-06, D-BF-01
                step("settle", rule="match_pot_each", all_out="$all_out"),  # BF-06, G2-13
            ),
        ),
    ),
    options=(*_coin_declare_options((PACK_SIZE - 1) // 5, ("carry", "extra_ante")), ACE_LOW),
    game_ends="lone_in_wins",
)  # BF-07

NO_TRICK_DOUBLE = Option(
    "no_trick_double",
    "bool",
    False,
    "a player who wins no trick at all matches double the pot",
    "WL-12, D-WL-06",
)

WOLFIES_LOU = Variant(
    name="wolfies_lou",
    title="Wolfie's Lou",
    rules="WL, EX-09, D-WL-01..06, G2, CAP, RES, SIM, Q-CZV-01",
    stages=(
        Stage(
            "deal",
            (
                step("ante", who="$ante_rule"),  # classic Guts (CZV-03)
                step("deal", count=5, face="down"),  # WL-01
                step("exchange", rule="draw", max=2),  # WL-02
                step("declare", mode="simultaneous"),  # WL-03, SIM-04
                step("all_out", rule="$all_out"),  # D-WL-01: the pot carries
                step("lone_in", rule="takes_pot"),  # D-WL-01: no tricks
                step("questioning", ranking="poker"),  # WL-04, WL-05, D-WL-02
                step("trump"),  # WL-06, D-WL-05
                step("tricks", no_trick_double="$no_trick_double"),  # WL-07..09, D-WL-03/04
                step("settle", rule="tricks", all_out="$all_out"),  # WL-10..12, D-WL-06
            ),
        ),
    ),
    options=tuple(
        o
        for o in (*_coin_declare_options((PACK_SIZE - 2) // 5, ("carry",)), NO_TRICK_DOUBLE)
        if o.name != "ties"
    ),
    game_ends="lone_in_wins",
)

VARIANTS.update({v.name: v for v in (BUDDHAS_FOLLY, WOLFIES_LOU)})


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
    _check_buy_in_antes(variant, result, given)
    _check_optional_rules(variant, result, given)
    if result["min_buy_in"] < result["ante"]:
        raise DomainError("invalid_option", "min_buy_in must cover the ante", option="min_buy_in")
    if result["max_buy_in"] and result["max_buy_in"] < result["min_buy_in"]:
        raise DomainError("invalid_option", "max_buy_in is below min_buy_in", option="max_buy_in")
    if ghost.dealt(result.get("ghost", ghost.NONE)):
        result = _with_ghost(given, result)
    if result.get("open_hand") == ghost.FACE_UP and result["lone_in"] == "vs_deck":
        raise DomainError(
            "invalid_option",
            'open_hand conflicts with lone_in vs_deck: a lone "in" '
            "plays the open hand (MCA-05), not the deck (MCA-02)",
            option="open_hand",
            conflict="lone_in",
        )
    check_exchange_conflicts(result)
    capacity = variant.capacity(result)
    if result["seats"] > capacity:  # D-GEN-02
        raise DomainError(
            "invalid_option",
            f"one pack serves at most {capacity} players in {variant.title} with these options",
            option="seats",
            maximum=capacity,
        )
    return result


def _check_buy_in_antes(variant: Variant, result: dict[str, Any], given: Mapping[str, Any]) -> None:
    """MC-08: a buy-in of at least `min_buy_in_antes` antes; an unset `min_buy_in` takes that."""
    floor = variant.min_buy_in_antes * result["ante"]
    if "min_buy_in" not in given:
        result["min_buy_in"] = max(result["min_buy_in"], floor)
    elif result["min_buy_in"] < floor:
        raise DomainError(
            "invalid_option",
            f"the minimum buy-in of {variant.title} is {variant.min_buy_in_antes} antes ({floor})",
            option="min_buy_in",
            minimum=floor,
        )


def _with_ghost(given: Mapping[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """GH-06: with a ghost hand every player may go out, and then everyone antes anew. So the
    dealer is not forced in (G2-10 off unless asked for, which conflicts) and the all-out rule is
    GH-06's carry with new antes (another all-out rule conflicts)."""
    if given.get("dealer_forced_in") is True:
        raise DomainError(
            "invalid_option",
            "ghost conflicts with dealer_forced_in: with a ghost hand every player may go out (GH-06)",
            option="ghost",
            conflict="dealer_forced_in",
        )
    if result["all_out"] != "carry":
        raise DomainError(
            "invalid_option",
            "ghost conflicts with all_out: with a ghost hand, when "
            "everyone is out, everyone antes anew (GH-06)",
            option="ghost",
            conflict="all_out",
        )
    return {**result, "dealer_forced_in": False}


def check_exchange_conflicts(options: Mapping[str, Any]) -> None:
    """Issue 12 item 9: exchanges before the declare and the all-out pass (AO-06) are two card
    passing procedures in one deal; a table takes one of them."""
    if options.get("exchange", "none") != "none" and options.get("all_out") == "pass_right":
        raise DomainError(
            "invalid_option",
            "exchange cannot be combined with all_out=pass_right",
            option="exchange",
            conflict="all_out",
        )


def variant_catalog() -> list[dict[str, Any]]:
    """Every variant as JSON: stages, options with defaults and rule IDs, options JSON schema."""
    return [v.to_json() for v in VARIANTS.values()]
