"""The optional rules of two- and three-card Guts played over HTTP on stacked decks:
single loser (SL-01..04, D-MC-01), compulsory first round (CFR-01), no split pots (NSP-01..02)
and the all-out corrections D-AO-02 and D-AO-03.

Each session opens a table with the option group, checks it is recorded and served (GET
/tables/{id} options, GET /variants with its rule ID), plays deals and checks stacks and pot
worked out here from the rules. Conflicting options are 400 `invalid_option` naming the option.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import event_count
from tests.api.test_games_api import Game, option
from tests.tables.conftest import stack_deck
from tests.tables.http import post

pytestmark = pytest.mark.django_db


def refused(admin_api: APIClient, variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """Opening a table with these options is 400 invalid_option and stores nothing."""
    before = event_count()
    response = post(admin_api, "/api/v1/tables", {"variant": variant, "options": options})
    assert response.status_code == 400, response.content
    assert event_count() == before
    problem: dict[str, Any] = response.json()
    assert problem["code"] == "invalid_option"
    return problem


# --- single loser ------------------------------------------------------------------------------

# Deal 1 (dealer a) is dealt b, c, d, a: b best, d worst. Deal 2 (dealer b) c, d, a, b: c best, b worst.
SL_DEAL_1 = stack_deck("As Ks", "Qd Jd", "7h 2c", "9c 8c")
SL_DEAL_2 = stack_deck("Ah Ad", "Kc Qc", "Jh Th", "4d 2s")


def test_single_loser_session(player_api: APIClient) -> None:
    """SL-01: only the worst "in" hand matches; SL-03: everyone antes every deal; SL-04, D-MC-01:
    the matcher skips the next deal's ante, that deal only."""
    game = Game.open("guts2", [SL_DEAL_1, SL_DEAL_2], players="abcd", loser_rule="single_loser")
    view = game.start()
    assert view["options"]["loser_rule"] == "single_loser"
    assert view["options"]["ante_rule"] == "every_deal"  # implied by SL-03
    assert view["pot"] == 40
    view = game.declares("b:in", "c:in", "d:in", "a:in")
    assert game.stacks() == {"a": 990, "b": 1030, "c": 990, "d": 950}  # only d matched
    assert view["pot"] == 40
    view = game.start()  # SL-03, SL-04
    assert view["pot"] == 70
    assert game.stacks() == {"a": 980, "b": 1020, "c": 980, "d": 950}
    view = game.declares("c:in", "d:out", "a:out", "b:in")
    assert game.stacks() == {"a": 980, "b": 950, "c": 1050, "d": 950}
    assert view["pot"] == 70
    view = game.start()  # deal 3: d antes again
    assert game.stacks() == {"a": 970, "b": 950, "c": 1040, "d": 940}  # b is excused now
    assert view["pot"] == 100

    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    for variant in ("guts2", "guts3"):
        loser_rule = option(catalog[variant], "loser_rule")
        assert loser_rule["choices"] == ["match_pot_each", "single_loser"]
        assert "SL-01..04" in loser_rule["rule"]


def test_single_loser_with_antes_on_an_empty_pot_only_is_invalid(admin_api: APIClient) -> None:
    problem = refused(admin_api, "guts3", {"loser_rule": "single_loser", "ante_rule": "pot_empty"})
    assert problem["option"] == "ante_rule"
    assert problem["conflict"] == "loser_rule"


# --- all-out corrections: D-AO-02, D-AO-03 -----------------------------------------------------


def test_wimp_payment_stands_in_for_the_next_antes_session() -> None:
    """D-AO-02 (AO-04): antes every deal; all out, the best hand (b) pays N - 1 antes for the others
    plus his own, N in all; the next deal nobody antes; the deal after, everyone does."""
    deal_1 = stack_deck("As Ks", "Qd Jd", "2c 7h")  # b, c, a
    deal_2 = stack_deck("Ah Ad", "9c 4d", "5s 6h")  # c, a, b
    game = Game.open(
        "guts2",
        [deal_1, deal_2, deal_1],
        declare_mode="simultaneous",
        all_out="wimp_others",
        ante_rule="every_deal",
    )
    game.start()
    view = game.declares("b:out", "c:out", "a:out")
    assert game.stacks() == {"a": 990, "b": 960, "c": 990}
    assert view["pot"] == 60
    view = game.start()
    assert (view["pot"], game.stacks()) == (60, {"a": 990, "b": 960, "c": 990})
    view = game.declares("c:in", "a:in", "b:out")  # c's aces win; a matches
    assert game.stacks() == {"a": 930, "b": 960, "c": 1050}
    view = game.start()  # everyone antes again
    assert view["pot"] == 60 + 30
    assert game.stacks() == {"a": 920, "b": 950, "c": 1040}


def test_extra_card_three_card_preset_session(player_api: APIClient, admin_api: APIClient) -> None:
    """D-AO-03: after the extra card, 5h 6h 7h is a straight flush by the table's Table 3C preset
    (default guts3_sf_high) and beats the kings; as the best two of three it would lose."""
    deck = ["5h", "Ks", "6h", "Kd", "7h", "2c"]  # b, a, b, a, then the extra cards
    game = Game.open("guts2", [deck], players="ab", declare_mode="simultaneous", all_out="extra_card")
    view = game.start()
    assert view["options"]["ranking"] == "guts3_sf_high"
    view = game.declares("b:out", "a:out")
    assert [p["card_count"] for p in view["deal"]["players"]] == [3, 3]
    assert game.hands("b")["b"] == ["5h", "6h", "7h"]
    view = game.declares("b:in", "a:in")
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.stacks() == {"a": 970, "b": 1010}
    assert view["pot"] == 20

    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    ranking = option(catalog["guts2"], "ranking")
    assert ranking["default"] == "guts3_sf_high"
    assert "D-AO-03" in ranking["rule"]
    problem = refused(admin_api, "guts2", {"ranking": "guts3_classic"})
    assert (problem["option"], problem["conflict"]) == ("ranking", "all_out")


# --- compulsory first round --------------------------------------------------------------------


def test_compulsory_first_round_session(player_api: APIClient) -> None:
    """CFR-01, CFR-02: the first deal of a game needs no declare: everyone is in, b's hand wins
    the antes and the others match; the next deal declares as usual; when the pot empties the
    next game starts with a compulsory round again."""
    deal_1 = stack_deck("As Ks", "Qd Jd", "2c 7h")  # b, c, a
    deal_2 = stack_deck("Ah Ad", "9c 4d", "5s 6h")  # c, a, b
    deal_3 = stack_deck("Kh Kd", "Qc Js", "Tc 9h")  # a, b, c
    game = Game.open("guts2", [deal_1, deal_2, deal_3], compulsory_first_round=True)
    view = game.start()  # the whole deal in one command
    assert view["options"]["compulsory_first_round"] is True
    assert view["deal"]["over"]
    assert all(p["forced_in"] and p["declared"] == "in" for p in view["deal"]["players"])
    assert game.stacks() == {"a": 960, "b": 1020, "c": 960}  # antes 30 to b; a and c match 30
    assert view["pot"] == 60
    assert game.declare_action("a") is None
    view = game.start()  # deal 2: declares as usual
    assert view["phase"] == "declare"
    assert game.declare_action("c") is not None
    view = game.declares("c:in", "a:out", "b:out")  # c takes 60 uncontested: pot empty
    assert (view["pot"], game.stacks()["c"]) == (0, 1020)
    view = game.start()  # a new game: compulsory again
    assert view["deal"]["over"]
    assert view["game_no"] == 2
    assert game.stacks() == {"a": 980, "b": 980, "c": 980}  # a's kings take 30; b, c match

    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    for variant in ("guts2", "guts3"):
        assert "CFR-01" in option(catalog[variant], "compulsory_first_round")["rule"]


# --- no split pots -----------------------------------------------------------------------------


def test_no_split_pots_session() -> None:
    """NSP-01: b and c tie for best and neither receive nor pay; NSP-02: the pot stays, d's and
    a's payments are added, and the next deal is played for it."""
    tied = stack_deck("As Kd", "Ah Kc", "2c 7h", "3c 8h")  # b, c, d, a
    after = stack_deck("Qs Qd", "9c 4d", "5s 6h", "8d 2s")  # c, d, a, b
    game = Game.open("guts2", [tied, after], players="abcd", ties="no_split")
    game.start()
    view = game.declares("b:in", "c:in", "d:in", "a:in")
    assert view["deal"]["outcome"] == "no_split"
    assert game.stacks() == {"a": 950, "b": 990, "c": 990, "d": 950}
    assert view["pot"] == 120
    view = game.start()
    assert view["pot"] == 120  # G2-05: no ante on a pot
    view = game.declares("c:in", "d:out", "a:out", "b:out")
    assert game.stacks() == {"a": 950, "b": 990, "c": 1110, "d": 950}
    assert view["pot"] == 0
