"""The ghost hand (Kitty or Ghost, GH-01..08, D-GH-02, D-GH-03, D-GEN-02) played over HTTP on
stacked decks (GUTS_ALLOW_STACKED_DECKS).

After every command GET /tables/{id} shows `deal.ghost`: how many cards the ghost holds, its cards
only once a showdown showed them (GH-03), whether it played and won; the stacks and the pot after
each settlement are worked out here from the rules. Also: GET /variants lists the option with its
rule IDs, and conflicting or oversized tables are 400 `invalid_option` naming the option.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.money import check_conservation
from tests.api.conftest import event_count
from tests.api.test_games_api import BUY_IN, Game, cards, option
from tests.tables.conftest import stack_deck
from tests.tables.http import post

pytestmark = pytest.mark.django_db

# The ghost is the last recipient of each round (D-GH-03): stack_deck(b, c, a, ghost) for deal 1
# (dealer a), (c, a, b, ghost) for deal 2, (a, b, c, ghost) for deal 3.
DEAL_1 = stack_deck("Js Jd", "4s 4d", "2c 7d", "Qh Qd")  # the ghost's queens beat both "in"
DEAL_2 = stack_deck("5c 6d", "8h 9s", "Tc 3h", "Kc Kh")  # everyone out
DEAL_3 = stack_deck("As Ah", "2s 5s", "6c 8c", "3s 3d")  # a lone "in" beats the ghost


def ghost_of(game: Game, name: str | None = None) -> dict[str, Any]:
    """deal.ghost as this player sees it, without `face_up` (always false here: MCA-05 only)."""
    ghost = dict(game.view(name)["deal"]["ghost"])
    assert ghost.pop("face_up") is False
    return ghost


def test_a_ghost_session_over_the_api() -> None:
    game = Game.open("guts2", [DEAL_1, DEAL_2, DEAL_3], ghost="always")
    view = game.start()
    assert (view["pot"], view["options"]["ghost"], view["options"]["dealer_forced_in"]) == (
        30,
        "always",
        False,
    )
    for name in ("a", "b", "c", None):  # GH-02: nobody holds it
        assert ghost_of(game, name) == {"cards": None, "card_count": 2, "shown": False, "won": False}
    assert [p["card_count"] for p in view["deal"]["players"]] == [2, 2, 2]
    assert game.hands("b") == {"b": cards("Js Jd"), "c": None, "a": None}  # D-GH-03: dealt after a
    view = game.declares("b:in", "c:in", "a:out")
    # GH-04, GH-05, GH-07: nobody beat the ghost's queens: both "in" players match, the pot stays.
    assert view["deal"]["over"]
    assert (view["deal"]["outcome"], view["deal"]["winners"], view["pot"]) == ("ghost_won", [], 90)
    assert game.stacks() == {"a": 990, "b": 960, "c": 960}
    for name in ("a", "b", None):  # GH-03: shown to all
        assert ghost_of(game, name) == {"cards": cards("Qh Qd"), "card_count": 2, "shown": True, "won": True}
    assert game.hands() == {"b": cards("Js Jd"), "c": cards("4s 4d"), "a": None}

    view = game.start()  # dealer b: c, a, b
    assert (view["pot"], view["game_no"]) == (90, 1)  # the pot carries (G2-05)
    view = game.declares("c:out", "a:out")
    assert game.declare_action("b") is not None  # GH-06: not forced in
    view = game.declares("b:out")
    assert (view["deal"]["outcome"], view["pot"]) == ("all_out_carry", 90)
    assert ghost_of(game, "b")["cards"] is None  # no showdown showed it

    view = game.start()  # dealer c: a, b, c
    assert view["pot"] == 120  # GH-06: everyone antes anew
    assert game.stacks() == {"a": 980, "b": 950, "c": 950}
    action = game.declare_action("a")
    assert action is not None
    assert action["in_cost"] == 120  # he may lose to the ghost
    view = game.declares("a:in", "b:out", "c:out")
    # GH-01, GH-04: the lone "in" player shows and beats the ghost's threes: he takes the pot.
    assert (view["deal"]["outcome"], view["deal"]["winners"]) == ("won", [game.ids["a"]])
    assert ghost_of(game, "c") == {"cards": cards("3s 3d"), "card_count": 2, "shown": True, "won": False}
    assert (view["pot"], view["game_no"]) == (0, 1)
    assert game.stacks() == {"a": 1100, "b": 950, "c": 950}
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_only_if_one_in_two_in_players_compete_among_themselves() -> None:
    """GH-08: the ghost (aces) would beat both, but with two "in" it does not play or show."""
    deck = stack_deck("Js Jd", "4s 4d", "2c 7d", "Ah Ad")
    game = Game.open("guts2", [deck], ghost="only_if_one_in")
    game.start()
    view = game.declares("b:in", "c:in", "a:out")
    assert (view["deal"]["outcome"], view["deal"]["winners"]) == ("won", [game.ids["b"]])
    assert game.stacks() == {"a": 990, "b": 1020, "c": 960}
    assert ghost_of(game, "b") == {"cards": None, "card_count": 2, "shown": False, "won": False}


def test_d_gh_02_a_tie_with_the_ghost_loses_in_three_card_guts() -> None:
    deck = stack_deck("As Kd Qc", "4s 5d 9h", "2c 7d 8s", "Ah Kc Qs")
    game = Game.open("guts3", [deck], ghost="always")
    game.start()
    view = game.declares("b:in", "c:out", "a:out")
    assert (view["deal"]["outcome"], view["pot"]) == ("ghost_won", 60)
    assert game.stacks() == {"a": 990, "b": 960, "c": 990}


def test_variants_list_the_ghost_option_with_its_rules(player_api: APIClient) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    for name in ("guts2", "guts3"):
        ghost = option(catalog[name], "ghost")
        assert (ghost["default"], ghost["choices"]) == ("none", ["none", "always", "only_if_one_in"])
        assert ghost["rule"] == "GH-01..08, D-GH-02, D-GH-03"
        deal = next(s for s in catalog[name]["stages"][0]["steps"] if s["kind"] == "deal")
        assert deal["ghost"] == "$ghost"


@pytest.mark.parametrize(
    ("options", "named", "detail"),
    [
        ({"ghost": "always", "all_out": "extra_card"}, "ghost", {"conflict": "all_out"}),  # GH-06
        ({"ghost": "always", "dealer_forced_in": True}, "ghost", {"conflict": "dealer_forced_in"}),
        ({"ghost": "always", "seats": 26}, "seats", {"maximum": 25}),  # D-GEN-02
        ({"ghost": "sometimes"}, "ghost", {}),
    ],
)
def test_conflicting_or_oversized_ghost_tables_are_invalid_option(
    admin_api: APIClient, options: dict[str, Any], named: str, detail: dict[str, Any]
) -> None:
    before = event_count()
    response = post(admin_api, "/api/v1/tables", {"variant": "guts2", "options": options})
    assert response.status_code == 400, response.content
    problem = response.json()
    assert (problem["code"], problem["option"]) == ("invalid_option", named)
    assert {key: problem[key] for key in detail} == detail
    assert event_count() == before
