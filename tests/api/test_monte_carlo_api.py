"""Monte Carlo and Survivor Guts played over HTTP on stacked decks (GUTS_ALLOW_STACKED_DECKS).

After each command the test reads GET /tables/{id} and checks the stacks, the pot, the round
(`game_no`) and the seats waiting for the next round against figures worked out here from the
rules (RULES.md §9 has no worked example):

- Monte Carlo: MC-01, MC-08 (min buy-in 100 antes: 400 invalid_option), MC-09/MC-14/D-MC-01 (ante
  every deal, the replenishers skip the next), MC-10 (sealed simultaneous declare), MC-11/MC-12
  (the losers replenish one pot in equal shares), MC-05/MC-07/Q-MC-02 (a newcomer waits for the
  round to end on an uncontested win), MC-15 (all out carries), MCA-06 (pass right);
- Survivor: SV-02 (only the worst shown hand replenishes), MCA-02 (a lone "in" against the deck's
  top two cards), D-MC-01 (the loser to the deck skips the next ante).

Also GET /variants lists both games with their rule IDs, and declare_mode is not an option.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from ledger.money import check_conservation
from tests.api.conftest import event_count
from tests.api.test_games_api import BANKROLL, Game, option, step_of
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ANTE, BUY_IN = 10, 1000  # 100 antes (MC-08)
HANDS = ("Ah Ad 9c", "Kh Kd 8c", "Qh Jd 7c", "5s 4h 2c")  # pair of aces, kings, Q high, 5 high


def open_game(
    variant: str, decks: list[list[str]], players: str = "abcd", seated: str = "abcd", **options: Any
) -> Game:
    """A table with `players` funded and only `seated` of them sat down (seat order = name order)."""
    club = Club.create(players=len(players), bankroll=BANKROLL)
    body = {"variant": variant, "options": {"ante": ANTE, **options}, "stacked_decks": decks}
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        response = post(club.admin, "/api/v1/tables", body)
    assert response.status_code == 201, response.content
    table = response.json()["table_id"]
    game = Game(club, table, dict(zip(players, (str(p) for p in club.players), strict=True)))
    for name in seated:
        sit(game, name)
    return game


def sit(game: Game, name: str, buy_in: int = BUY_IN) -> Any:
    response = post(game.api(name), table_url(game.table, "seats"), {"buy_in": buy_in})
    assert response.status_code == 200, response.content
    return response


def waiting(game: Game) -> list[str]:
    return [game.name_of(s["player"]) for s in game.view()["seats"] if s["waiting"]]


def test_variants_lists_monte_carlo_and_survivor(player_api: Any) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    for name, rule in (("monte_carlo", "losers_share"), ("survivor", "worst_replenishes")):
        variant = catalog[name]
        stage = variant["stages"][0]
        assert step_of(stage, "settle")["rule"] == rule  # MC-12, SV-02
        assert step_of(stage, "ante")["who"] == "every_deal"  # MC-09
        assert step_of(stage, "deal")["count"] == 3  # MC-01
        assert step_of(stage, "declare")["mode"] == "simultaneous"  # MC-10
        assert (variant["game_ends"], variant["new_players_wait"], variant["min_buy_in_antes"]) == (
            "round_over",
            True,
            100,
        )  # MC-05, 07, 08
        assert option(variant, "seats")["maximum"] == 10  # MC-01
        assert option(variant, "replenish_cap")["default"] == 50  # MC-13, D-CAP
        assert "MC-13" in option(variant, "replenish_cap")["rule"]
        assert option(variant, "all_out")["choices"] == [
            "carry",
            "best_matches",
            "pass_right",
            "extra_card",
        ]  # MC-15, MCA
        assert "MCA-02" in option(variant, "lone_in")["rule"]
        assert variant["defaults"]["cap_rule"] == "pay_limit_only"  # D-CAP


@pytest.mark.parametrize(
    ("options", "bad"),
    [
        ({"ante": 10, "min_buy_in": 999}, "min_buy_in"),  # MC-08
        ({"declare_mode": "sequential"}, "declare_mode"),  # MC-10
        ({"seats": 11}, "seats"),  # MC-01
        ({"all_out": "wimp_all"}, "all_out"),
    ],
)
def test_monte_carlo_refuses_invalid_options(admin_api: Any, options: dict[str, Any], bad: str) -> None:
    before = event_count()
    response = post(admin_api, "/api/v1/tables", {"variant": "monte_carlo", "options": options})
    assert response.status_code == 400, response.content
    assert (response.json()["code"], response.json()["option"]) == ("invalid_option", bad)
    assert event_count() == before


def test_monte_carlo_round_replenishing_newcomer_waiting_and_carry() -> None:
    deal_1 = stack_deck(*HANDS)  # b, c, d, a
    deal_2 = stack_deck("2h 3h 5d", "6c 7d 9h", "Ts Js 4d", "8s 8d 6h")  # c, d, a, b
    deal_3 = stack_deck("2c 3c 6d", "4c 7h 9s", "Tc Jh 5h", "Qc Kc 4s", "Ac 3s 7s")  # d, e, a, b, c
    game = open_game("monte_carlo", [deal_1, deal_2, deal_3], players="abcde", seated="abcd")
    view = game.view()
    assert view["options"]["min_buy_in"] == 1000  # MC-08 default
    assert sit_refused(game, "e", 999) == "invalid_amount"

    view = game.start()  # MC-09
    assert (view["pot"], view["phase"], view["deal"]["mode"], view["game_no"]) == (
        40,
        "declare",
        "simultaneous",
        1,
    )
    assert game.hands("b")["b"] == HANDS[0].split()  # MC-01
    assert game.declare_action("b")["in_cost"] == 40  # D-GEN-06
    game.declares("b:in", "c:in")
    sealed = {game.name_of(p["player"]): p["declared"] for p in game.view("a")["deal"]["players"]}
    assert sealed == {"b": "sealed", "c": "sealed", "d": None, "a": None}  # MC-10
    view = game.declares("d:in", "a:out")
    # MC-11, MC-12: b takes 40; c and d replenish 40 in equal shares; the round goes on (MC-05).
    assert view["deal"]["outcome"] == "won"
    assert (view["pot"], view["game_no"]) == (40, 1)
    assert game.stacks() == {"a": 990, "b": 1030, "c": 970, "d": 970}

    sit(game, "e")  # MC-07: waits
    assert waiting(game) == ["e"]
    view = game.start()  # dealer b
    names = [game.name_of(p["player"]) for p in view["deal"]["players"]]
    assert names == ["c", "d", "a", "b"]  # e not dealt in
    assert view["pot"] == 60  # D-MC-01: c, d
    assert game.stacks() == {"a": 980, "b": 1020, "c": 970, "d": 970, "e": 1000}
    view = game.declares("c:in", "d:out", "a:out", "b:out")  # uncontested
    assert (view["deal"]["outcome"], view["pot"]) == ("uncontested", 0)
    assert game.stacks()["c"] == 1030
    assert waiting(game) == []  # round over

    view = game.start()  # dealer c
    names = [game.name_of(p["player"]) for p in view["deal"]["players"]]
    assert names == ["d", "e", "a", "b", "c"]  # a new round
    assert (view["game_no"], view["pot"]) == (2, 50)
    view = game.declares("d:out", "e:out", "a:out", "b:out", "c:out")  # MC-15
    assert (view["deal"]["outcome"], view["pot"], view["game_no"]) == ("all_out_carry", 50, 2)
    assert game.stacks() == {"a": 970, "b": 1010, "c": 1020, "d": 960, "e": 990}
    assert game.money() == 5 * BUY_IN
    assert check_conservation() == []


def sit_refused(game: Game, name: str, buy_in: int) -> str:
    response = post(game.api(name), table_url(game.table, "seats"), {"buy_in": buy_in})
    assert response.status_code == 400, response.content
    return str(response.json()["code"])


def test_monte_carlo_pass_right_when_everyone_is_out() -> None:
    """MCA-06 (AO-06, D-AO): everyone out: each passes one card right, then a new sealed declare."""
    deal = stack_deck("Ah Ad 9c", "Kh Kd 8c", "5s 4h 2c")  # b, c, a
    game = open_game("monte_carlo", [deal], players="abc", seated="abc", all_out="pass_right")
    game.start()
    view = game.declares("b:out", "c:out", "a:out")
    assert view["phase"] == "pass"
    deal_no = view["deal_no"]
    for name, card in (("b", "9c"), ("c", "8c"), ("a", "2c")):
        response = post(game.api(name), table_url(game.table, "passes"), {"deal_no": deal_no, "card": card})
        assert response.status_code == 200, response.content
    assert game.hands("b")["b"] == ["Ah", "Ad", "8c"]  # from c
    assert game.view()["phase"] == "declare"
    view = game.declares("b:in", "c:in", "a:out")
    assert view["deal"]["outcome"] == "won"
    assert game.stacks() == {"a": 990, "b": 1020, "c": 960}  # c replenishes 30
    assert view["pot"] == 30
    assert check_conservation() == []


def test_survivor_worst_hand_replenishes_and_a_lone_in_plays_the_deck() -> None:
    deal_1 = stack_deck(*HANDS)  # b, c, d, a
    deal_2 = [*stack_deck("2h 3h 5d", "Qh Jd 7c", "Ts Js 4d", "8s 8d 6h"), "As", "Ac"]  # c, d, a, b
    deal_3 = stack_deck(*HANDS)  # d, a, b, c
    game = open_game("survivor", [deal_1, deal_2, deal_3], lone_in="vs_deck")
    game.start()
    view = game.declares("b:in", "c:in", "d:in", "a:out")
    # SV-02: b's aces win 40; only d (queen high, the worst shown) replenishes; c pays nothing.
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.stacks() == {"a": 990, "b": 1030, "c": 990, "d": 950}
    assert view["pot"] == 40
    assert game.hands("a") == {
        "b": HANDS[0].split(),
        "c": HANDS[1].split(),
        "d": HANDS[2].split(),
        "a": HANDS[3].split(),
    }  # shown; own

    view = game.start()  # dealer b
    assert view["pot"] == 70  # d skips
    view = game.declares("c:out", "d:in", "a:out", "b:out")
    # MCA-02: the deck's A-A beats d's queen high: d replenishes the pot (70); the round goes on.
    assert (view["deal"]["outcome"], view["pot"], view["game_no"]) == ("deck_won", 140, 1)
    assert game.stacks() == {"a": 980, "b": 1020, "c": 980, "d": 880}

    view = game.start()  # dealer c
    assert view["pot"] == 170  # D-MC-01: d
    assert game.stacks() == {"a": 970, "b": 1010, "c": 970, "d": 880}
    assert game.money() == 4 * BUY_IN
    assert check_conservation() == []


def test_monte_carlo_open_hand_to_beat() -> None:
    """MCA-05, Q-MC-05, D-GH-02: the open hand is dealt face up, seen by everyone (even a player never
    seated) before the declare; when it beats every "in" hand nobody takes the pot and the "in"
    players replenish it in equal shares (MC-12); the round goes on."""
    deal = stack_deck(*HANDS, "7s 7h 7d")  # b, c, d, a, open
    game = open_game("monte_carlo", [deal], open_hand="face_up")
    view = game.start()
    assert view["deal"]["ghost"] == {
        "cards": ["7s", "7h", "7d"],
        "card_count": 3,
        "shown": False,
        "won": False,
        "face_up": True,
    }
    assert game.view()["deal"]["ghost"]["cards"] == ["7s", "7h", "7d"]  # an outsider
    view = game.declares("b:in", "c:in", "d:out", "a:out")
    assert view["deal"]["outcome"] == "ghost_won"
    assert (view["deal"]["ghost"]["shown"], view["deal"]["ghost"]["won"]) == (True, True)
    assert (view["pot"], view["game_no"]) == (80, 1)
    assert game.stacks() == {"a": 990, "b": 970, "c": 970, "d": 990}
    assert check_conservation() == []


def bid(game: Game, name: str, amount: int | None = None) -> Any:
    body: dict[str, Any] = {"deal_no": game.view()["deal_no"]}
    if amount is not None:
        body["amount"] = amount
    return post(game.api(name), table_url(game.table, "bids"), body)


def test_monte_carlo_open_hand_auction() -> None:
    """MCA-04, D-MC-04 over HTTP: the open hand is face up; bids go in turn from the dealer's left
    (POST /tables/{id}/bids, no amount = pass); a bid not above the standing one is 409
    bid_too_low; when every other player has passed, the high bidder pays into the pot and swaps
    hands with the open hand; a full turn without a bid opens the declare."""
    deal = stack_deck(*HANDS, "7s 7h 7d")  # b, c, d, a, open
    game = open_game("monte_carlo", [deal], open_hand="auction")
    view = game.start()
    assert (view["phase"], view["deal"]["auction"], view["deal"]["turn"]) == (
        "auction",
        {"high_bid": 0, "high_bidder": None},
        [game.ids["b"]],
    )
    action = next(a for a in game.view("b")["legal_actions"] if a["action"] == "bid")
    assert (action["min"], action["max"], action["high_bid"]) == (1, 990, 0)
    assert bid(game, "c", 5).status_code == 409  # not his turn
    assert bid(game, "b", 5).status_code == 200
    low = bid(game, "c", 5)
    assert (low.status_code, low.json()["code"], low.json()["minimum"]) == (409, "bid_too_low", 6)
    assert bid(game, "c", 10).status_code == 200
    for name in "dab":
        assert bid(game, name).status_code == 200
    view = game.view("b")
    assert view["pot"] == 50  # c paid 10
    assert view["deal"]["ghost"]["cards"] == ["Kh", "Kd", "8c"]  # c's old hand
    assert game.hands("c")["c"] == ["7s", "7h", "7d"]
    for name in "bcda":
        assert bid(game, name).status_code == 200  # no bid: over
    view = game.view()
    assert (view["phase"], view["deal"]["auction"]) == ("declare", None)
    view = game.declares("b:in", "c:in", "d:out", "a:out")
    assert view["deal"]["winners"] == [game.ids["c"]]
    assert game.stacks() == {"a": 990, "b": 940, "c": 1030, "d": 990}
    assert check_conservation() == []
