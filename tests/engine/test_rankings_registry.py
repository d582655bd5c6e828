"""The ranking registry behind evaluate(): names, options, lazy dispatch, errors with codes."""

from __future__ import annotations

import importlib.util
import json

import pytest

from tables.engine import RANKINGS, InvalidOption, UnknownRanking, evaluate

NAMES = [
    "guts2",
    "guts3_sf_high",
    "guts3_trips_high",
    "guts3_classic",
    "poker",
    "low_a5",
    "four_card",
    "stage1_357",
    "consecutive",
    "alternating",
    "italian",
]
SAMPLE = {
    2: "As Kd",
    3: "As Kd 7c",
    4: "As Kd 7c 5h",
    5: "As Kd 7c 5h 4s",
    6: "As Kd 7c 5h 4s 9d",
    7: "As Kd 7c 5h 4s 9d Tc",
}


def available(name: str) -> bool:
    return importlib.util.find_spec(RANKINGS[name].target.split(":")[0]) is not None


def test_registry_lists_every_ranking_with_a_description_and_options():
    assert sorted(RANKINGS) == sorted(NAMES)
    for ranking in RANKINGS.values():
        described = ranking.as_dict()
        assert described["name"] == ranking.name
        assert len(described["description"]) > 20
        json.dumps(described)  # servable by the variants API
    assert RANKINGS["guts3_sf_high"].as_dict()["options"]["ace_low"]["default"] is True
    assert RANKINGS["stage1_357"].as_dict()["default_wild_ranks"] == ["3"]
    assert RANKINGS["four_card"].as_dict()["default_wild_ranks"] == ["2"]
    assert RANKINGS["italian"].as_dict()["options"]["players"]["required"] is True


@pytest.mark.parametrize("name", [name for name in NAMES if name != "italian"])
def test_every_available_ranking_values_a_hand_of_each_accepted_size(name: str):
    if not available(name):
        pytest.skip(f"{name} is not in this build yet")
    for size in RANKINGS[name].hand_sizes:
        value = evaluate(SAMPLE[size], name)
        assert value.ranking == name
        assert str(value)


def test_italian_needs_the_number_of_players():
    if not available("italian"):
        with pytest.raises(UnknownRanking, match="not available"):
            evaluate(SAMPLE[5], "italian", players=4)
        return
    with pytest.raises(InvalidOption, match="players"):
        evaluate(SAMPLE[5], "italian")


def test_options_are_checked_per_ranking():
    with pytest.raises(InvalidOption, match="ace_low"):
        evaluate("As Kd", "guts2", ace_low=False)
    with pytest.raises(InvalidOption, match="none"):
        evaluate("As Kd 7c 5h 4s", "low_a5", players=4)
    with pytest.raises(InvalidOption):
        evaluate(SAMPLE[5], "italian", players=11)
    with pytest.raises(InvalidOption):
        evaluate(SAMPLE[5], "italian", players=4, tie_rule="coin")


def test_unknown_ranking_lists_the_known_ones():
    with pytest.raises(UnknownRanking, match="guts3_sf_high"):
        evaluate("As Kd", "omaha")


def test_values_of_different_rankings_do_not_compare():
    with pytest.raises(TypeError):
        evaluate("As Ad", "guts2").beats(evaluate("As Ad Kc", "guts3_sf_high"))
