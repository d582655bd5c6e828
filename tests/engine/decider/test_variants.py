"""Variants as data (DESIGN §2.2): the catalogue, the option schema and its validation."""

from __future__ import annotations

import json

import pytest

from tables.engine.decider.errors import DomainError
from tables.engine.variants import (
    STEP_KINDS,
    VARIANTS,
    Stage,
    Variant,
    get_variant,
    step,
    validate_options,
    variant_catalog,
)


def error_of(variant: str, options: dict) -> DomainError:
    with pytest.raises(DomainError) as caught:
        validate_options(variant, options)
    return caught.value


def test_catalog_lists_guts2_and_guts3_as_json_with_schema() -> None:
    catalog = json.loads(json.dumps(variant_catalog()))
    by_name = {v["name"]: v for v in catalog}
    assert set(by_name) >= {"guts2", "guts3"}
    guts2 = by_name["guts2"]
    assert [s["kind"] for s in guts2["stages"][0]["steps"]] == [
        "ante",
        "deal",
        "exchange",
        "declare",
        "all_out",
        "showdown",
        "settle",
    ]
    assert guts2["cards_per_player"] == 2
    schema = guts2["options_schema"]
    assert schema["properties"]["declare_mode"]["enum"] == ["sequential", "simultaneous"]
    assert schema["properties"]["ante"]["minimum"] == 1
    assert "G2-05" in schema["properties"]["ante_rule"]["description"]
    assert by_name["guts3"]["defaults"]["ranking"] == "guts3_sf_high"


def test_defaults_follow_the_decisions() -> None:  # D-DECLARE, D-G2-02, D-CAP, D-AO, D-G2-05, D-3C-01
    options = validate_options("guts3", {})
    assert options["declare_mode"] == "sequential"
    assert options["ties"] == "split"
    assert options["cap_rule"] == "reserve"
    assert options["all_out"] == "carry"
    assert options["dealer_forced_in"] is True
    assert options["ante_rule"] == "pot_empty"
    assert options["ranking"] == "guts3_sf_high"
    assert options["ace_low"] is True  # D-GEN-04
    assert options["timeout_effect"] == "out"
    assert validate_options("guts2", {})["ranking"] == "guts3_sf_high"  # D-AO-03: extra card only


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"colour": "red"}, "colour"),
        ({"ante": 0}, "ante"),
        ({"ante": True}, "ante"),
        ({"ante": "5"}, "ante"),
        ({"declare_mode": "shouting"}, "declare_mode"),
        ({"dealer_forced_in": 1}, "dealer_forced_in"),
        ({"ante": 50, "min_buy_in": 20}, "min_buy_in"),
        ({"min_buy_in": 200, "max_buy_in": 100}, "max_buy_in"),
        ({"seats": 1}, "seats"),
    ],
)
def test_invalid_option_names_the_option(options: dict, named: str) -> None:
    error = error_of("guts2", options)
    assert error.code == "invalid_option"
    assert error.detail["option"] == named


def test_guts2_has_no_ranking_option() -> None:
    assert error_of("guts2", {"ranking": "guts3_classic"}).detail["option"] == "ranking"


def test_unknown_variant() -> None:
    assert error_of("canasta", {}).code == "unknown_variant"
    with pytest.raises(DomainError):
        get_variant("canasta")


def test_d_gen_02_seats_limited_to_what_one_pack_serves() -> None:
    assert get_variant("guts2").max_seats == 26
    assert get_variant("guts3").max_seats == 17
    assert validate_options("guts3", {"seats": 17})["seats"] == 17
    assert error_of("guts3", {"seats": 18}).detail["option"] == "seats"


def test_3c_04_ranking_presets_are_options() -> None:
    for ranking in ("guts3_sf_high", "guts3_trips_high", "guts3_classic"):
        assert validate_options("guts3", {"ranking": ranking})["ranking"] == ranking
    assert error_of("guts3", {"ranking": "poker"}).detail["option"] == "ranking"


def test_a_variant_uses_only_step_kinds_the_decider_runs() -> None:
    for variant in VARIANTS.values():
        assert {s.kind for s in variant.program} <= STEP_KINDS
    with pytest.raises(ValueError, match="unknown step kind"):
        Variant(name="x", title="X", rules="", stages=(Stage("s", (step("juggle", count=1),)),), options=())
