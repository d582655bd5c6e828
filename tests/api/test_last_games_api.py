"""Consecutive, Alternating, Buddha's Folly and Wolfie's Lou played end to end over HTTP on stacked
decks (GUTS_ALLOW_STACKED_DECKS), to the settlement, with what GET /tables/{id} shows after the
commands and the stacks worked out here from the rules (RULES.md §13: CONS, ALT, BF, WL; §16:
D-CONS-01, D-BF-01, D-WL-01..06). A refused command is a problem with its code and appends nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.money import check_conservation
from tests.api.conftest import event_count
from tests.api.test_games_api import BUY_IN, Game, cards
from tests.tables.conftest import stack_deck
from tests.tables.http import post, table_url

pytestmark = pytest.mark.django_db


def test_variants_lists_the_four_games_with_their_stages_and_options(player_api: Any) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    kinds = {
        name: [s["kind"] for stage in catalog[name]["stages"] for s in stage["steps"]]
        for name in ("consecutive", "alternating", "buddhas_folly", "wolfies_lou")
    }
    assert kinds["consecutive"] == ["ante", "deal", "declare", "all_out", "showdown", "settle"]
    assert kinds["alternating"] == kinds["consecutive"]
    assert kinds["buddhas_folly"] == ["ante", "deal", "offer", "declare", "all_out", "showdown", "settle"]
    assert kinds["wolfies_lou"] == [
        "ante",
        "deal",
        "exchange",
        "declare",
        "all_out",
        "lone_in",
        "questioning",
        "trump",
        "tricks",
        "settle",
    ]
    wl = {o["name"]: o for o in catalog["wolfies_lou"]["options"]}
    assert wl["no_trick_double"]["rule"] == "WL-12, D-WL-06"
    assert all(catalog[name]["game_ends"] == "lone_in_wins" for name in kinds)


def test_consecutive_ex_06_wins_the_classic_settlement_then_a_lone_in_ends_the_game() -> None:
    """CONS-01..05, EX-06, D-CONS-01: a sequential declare; 8-7 makes a wild for three queens; the
    others match the pot; then a lone "in" takes it and the game ends."""
    decks = [
        stack_deck("8h Qd 3c 7s Qs", "Kc Kd 9c 5s 2d", "Ts 8d 6h 4h 2c"),  # b, c, a
        stack_deck("As Ks Js 9d 4d", "7c 7d 7h 5c 3s", "Ah Jh 9h 6s 3d"),
    ]  # c, a, b
    game = Game.open("consecutive", decks)
    view = game.start()
    assert (view["pot"], view["deal"]["mode"], view["deal"]["turn"]) == (30, "sequential", [game.ids["b"]])
    assert [p["card_count"] for p in view["deal"]["players"]] == [5, 5, 5]
    view = game.declares("b:in", "c:in", "a:in")
    hands = {game.name_of(h["player"]): h["value"] for h in view["deal"]["results"][-2]["data"]["hands"]}
    assert hands["b"] == "Three queens"  # EX-06
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert (view["pot"], game.stacks()) == (60, {"a": 960, "b": 1020, "c": 960})
    view = game.start()  # the pot carries
    assert view["pot"] == 60
    view = game.declares("c:out", "a:in", "b:out")
    assert view["deal"]["outcome"] == "uncontested"  # CONS-05
    assert game.hands("c")["a"] is None  # not shown
    assert [(e["game_no"], e["reason"]) for e in game.events("GameEnded")] == [(1, "uncontested")]
    assert (view["pot"], game.stacks()) == (0, {"a": 1020, "b": 1020, "c": 960})
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_alternating_ex_07_with_the_pot_limit_and_reserve() -> None:
    """ALT-02, EX-07, D-CONS-01, CAP-01/RES-01: the 8-6 gap makes three aces; the matches above the
    pot limit wait in the reserve."""
    decks = [stack_deck("Ah Ad 8c Js 6s", "Kc Kd 9c 5s 2d", "Th 7h 4d 3d 2h")]
    game = Game.open("alternating", decks, pot_limit=40)
    game.start()
    view = game.declares("b:in", "c:in", "a:in")
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands("c")["b"] == cards("Ah Ad 8c Js 6s")  # shown (G2-12)
    assert (view["pot"], view["reserve"]) == (40, 20)
    assert game.stacks() == {"a": 960, "b": 1020, "c": 960}
    assert check_conservation() == []


def refused(game: Game, name: str, endpoint: str, body: dict[str, Any], code: str, status: int = 409) -> None:
    """The command is a problem with `code`, and nothing is appended."""
    before = event_count()
    response = post(game.api(name), table_url(game.table, endpoint), body)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code
    assert event_count() == before


def act(game: Game, name: str, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
    response = post(game.api(name), table_url(game.table, endpoint), body)
    assert response.status_code == 200, (name, endpoint, body, response.content)
    return response.json()


def test_buddhas_folly_offers_over_http_then_the_coin_declare_and_the_showdown() -> None:
    """BF-01..07, D-BF-01: the middle card is public; b takes it for a royal flush and puts his two
    face up in its place; c leaves, a takes the two; the offer goes round untaken; a sealed declare;
    b's straight flush takes the pot and the others match; a timeout leaves the card."""
    deck = [*stack_deck("Ah Kh Qh Jh 2c", "9s 9d 4c 5d 7d", "As Ks 8s 8d 2d"), "Th"]  # b, c, a; middle
    game = Game.open("buddhas_folly", [deck])
    view = game.start()
    assert (view["phase"], view["deal"]["offer"]["middle"], view["deal"]["offer"]["turn"]) == (
        "offer",
        "Th",
        game.ids["b"],
    )
    offer = next(a for a in game.view("b")["legal_actions"] if a["action"] == "offer")
    assert (offer["card"], offer["give"]) == ("Th", cards("Ah Kh Qh Jh 2c"))
    refused(game, "b", "offers", {"deal_no": 1, "action": "take", "card": "9s"}, "card_not_held")
    refused(game, "c", "offers", {"deal_no": 1, "action": "leave"}, "not_your_turn")
    refused(game, "b", "offers", {"deal_no": 1, "action": "swap"}, "invalid_choice", 400)
    act(game, "b", "offers", {"deal_no": 1, "action": "take", "card": "2c"})
    assert game.hands("c")["b"] is None  # the rest: private
    assert game.view("c")["deal"]["offer"]["exchanges"] == [
        {"player": game.ids["b"], "took": "Th", "gave": "2c"}
    ]
    act(game, "c", "offers", {"deal_no": 1, "action": "leave"})
    act(game, "a", "offers", {"deal_no": 1, "action": "take", "card": "8d"})
    act(game, "b", "offers", {"deal_no": 1, "action": "leave"})
    view = act(game, "c", "offers", {"deal_no": 1, "action": "leave"})
    assert (view["phase"], view["deal"]["mode"]) == ("declare", "simultaneous")  # BF-05
    game.declares("b:in", "c:in", "a:in")
    view = game.view("c")
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands("c")["b"] == cards("Ah Kh Qh Jh Th")  # BF-06: shown
    assert (view["pot"], game.stacks()) == (60, {"a": 960, "b": 1020, "c": 960})
    assert [e["card"] for e in game.events("MiddleCardTurned")] == ["Th"]
    assert [(e["action"], e["gave"]) for e in game.events("OfferAnswered")] == [
        ("take", "2c"),
        ("leave", None),
        ("take", "8d"),
        ("leave", None),
        ("leave", None),
    ]
    history = game.api("a").get(table_url(game.table, "deals/1/history"), {"format": "json"}).json()
    assert history["offers"]["middle"] == "Th"
    assert [(x["action"], x["gave"]) for x in history["offers"]["answers"]][:3] == [
        ("take", "2c"),
        ("leave", None),
        ("take", "8d"),
    ]
    text = game.api("a").get(table_url(game.table, "deals/1/history"), {"format": "text"}).content.decode()
    assert "Middle card: Th" in text
    assert "takes Th, puts 2c in its place" in text
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_wolfies_lou_played_trick_by_trick_over_http() -> None:
    """WL-01..11, EX-09, D-WL-01..06: a draw of up to two cards, a sealed declare, the server's
    questioning names b (a flush), b chooses no trump, five tricks over POST /plays (illegal cards
    refused, nothing appended), each card public as it is played; nobody wins three tricks, so
    everybody matches the pot (WL-11) into the next pot; then a trump deal where the holder of a
    trump must play one (409 must_play_trump)."""
    decks = [
        [*stack_deck("Ah Kh 4h 3h 2h", "Ad Kd Qs Js 9c", "Qc Qd 8s 7s 6c"), "Tc", "Td"],  # b, c, a
        [*stack_deck("Ac Kc Qc Jc 9c", "2s 3s 4s 5s 7s", "Ah Kd 8h 8d 2d"), "Th", "Td"],  # c, a, b
    ]
    game = Game.open("wolfies_lou", decks)
    game.start()
    refused(game, "b", "exchanges", {"deal_no": 1, "discards": ["2h", "3h", "4h"]}, "invalid_discards", 400)
    for name in "bca":
        act(game, name, "exchanges", {"deal_no": 1, "discards": []})
    game.declares("b:in", "c:in", "a:in")
    view = game.view("c")
    assert (view["phase"], view["deal"]["trump_chooser"], view["deal"]["trump"]) == (
        "trump",
        game.ids["b"],
        None,
    )
    named = game.events("TrumpChooserNamed")[0]
    assert (named["chooser"], named["ranking"]) == (game.ids["b"], None)  # D-WL-02: sealed
    refused(game, "c", "trump", {"deal_no": 1, "trump": "h"}, "not_your_turn")
    act(game, "b", "trump", {"deal_no": 1, "trump": "no_trump"})
    assert next(a for a in game.view("b")["legal_actions"] if a["action"] == "play")["choices"] == cards(
        "Ah Kh 4h 3h 2h"
    )
    refused(game, "b", "plays", {"deal_no": 1, "card": "Ad"}, "card_not_held")
    refused(game, "c", "plays", {"deal_no": 1, "card": "Ad"}, "not_your_turn")
    refused(game, "b", "plays", {"deal_no": 1, "card": "Zz"}, "invalid_card", 400)
    tricks = [
        ("b:Ah", "c:Ad", "a:6c"),
        ("b:2h", "c:9c", "a:Qc"),
        ("a:7s", "b:3h", "c:Kd"),
        ("c:Qs", "a:Qd", "b:4h"),
        ("c:Js", "a:8s", "b:Kh"),
    ]
    for n, trick in enumerate(tricks, start=1):
        for move in trick:
            name, card = move.split(":")
            view = act(game, name, "plays", {"deal_no": 1, "card": card})
            if n < 5 or move != trick[-1]:
                assert card in json.dumps(game.view(None)["deal"]["tricks"])  # public at once
        if n == 1:
            assert game.hands("c")["b"] is None  # the rest: secret
            assert game.hands("b")["b"] == cards("Kh 4h 3h 2h")
    assert view["deal"]["outcome"] == "nobody_won"  # WL-11
    assert [t["winner"] for t in view["deal"]["tricks"]["finished"]] == [game.ids[n] for n in "bacch"[:4]] + [
        game.ids["b"]
    ]
    assert (view["pot"], game.stacks()) == (120, {"a": 960, "b": 960, "c": 960})  # D-WL-06: next pot
    assert [p["card_count"] for p in game.view("c")["deal"]["players"]] == [0, 0, 0]  # all played
    history = game.api("c").get(table_url(game.table, "deals/1/history"), {"format": "json"}).json()
    assert (history["trump"]["chooser"], history["trump"]["trump"]) == (game.ids["b"], "no_trump")
    assert [t["winner"] for t in history["tricks"]] == [game.ids[n] for n in "baccb"]
    text = game.api("c").get(table_url(game.table, "deals/1/history"), {"format": "text"}).content.decode()
    assert "; trump no_trump" in text
    assert "Trick 1: " in text
    assert text.count("Trick ") == 5

    game.start()  # c, a, b
    for name in "cab":
        act(game, name, "exchanges", {"deal_no": 2, "discards": []})
    game.declares("c:in", "a:in", "b:in")
    act(game, "c", "trump", {"deal_no": 2, "trump": "d"})  # c: a club flush
    act(game, "c", "plays", {"deal_no": 2, "card": "Ac"})
    act(game, "a", "plays", {"deal_no": 2, "card": "2s"})  # a holds no diamond
    refused(game, "b", "plays", {"deal_no": 2, "card": "Ah"}, "must_play_trump")  # b holds Kd 8d 2d
    assert next(a for a in game.view("b")["legal_actions"] if a["action"] == "play")["choices"] == cards(
        "Kd 8d 2d"
    )
    view = act(game, "b", "plays", {"deal_no": 2, "card": "2d"})
    assert view["deal"]["tricks"]["finished"][0]["winner"] == game.ids["b"]  # EX-09: the trump
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []
