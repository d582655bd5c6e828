"""Every variant, registered once, and the checks of a table's options against it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.decider import ghost
from tables.engine.decider.errors import DomainError
from tables.engine.decider.variants import (
    betting,
    coin_declare,
    escalation,
    guts,
    italian,
    monte_carlo,
    paired_wilds,
)
from tables.engine.decider.variants.model import Variant
from tables.engine.decider.variants.options import _check_optional_rules

# Every variant, once, in the catalogue's order (`GET /variants`).
VARIANTS: Mapping[str, Variant] = {
    v.name: v
    for v in (
        guts.GUTS2,
        guts.GUTS3,
        guts.TWO_PLUS_ONE,
        guts.FOUR_TWO_TWO,
        guts.FOUR_TWO_THREE,
        guts.THREE_FIVE_SEVEN,
        monte_carlo.MONTE_CARLO,
        monte_carlo.SURVIVOR,
        escalation.THIRTY_EIGHT,
        betting.THREE_TO_FIVE,
        betting.JACKS_AND_PISS,
        escalation.FOUR_THREE,
        italian.ITALIAN,
        paired_wilds.CONSECUTIVE,
        paired_wilds.ALTERNATING,
        coin_declare.BUDDHAS_FOLLY,
        coin_declare.WOLFIES_LOU,
    )
}


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
    """Exchanges before the declare and the all-out pass (AO-06) are two card
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
