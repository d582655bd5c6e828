"""A tournament's configuration: validated once, recorded in `TournamentCreated`, never changed.

The table options go through the tables engine's own validation of a tournament table's options
(`tournament_options`, then `validate_options`, as `OpenTable` does): the variant must exist, its
options must be valid, `seats_per_table` may not exceed what one pack serves (D-GEN-02), and no
option a tournament table refuses (`stack_policy: allow_debt`, `end_on_empty_pot`) is accepted.
The tournament owns three table options: `seats` (= seats_per_table), `ante` (the first level's;
later levels arrive by SetAnte) and the stack policy (`pay_what_you_have` unless given, D-GEN-06).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tables.engine.decider.tournament_table import tournament_options
from tables.engine.variants import get_variant, validate_options
from tournaments.engine.errors import DomainError

MAX_CHIPS = 10**12
MAX_ENTRANTS = 10_000
MAX_LEVELS = 100
MAX_PAUSE = 3600
OWNED_OPTIONS = ("seats", "ante")  # set by the tournament, not by the caller
# What a cancellation after the start pays (docs/tournaments.md, "Cancelling a running tournament"):
# "chip_chop" refunds every buy-in before any elimination and after one shares the prize pool not
# yet won among the players still in, by chips; "refund" always refunds every buy-in.
CANCEL_SETTLEMENTS = ("chip_chop", "refund")
CANCEL_FEES = ("refund", "keep")  # the club's setting, recorded at creation


@dataclass(frozen=True, slots=True)
class Level:
    ante: int
    minutes: int

    def to_json(self) -> dict[str, int]:
        return {"ante": self.ante, "minutes": self.minutes}


@dataclass(frozen=True, slots=True)
class Config:
    """Everything `TournamentCreated` records about the tournament's rules."""

    name: str
    variant: str
    options: dict[str, Any]  # the tables' options, complete and validated
    buy_in: int  # cash chips to the prize pool
    fee: int  # cash chips to the house
    starting_chips: int  # tournament chips per entrant
    seats_per_table: int
    min_entrants: int
    max_entrants: int
    start_at: str  # ISO-8601 UTC
    levels: tuple[Level, ...]
    late_registration_level: int  # 0: none; else registration stays open until it ends
    payouts: tuple[int, ...]  # percent of the prize pool by place (1st first)
    pause_seconds: int  # between one deal's end and the next start
    cancel_settlement: str = "chip_chop"  # CANCEL_SETTLEMENTS: the prize pool of a running cancel
    cancel_fees: str = "refund"  # CANCEL_FEES: the fees of a cancelled tournament

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "variant": self.variant,
            "options": dict(self.options),
            "buy_in": self.buy_in,
            "fee": self.fee,
            "starting_chips": self.starting_chips,
            "seats_per_table": self.seats_per_table,
            "min_entrants": self.min_entrants,
            "max_entrants": self.max_entrants,
            "start_at": self.start_at,
            "levels": [level.to_json() for level in self.levels],
            "late_registration_level": self.late_registration_level,
            "payouts": list(self.payouts),
            "pause_seconds": self.pause_seconds,
            "cancel_settlement": self.cancel_settlement,
            "cancel_fees": self.cancel_fees,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Config:
        return cls(
            name=data["name"],
            variant=data["variant"],
            options=dict(data["options"]),
            buy_in=data["buy_in"],
            fee=data["fee"],
            starting_chips=data["starting_chips"],
            seats_per_table=data["seats_per_table"],
            min_entrants=data["min_entrants"],
            max_entrants=data["max_entrants"],
            start_at=data["start_at"],
            levels=tuple(Level(x["ante"], x["minutes"]) for x in data["levels"]),
            late_registration_level=data["late_registration_level"],
            payouts=tuple(data["payouts"]),
            pause_seconds=data["pause_seconds"],
            # Recorded since cancellation after the start exists; older tournaments: the defaults.
            cancel_settlement=data.get("cancel_settlement", "chip_chop"),
            cancel_fees=data.get("cancel_fees", "refund"),
        )

    def ante_of(self, level: int) -> int:
        return self.levels[min(max(level, 1), len(self.levels)) - 1].ante

    def level_start(self, started_at: datetime, level: int) -> datetime:
        """When `level` (1-based) begins, for a tournament started at `started_at`."""
        minutes = sum(x.minutes for x in self.levels[: level - 1])
        return started_at + timedelta(minutes=minutes)

    def level_at(self, started_at: datetime, now: datetime) -> int:
        """The level running at `now` (the last level never ends)."""
        level = 1
        while level < len(self.levels) and self.level_start(started_at, level + 1) <= now:
            level += 1
        return level


def _bad(field: str, message: str) -> DomainError:
    return DomainError("invalid_tournament", f"{field}: {message}", field=field)


def _int(data: Mapping[str, Any], field: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(field, default)
    if type(value) is not int or not low <= value <= high:
        raise _bad(field, f"an integer from {low} to {high}, not {value!r}")
    return value


def _choice(data: Mapping[str, Any], field: str, choices: tuple[str, ...]) -> str:
    value = data.get(field, choices[0])
    if value not in choices:
        raise _bad(field, f"one of {', '.join(choices)}, not {value!r}")
    return str(value)


def iso(moment: datetime) -> str:
    """ISO-8601 UTC with a Z, as the tables' events write times."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(value: Any, field: str = "start_at") -> datetime:
    """An aware datetime from an ISO-8601 string (or an aware datetime)."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise _bad(field, f"an ISO-8601 time, not {value!r}") from None
    else:
        raise _bad(field, f"an ISO-8601 time, not {value!r}")
    if moment.tzinfo is None:
        raise _bad(field, "the time needs a timezone (e.g. Z)")
    return moment


def _levels(raw: Any) -> tuple[Level, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_LEVELS:
        raise _bad("levels", f"a list of 1 to {MAX_LEVELS} levels")
    levels = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) != {"ante", "minutes"}:
            raise _bad("levels", 'each level is {"ante": int, "minutes": int}')
        levels.append(Level(_int(item, "ante", 1, MAX_CHIPS), _int(item, "minutes", 1, 7 * 24 * 60)))
    return tuple(levels)


def check_payouts(raw: Any, min_entrants: int) -> tuple[int, ...]:
    """Whole percentages by place, each at least 1, summing to 100; no more places than the
    minimum number of entrants (so every paid place has a player)."""
    if not isinstance(raw, list) or not raw or not all(type(p) is int and p >= 1 for p in raw):
        raise DomainError(
            "invalid_payouts",
            "payouts: a non-empty list of whole percentages, each at least 1",
            field="payouts",
        )
    if sum(raw) != 100:
        raise DomainError(
            "invalid_payouts", f"payouts sum to {sum(raw)}, not 100", field="payouts", total=sum(raw)
        )
    if len(raw) > min_entrants:
        raise DomainError(
            "invalid_payouts",
            f"{len(raw)} paid places but only {min_entrants} entrants are required (raise min_entrants)",
            field="payouts",
        )
    return tuple(raw)


def table_options(variant: str, given: Mapping[str, Any], seats: int, ante: int) -> dict[str, Any]:
    """The options of every table of the tournament, validated by the tables engine (its
    DomainError `invalid_option` / `unknown_variant` propagates: seats beyond the variant's
    capacity is invalid_option with option "seats")."""
    if not isinstance(given, Mapping):
        raise _bad("options", "an object of table options")
    for name in OWNED_OPTIONS:
        if name in given:
            raise _bad("options", f"{name!r} is set by the tournament (seats_per_table, levels)")
    options = {**given, "seats": seats, "ante": ante}
    if "min_buy_in" not in given:
        options["min_buy_in"] = max(ante, ante * get_variant(variant).min_buy_in_antes)
    # Exactly what OpenTable(tournament_id=...) will do with them, so a tournament whose tables
    # would refuse to open (allow_debt, end_on_empty_pot) is refused at creation, not at its start.
    return validate_options(variant, tournament_options(options))


def config_from_input(data: Mapping[str, Any]) -> Config:
    """A validated Config from a creation request's fields (DomainError on the first bad one)."""
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100:
        raise _bad("name", "1 to 100 characters")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise _bad("variant", "a variant name (GET /variants)")
    seats = _int(data, "seats_per_table", 2, 100)
    levels = _levels(data.get("levels"))
    options = table_options(variant, data.get("options") or {}, seats, levels[0].ante)
    min_entrants = _int(data, "min_entrants", 2, MAX_ENTRANTS)
    max_entrants = _int(data, "max_entrants", min_entrants, MAX_ENTRANTS)
    return Config(
        name=name.strip(),
        variant=variant,
        options=options,
        buy_in=_int(data, "buy_in", 0, MAX_CHIPS),
        fee=_int(data, "fee", 0, MAX_CHIPS, 0),
        starting_chips=_int(data, "starting_chips", 1, MAX_CHIPS),
        seats_per_table=seats,
        min_entrants=min_entrants,
        max_entrants=max_entrants,
        start_at=iso(parse_time(data.get("start_at"))),
        levels=levels,
        late_registration_level=_int(data, "late_registration_level", 0, len(levels), 0),
        payouts=check_payouts(data.get("payouts"), min_entrants),
        pause_seconds=_int(data, "pause_seconds", 0, MAX_PAUSE, 0),
        cancel_settlement=_choice(data, "cancel_settlement", CANCEL_SETTLEMENTS),
        cancel_fees=_choice(data, "cancel_fees", CANCEL_FEES),
    )
