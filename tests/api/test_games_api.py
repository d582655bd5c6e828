"""The four games played end to end over HTTP on stacked decks (GUTS_ALLOW_STACKED_DECKS).

Each session checks, after every command, what GET /tables/{id} shows: `deal.stage` (1-based),
`seats[].legs`, each seat's face-up cards (422-05), the board (423-02), the caller's legal actions
(the declare action names its stage) and the stacks and pot after each settlement, worked out here
from the rules (not from the engine):

- Two plus One: TPO-01..04, D-TPO-01 (a lone "in" takes the pot without a third card; the extra
  ante goes into the pot; going out at the re-declare forfeits only the extra ante);
- Four-Two-Two: 422-02..08, EX-03 (max_loss, CAP_PAY_LIMIT_ONLY), 42X-01/D-42X-02 (only who went out
  antes again), 42X-02/D-42X-03 (nobody in: the best hand and every holder of a 2 match the pot);
- Four-Two-Three: 423-01..03 (three public board cards, best five of seven);
- Three-Five-Seven: TSG-01..03, 357-01..25, D-357-01..03 (losers pay winners seat to seat, the pot
  stays; a lone "in" earns a leg; three legs take the pot and end the game; new ante each hand).

Also: GET /variants lists each game's stages and options with rule IDs, a declare naming another
stage is 409 `wrong_stage`, and a table with more seats than one pack serves is 400
`invalid_option` (D-GEN-02).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from http_edge.api.errors import PROBLEM_STATUS
from ledger.money import check_conservation
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

ANTE, BUY_IN, BANKROLL = 10, 1000, 5000
NEW_GAMES = ("two_plus_one", "four_two_two", "four_two_three", "three_five_seven")


@dataclass
class Game:
    """A table of one variant with players named a, b, c... seated in that order (seat 0 = a).

    The first deal's dealer is seat 0, so deal 1 is dealt b, c, ..., a; each deal passes the
    button one seat clockwise (D-GEN-05)."""

    club: Club
    table: str
    ids: dict[str, str]  # name -> player id

    @classmethod
    def open(cls, variant: str, decks: list[list[str]], players: str = "abc", **options: Any) -> Game:
        club = Club.create(players=len(players), bankroll=BANKROLL)
        body = {
            "variant": variant,
            "options": {"ante": ANTE, "min_buy_in": 100, **options},
            "stacked_decks": decks,
        }
        with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
            response = post(club.admin, "/api/v1/tables", body)
        assert response.status_code == 201, response.content
        table = response.json()["table_id"]
        club.seat_all(table, BUY_IN)
        return cls(club, table, dict(zip(players, (str(p) for p in club.players), strict=True)))

    def api(self, name: str) -> APIClient:
        return self.club.players[int(self.ids[name])]

    def name_of(self, player: str) -> str:
        return next(name for name, pid in self.ids.items() if pid == player)

    def view(self, name: str | None = None) -> dict[str, Any]:
        """GET /tables/{id} as a player (or, with no name, as a player never seated)."""
        client = self.club.outsider if name is None else self.api(name)
        response = client.get(table_url(self.table))
        assert response.status_code == 200, response.content
        return response.json()

    def start(self) -> dict[str, Any]:
        response = post(self.api("a"), table_url(self.table, "deals"))
        assert response.status_code == 200, response.content
        return response.json()

    def declare(self, name: str, choice: str, *, stage: int | None = None) -> Any:
        body: dict[str, Any] = {"deal_no": self.view()["deal_no"], "choice": choice}
        if stage is not None:
            body["stage"] = stage
        return post(self.api(name), table_url(self.table, "declares"), body)

    def declares(self, *moves: str, stage: int | None = None) -> dict[str, Any]:
        """Each move "name:choice" in turn (stage named when given); the last answer."""
        answer: dict[str, Any] = {}
        for move in moves:
            name, choice = move.split(":")
            response = self.declare(name, choice, stage=stage)
            assert response.status_code == 200, (move, response.content)
            answer = response.json()
        return answer

    def stacks(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["stack"] for s in self.view()["seats"]}

    def legs(self) -> dict[str, int]:
        return {self.name_of(s["player"]): s["legs"] for s in self.view()["seats"]}

    def hands(self, viewer: str | None = None) -> dict[str, list[str] | None]:
        return {self.name_of(p["player"]): p["cards"] for p in self.view(viewer)["deal"]["players"]}

    def face_up(self, viewer: str | None = None) -> dict[str, list[str]]:
        return {self.name_of(p["player"]): p["face_up"] for p in self.view(viewer)["deal"]["players"]}

    def declare_action(self, name: str) -> dict[str, Any] | None:
        return next((a for a in self.view(name)["legal_actions"] if a["action"] == "declare"), None)

    def refused_stage(self, name: str, stage: int, open_stage: int) -> None:
        """A declare naming a stage other than the open declare's: 409 wrong_stage, nothing stored."""
        before = event_count()
        response = self.declare(name, "in", stage=stage)
        assert response.status_code == 409, response.content
        assert response["Content-Type"] == "application/problem+json"
        problem = response.json()
        assert (problem["code"], problem["stage"]) == ("wrong_stage", open_stage)
        assert event_count() == before

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The table's events of one type, as a player never seated reads them."""
        response = self.club.outsider.get(table_url(self.table, "events"), {"type": kind, "limit": 500})
        assert response.status_code == 200, response.content
        return [event["data"] for event in response.json()["results"]]

    def moves(self, kind: str) -> list[tuple[str, str, int, str]]:
        """(from, to, amount, reason) of every transfer of the events of one type, by name."""
        return [
            (self.short(t["from"]), self.short(t["to"]), t["amount"], t["reason"])
            for data in self.events(kind)
            for t in data["transfers"]
        ]

    def short(self, account: str) -> str:
        kind, _, rest = account.partition(":")
        return self.name_of(rest.rsplit(":", 1)[1]) if kind == "seat" else kind

    def money(self) -> int:
        view = self.view()
        return sum(s["stack"] for s in view["seats"]) + view["pot"] + view["reserve"]


def cards(text: str) -> list[str]:
    return text.split()


# --- GET /variants, D-GEN-02 -----------------------------------------------------------------------


def test_variants_lists_each_new_game_with_its_stages_and_options(player_api: APIClient) -> None:
    response = player_api.get("/api/v1/variants")
    assert response.status_code == 200
    catalog = {v["name"]: v for v in response.json()}
    assert set(NEW_GAMES) <= set(catalog)
    for name in NEW_GAMES:
        variant = catalog[name]
        assert variant["stages"], name
        assert [s["stage"] for s in variant["stages"]] == list(range(1, len(variant["stages"]) + 1))
        assert all(
            s["name"] and s["steps"] and all("kind" in step for step in s["steps"]) for s in variant["stages"]
        )
        assert all(o["rule"] for o in variant["options"]), name
        assert set(variant["defaults"]) == {o["name"] for o in variant["options"]}
    tpo, f22, f23, tsg = (catalog[name] for name in NEW_GAMES)
    assert [s["name"] for s in tsg["stages"]] == ["three cards", "five cards", "seven cards"]  # 357-01
    assert next(kinds(s) for s in tsg["stages"])[:2] == ["ante", "deal"]  # 357-05
    assert [step_of(s, "deal")["count"] for s in tsg["stages"]] == [3, 2, 2]  # Table 357
    assert [step_of(s, "showdown")["wild"] for s in tsg["stages"]] == [[3], [5], [7]]  # D-357-03
    assert [step_of(s, "showdown").get("private", False) for s in tsg["stages"]] == [True, True, False]
    assert all(step_of(s, "settle")["rule"] == "losers_pay_winners" for s in tsg["stages"])  # D-357-01
    assert (tsg["max_seats"], tsg["game_ends"]) == (7, "legs_reached")  # D-GEN-02
    assert option(tsg, "seats")["maximum"] == 7
    assert [s["name"] for s in tpo["stages"]] == ["two cards", "plus one"]
    assert step_of(tpo["stages"][1], "deal") == {
        "kind": "deal",
        "count": 1,
        "face": "down",
        "to": "in_players",
    }  # D-TPO-01
    assert "TPO-04" in option(tpo, "extra_ante_redeclare")["rule"]
    assert step_of(f22["stages"][0], "declare")["mode"] == "simultaneous"  # 422-04
    assert {"kind": "deal", "count": 2, "face": "up", "to": "in_players"} in f22["stages"][0]["steps"]
    assert {"kind": "deal", "count": 3, "face": "up", "to": "board"} in f23["stages"][0]["steps"]
    for four in (f22, f23):
        assert "422-07" in option(four, "max_loss")["rule"]
        assert option(four, "lone_in")["choices"] == ["takes_pot", "vs_deck"]  # D-42X-01
        assert "42X-03" in option(four, "lone_in")["rule"]
        assert four["game_ends"] == "lone_in_wins"  # 422-08


def kinds(stage: dict[str, Any]) -> list[str]:
    return [step["kind"] for step in stage["steps"]]


def step_of(stage: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(step for step in stage["steps"] if step["kind"] == kind)


def option(variant: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in variant["options"] if o["name"] == name)


@pytest.mark.parametrize(
    ("variant", "most"),
    [("three_five_seven", 7), ("four_two_two", 8), ("four_two_three", 11), ("two_plus_one", 17)],
)
def test_more_seats_than_one_pack_serves_is_invalid_option(
    admin_api: APIClient, variant: str, most: int
) -> None:
    """D-GEN-02: 357 deals 7 cards each (at most 7 players, Q-357-05); 422 six each and four for the
    deck (42X-03); 423 four each, three on the board and four for the deck; TPO three each."""
    before = event_count()
    response = post(admin_api, "/api/v1/tables", {"variant": variant, "options": {"seats": most + 1}})
    assert response.status_code == 400, response.content
    problem = response.json()
    assert (problem["code"], problem["option"]) == ("invalid_option", "seats")
    assert PROBLEM_STATUS["invalid_option"][0] == 400
    assert event_count() == before
    fits = post(admin_api, "/api/v1/tables", {"variant": variant, "options": {"seats": most}})
    assert fits.status_code == 201, fits.content


# --- Three-Five-Seven ------------------------------------------------------------------------------

# Deal 1 is dealt b, c, a (dealer a); deal 2 c, a, b (dealer b). No 3, 5 or 7 anywhere: no wild card.
TSG_DEAL_1 = (
    stack_deck("Ah Ad Ac", "Kh Kd 9c", "2c 4d 6h")  # stage 1: b trips, c a pair
    + stack_deck("8s 9s", "2s 4s", "Ts Tc")  # stage 2
    + stack_deck("Jd Qc", "6c 8c", "Th Td")
)  # stage 3: a four tens, b three aces
TSG_DEAL_2 = (
    stack_deck("2d 4h 8d", "9h Jh Qs", "Ks 6s 4c")
    + stack_deck("9d Jc", "2h Kc", "6d 8h")
    + stack_deck("Tc Qd", "Js Qh", "Ad Kd")
)


def test_three_five_seven_stages_legs_and_losers_paying_winners() -> None:
    """TSG-01..03, 357-01..25, D-357-01..03 over HTTP: three stages of 3, 5, 7 cards; out players keep
    their cards; a contested stage is paid seat to seat and the pot stays; one "in" earns a leg;
    the third leg takes the pot and ends the game; each new hand antes again."""
    game = Game.open("three_five_seven", [TSG_DEAL_1, TSG_DEAL_2])
    view = game.start()
    assert (view["deal"]["stage"], view["pot"], view["phase"]) == (1, 30, "declare")  # 357-05
    assert game.stacks() == {"a": 990, "b": 990, "c": 990}
    assert game.legs() == {"a": 0, "b": 0, "c": 0}
    assert game.hands("b") == {"b": cards("Ah Ad Ac"), "c": None, "a": None}
    action = game.declare_action("b")
    assert action is not None
    assert (action["stage"], action["choices"], action["in_cost"]) == (1, ["in", "out"], 30)
    assert game.declare_action("c") is None  # not his turn yet
    game.refused_stage("b", 2, open_stage=1)
    game.declares("b:in", stage=1)
    game.declares("c:in")  # stage optional
    view = game.declares("a:out", stage=1)
    # 357-09..11, D-357-01: b's trips beat c's pair in private; c pays b the pot; the pot stays.
    assert (view["deal"]["stage"], view["pot"]) == (2, 30)  # 357-13
    assert game.stacks() == {"a": 990, "b": 1020, "c": 960}
    assert game.moves("PotSettled") == [("c", "b", 30, "loser_paid")]  # seat to seat
    assert [p["card_count"] for p in view["deal"]["players"]] == [5, 5, 5]  # 357-14, TSG-03
    assert game.hands("a") == {"b": None, "c": None, "a": cards("2c 4d 6h Ts Tc")}
    assert game.declare_action("b")["stage"] == 2
    game.refused_stage("b", 1, open_stage=2)
    game.refused_stage("b", 3, open_stage=2)
    view = game.declares("b:out", "c:out", "a:in", stage=2)  # 357-16: one "in"
    assert (view["deal"]["stage"], view["pot"]) == (3, 30)
    assert game.legs() == {"a": 1, "b": 0, "c": 0}  # 357-03
    assert game.stacks() == {"a": 990, "b": 1020, "c": 960}
    assert [p["card_count"] for p in view["deal"]["players"]] == [7, 7, 7]  # 357-19
    assert game.declare_action("b")["stage"] == 3
    view = game.declares("b:in", "c:out", "a:in", stage=3)
    # 357-23: shown; a's four tens beat b's three aces; b pays a the pot; the pot stays.
    assert view["deal"]["over"]
    assert view["phase"] == "between_deals"
    assert game.stacks() == {"a": 1020, "b": 990, "c": 960}
    assert (view["pot"], game.legs()) == (30, {"a": 1, "b": 0, "c": 0})  # 357-24
    assert game.hands() == {
        "b": cards("Ah Ad Ac 8s 9s Jd Qc"),
        "c": None,
        "a": cards("2c 4d 6h Ts Tc Th Td"),
    }  # out keeps his cards
    assert game.declare_action("a") is None

    view = game.start()  # dealer b: c, a, b
    assert (view["deal"]["stage"], view["pot"], view["game_no"]) == (1, 60, 1)  # 357-24: new ante
    assert game.stacks() == {"a": 1010, "b": 980, "c": 950}
    assert game.legs() == {"a": 1, "b": 0, "c": 0}  # legs are kept
    view = game.declares("c:out", "a:out", "b:out")  # 357-07: nothing
    assert (view["deal"]["stage"], view["pot"]) == (2, 60)
    assert game.stacks() == {"a": 1010, "b": 980, "c": 950}
    view = game.declares("c:out", "a:in", "b:out", stage=2)
    assert (view["deal"]["stage"], game.legs()["a"]) == (3, 2)
    view = game.declares("c:out", "a:in", "b:out", stage=3)  # 357-22, 357-25
    assert view["deal"]["over"]
    assert view["deal"]["outcome"] == "pot_awarded"
    assert view["deal"]["winners"] == [game.ids["a"]]
    assert (view["pot"], view["reserve"]) == (0, 0)
    assert game.stacks() == {"a": 1070, "b": 980, "c": 950}
    assert game.legs() == {"a": 0, "b": 0, "c": 0}  # the game ended
    assert game.moves("PotAwarded") == [("pot", "a", 60, "pot_awarded")]
    assert [(e["game_no"], e["reason"]) for e in game.events("GameEnded")] == [(1, "pot_awarded")]
    assert game.moves("PotSettled") == [("c", "b", 30, "loser_paid"), ("b", "a", 30, "loser_paid")]
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_three_five_seven_third_leg_in_an_early_stage_takes_the_pot_at_once() -> None:
    """357-25: as soon as a player has three legs, whichever the stage, he wins the pot and the
    game ends; the hand's later stages are not dealt. 357-21: nobody "in" at stage three, the
    cards are thrown in. With simultaneous (sealed) declares (357-06)."""
    game = Game.open("three_five_seven", [TSG_DEAL_1, TSG_DEAL_2], declare_mode="simultaneous")
    game.start()
    assert game.view()["deal"]["mode"] == "simultaneous"
    game.declares("a:out", "c:out", "b:in", stage=1)
    game.declares("c:out", "b:in", "a:out", stage=2)
    view = game.declares("b:out", "c:out", "a:out", stage=3)  # 357-21
    assert view["deal"]["over"]
    assert (view["pot"], game.legs()) == (30, {"a": 0, "b": 2, "c": 0})
    view = game.start()
    assert (view["pot"], view["game_no"]) == (60, 1)
    view = game.declares("b:in", "a:out", "c:out", stage=1)
    assert view["deal"]["over"]
    assert view["deal"]["stage"] == 1
    assert [p["card_count"] for p in view["deal"]["players"]] == [3, 3, 3]
    assert (view["deal"]["outcome"], view["deal"]["winners"]) == ("pot_awarded", [game.ids["b"]])
    assert (view["pot"], game.stacks()) == (0, {"a": 980, "b": 1040, "c": 980})
    assert game.legs() == {"a": 0, "b": 0, "c": 0}
    view = game.start()  # a new game
    assert (view["pot"], view["game_no"]) == (30, 2)


# --- Two plus One ----------------------------------------------------------------------------------


def test_two_plus_one_third_card_extra_ante_and_redeclare() -> None:
    """TPO-01..04, D-TPO-01 with the extra-ante option: deal 1 b and c pay the extra ante, get a
    third card (face down) and re-declare at stage 2; c goes out and forfeits only the extra ante;
    deal 2 a lone "in" at stage 1 takes the pot without a third card; deal 3 is contested: the
    best three-card hand (Table 3C) takes the pot and the loser matches it (G2-13)."""
    decks = [
        [*stack_deck("Ks Kd", "Qs Qd", "2c 9h"), "4s", "8h"],  # b, c, a; then b, c
        stack_deck("Jc Tc", "4c 6d", "Ac 3d"),  # c, a, b
        [*stack_deck("As Ah", "Kc Kh", "5d 6s"), "Ad", "2d"],
    ]  # a, b, c; then a, b
    game = Game.open("two_plus_one", decks, extra_ante_redeclare=True)
    view = game.start()
    assert (view["deal"]["stage"], view["pot"]) == (1, 30)
    assert [p["card_count"] for p in view["deal"]["players"]] == [2, 2, 2]  # TPO-01
    assert game.declare_action("b")["stage"] == 1
    game.refused_stage("b", 2, open_stage=1)
    view = game.declares("b:in", "c:in", "a:out", stage=1)
    # TPO-04, D-TPO-01: the "in" players ante again into the pot and get a third card face down.
    assert (view["deal"]["stage"], view["pot"]) == (2, 50)
    assert game.stacks() == {"a": 990, "b": 980, "c": 980}
    assert [p["card_count"] for p in view["deal"]["players"]] == [3, 3, 2]  # TPO-02
    assert game.hands("b") == {"b": cards("Ks Kd 4s"), "c": None, "a": None}
    assert game.declare_action("a") is None  # he is out
    assert game.declare_action("b")["stage"] == 2
    game.refused_stage("b", 1, open_stage=2)
    view = game.declares("b:in", stage=2)
    view = game.declares("c:out")  # forfeits the extra ante, does not match
    assert view["deal"]["over"]
    assert view["deal"]["outcome"] == "uncontested"
    assert (view["pot"], game.stacks()) == (0, {"a": 990, "b": 1030, "c": 980})

    view = game.start()  # c, a, b
    assert view["pot"] == 30
    view = game.declares("c:in", "a:out", "b:out", stage=1)  # D-TPO-01
    assert view["deal"]["over"]
    assert view["deal"]["outcome"] == "uncontested"
    assert [p["card_count"] for p in view["deal"]["players"]] == [2, 2, 2]  # no third card
    assert (view["pot"], game.stacks()) == (0, {"a": 980, "b": 1020, "c": 1000})

    view = game.start()  # a, b, c
    view = game.declares("a:in", "b:in", "c:out", stage=1)
    assert (view["deal"]["stage"], view["pot"]) == (2, 50)
    view = game.declares("a:in", "b:in", stage=2)
    # TPO-03: a's trips (As Ah Ad) beat b's pair of kings; b matches the pot of 50.
    assert view["deal"]["outcome"] == "won"
    assert view["deal"]["winners"] == [game.ids["a"]]
    assert game.hands("c") == {"a": cards("As Ah Ad"), "b": cards("Kc Kh 2d"), "c": cards("5d 6s")}
    assert (view["pot"], game.stacks()) == (50, {"a": 1010, "b": 950, "c": 990})
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_two_plus_one_without_the_option_deals_the_third_card_and_shows_down_at_once() -> None:
    """TPO-02/03 with the defaults: no second declare; the table's declare mode (D-TPO-01)."""
    deck = [*stack_deck("Ks Kd", "Qs Qd", "2c 9h"), "4s", "8h"]
    game = Game.open("two_plus_one", [deck], declare_mode="simultaneous")
    game.start()
    game.refused_stage("a", 2, open_stage=1)
    view = game.declares("a:out", "c:in", "b:in", stage=1)
    assert view["deal"]["over"]
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands() == {"b": cards("Ks Kd 4s"), "c": cards("Qs Qd 8h"), "a": None}
    assert (view["pot"], game.stacks()) == (30, {"a": 990, "b": 1020, "c": 960})


# --- Four-Two-Two / Four-Two-Three -----------------------------------------------------------------


def test_four_two_two_face_up_cards_max_loss_and_the_lone_in_ending_the_game() -> None:
    """422-02..08, EX-03, D-42X-02, 42X-02/D-42X-03: four cards down, a sealed coin declare, two
    public face-up cards to each "in" player, best five of six with 2s wild; losers match the pot
    capped at max_loss; only the players who went out ante again; a lone "in" takes the pot and
    the game ends; the next game, all out: the best four cards and every 2 match the pot."""
    decks = [
        stack_deck("Ah Ad 9c 8c", "Kh Kd 9d 8d", "Qh Qd 9h 8h", "Jc Tc 6c 4c")  # b, c, d, a
        + stack_deck("As Ac", "Ks Kc", "6d 4d"),  # b, c, d up
        stack_deck("Js Jd 6h 4h", "Th 9s 8s 6s", "Jh Td Qs Qc", "Ts 4s 5h 2s"),  # c, d, a, b
        stack_deck("Ah Ad Ac 4c", "Kh 2d 9c 8c", "Qh Jd 9h 8h", "6s 4s Th Td"),
    ]  # d, a, b, c
    game = Game.open("four_two_two", decks, players="abcd", max_loss=25)
    view = game.start()
    assert (view["deal"]["stage"], view["pot"], view["deal"]["mode"]) == (1, 40, "simultaneous")
    assert game.declare_action("b")["stage"] == 1
    assert game.declare_action("c")["stage"] == 1
    game.refused_stage("c", 2, open_stage=1)
    game.declares("b:in", "d:in", stage=1)
    assert game.face_up() == {"b": [], "c": [], "d": [], "a": []}
    declared = {game.name_of(p["player"]): p["declared"] for p in game.view("c")["deal"]["players"]}
    assert declared == {"b": "sealed", "c": None, "d": "sealed", "a": None}  # SIM-01, 422-04
    assert game.declare_action("b") is None
    view = game.declares("c:in", "a:out")
    # 422-05: b, c, d get two face-up cards each; b's four aces win (2s wild, five of six).
    up = {"b": cards("As Ac"), "c": cards("Ks Kc"), "d": cards("6d 4d"), "a": []}
    assert game.face_up() == up
    assert game.face_up("a") == up
    assert game.face_up("b") == up
    assert [p["card_count"] for p in view["deal"]["players"]] == [6, 6, 6, 4]
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert view["deal"]["board"] == []
    # 422-06/07, EX-03: the pot is 40, each loser pays only 25 into it; b takes the 40.
    assert (view["pot"], game.stacks()) == (50, {"a": 990, "b": 1030, "c": 965, "d": 965})
    assert view["game_no"] == 1

    view = game.start()  # c, d, a, b
    assert (view["pot"], game.stacks()["a"]) == (60, 980)  # D-42X-02
    assert game.stacks() == {"a": 980, "b": 1030, "c": 965, "d": 965}
    view = game.declares("c:in", "d:out", "a:out", "b:out", stage=1)
    assert view["deal"]["outcome"] == "uncontested"  # 422-08
    assert game.face_up() == {"c": [], "d": [], "a": [], "b": []}  # no more cards
    assert (view["pot"], game.stacks()) == (0, {"a": 980, "b": 1030, "c": 1025, "d": 965})
    assert [(e["game_no"], e["reason"]) for e in game.events("GameEnded")] == [(1, "uncontested")]

    view = game.start()  # a new game
    assert (view["game_no"], view["pot"]) == (2, 40)  # all ante
    view = game.declares("d:out", "a:out", "b:out", "c:out")
    # 42X-02, D-42X-03/04: d's three aces are the best four cards; d and a (who holds a 2) each
    # match the pot once, capped at max_loss, into the pot; every hand is shown.
    assert game.hands() == {
        "d": cards("Ah Ad Ac 4c"),
        "a": cards("Kh 2d 9c 8c"),
        "b": cards("Qh Jd 9h 8h"),
        "c": cards("6s 4s Th Td"),
    }
    assert view["deal"]["over"]
    stacks = game.stacks()
    assert (view["pot"], stacks) == (90, {"a": 945, "b": 1020, "c": 1015, "d": 930})
    assert game.money() == 4 * BUY_IN
    assert check_conservation() == []


def test_four_two_three_board_cards_are_public_and_count_for_everyone() -> None:
    """423-01..03: after the sealed declare three face-up board cards, seen by every viewer; each
    "in" hand is the best five of its four cards and the board; then as 422 (a lone "in" takes
    the pot and ends the game, D-42X-02 antes)."""
    decks = [
        [*stack_deck("Ah Kd 9c 8c", "Qh Jd 9d 8d", "Qs Js 4h 6h", "Tc 6c 4c 3c"), "As", "Ad", "Kh"],
        stack_deck("Js Jd 6d 4d", "Th 9s 8s 6s", "Jh Td Qs Qc", "Ts 4s 2h 2s"),
    ]
    game = Game.open("four_two_three", decks, players="abcd")
    view = game.start()  # b, c, d, a
    assert (view["deal"]["stage"], view["pot"], view["deal"]["board"]) == (1, 40, [])
    game.refused_stage("b", 2, open_stage=1)
    view = game.declares("b:in", "c:in", "d:out", "a:out", stage=1)
    board = cards("As Ad Kh")
    for viewer in (None, "a", "b", "c", "d"):
        assert game.view(viewer)["deal"]["board"] == board  # 423-02
        assert game.face_up(viewer) == {"b": [], "c": [], "d": [], "a": []}
    # 423-03: b's aces full of kings (Ah Kd + As Ad Kh) beat c's pair of aces; c matches the pot.
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands("d") == {
        "b": cards("Ah Kd 9c 8c"),
        "c": cards("Qh Jd 9d 8d"),
        "d": cards("Qs Js 4h 6h"),
        "a": None,
    }
    assert (view["pot"], game.stacks()) == (40, {"a": 990, "b": 1030, "c": 950, "d": 990})

    view = game.start()  # c, d, a, b
    assert (view["pot"], game.stacks()) == (60, {"a": 980, "b": 1030, "c": 950, "d": 980})
    view = game.declares("c:out", "d:out", "a:in", "b:out", stage=1)
    assert view["deal"]["outcome"] == "uncontested"
    assert view["deal"]["board"] == []
    assert (view["pot"], game.stacks()) == (0, {"a": 1040, "b": 1030, "c": 950, "d": 980})
    assert game.money() == 4 * BUY_IN
    assert check_conservation() == []
