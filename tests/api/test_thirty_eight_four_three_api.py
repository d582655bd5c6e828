"""Thirty Eight and Four-Three played over HTTP on stacked decks.

- Thirty Eight: T38-01..05, D-T38-01: three cards, declare, two more for the "in" players, the
  escalation (POST /tables/{id}/escalations) with the legal action's choices and risks, refusals
  (out of turn, a level not offered, lowering) as 4xx problems that append nothing, the showdown
  and the payments at each player's level into the next pot.
- Four-Three: 43-01..06, D-43-01: everybody antes, four cards, declare, three more, the sealed
  High/Low/Both declare through POST /tables/{id}/declares (sealed in every view until the reveal),
  the halves and the matches.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.money import check_conservation
from ledger.store import read_stream
from tables import service
from tables.engine.decider.program import parse_iso
from tables.timers import overdue_deadlines
from tests.api.conftest import event_count
from tests.api.test_games_api import BUY_IN, Game, cards
from tests.tables.conftest import stack_deck
from tests.tables.http import post, table_url

pytestmark = pytest.mark.django_db


def escalate(game: Game, name: str, action: Any, deal_no: int | None = None) -> Any:
    body = {"deal_no": deal_no or game.view()["deal_no"], "action": action}
    return post(game.api(name), table_url(game.table, "escalations"), body)


def escalates(game: Game, *moves: str) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for move in moves:
        name, action = move.split(":")
        response = escalate(game, name, action)
        assert response.status_code == 200, (move, response.content)
        answer = response.json()
    return answer


def refused(response: Any, status: int, code: str, before: int) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code
    assert event_count() == before


def action_of(game: Game, name: str, kind: str) -> dict[str, Any] | None:
    return next((a for a in game.view(name)["legal_actions"] if a["action"] == kind), None)


def test_variants_list_thirty_eight_and_four_three(player_api: APIClient) -> None:
    catalog = {v["name"]: v for v in player_api.get("/api/v1/variants").json()}
    t38, f43 = catalog["thirty_eight"], catalog["four_three"]
    steps = [s["kind"] for s in t38["stages"][0]["steps"]]
    assert "escalation" in steps
    assert "betting" not in steps
    assert (t38["max_seats"], f43["max_seats"]) == (10, 7)  # D-GEN-02
    declare = next(s for s in f43["stages"][1]["steps"] if s["kind"] == "declare")
    assert (declare["mode"], declare["choices"]) == ("simultaneous", ["high", "low", "both"])  # 43-03


def test_thirty_eight_session_with_the_escalation() -> None:
    # order b, c, d, a; b: aces full, c: kings (3s and 8s wild: none here), a: queens
    three = stack_deck("As Ad Ac", "Ks Kh 9c", "Qc Jc 7d", "Qs Qh Jd")
    two = stack_deck("Kd Kc", "7h 2s", "6s 4s")  # to b, c, a
    game = Game.open("thirty_eight", [[*three, *two]], players="abcd")
    view = game.start()
    assert (view["pot"], view["phase"]) == (40, "declare")
    assert game.declare_action("b")["in_cost"] == 120  # D-GEN-06: triple
    view = game.declares("b:in", "c:in", "d:out", "a:in")
    assert view["phase"] == "escalation"
    assert [p["card_count"] for p in view["deal"]["players"]] == [5, 5, 3, 5]  # T25-02
    assert action_of(game, "c", "escalate") is None
    action = action_of(game, "b", "escalate")
    assert action is not None
    assert (action["choices"], action["risks"]) == (
        ["single", "double", "triple", "fold"],
        {"single": 40, "double": 80, "triple": 120, "fold": 40},
    )

    before = event_count()
    refused(escalate(game, "c", "double"), 409, "not_your_turn", before)  # out of turn
    refused(escalate(game, "b", "quadruple"), 400, "invalid_choice", before)  # beyond triple
    refused(escalate(game, "b", "double", deal_no=7), 409, "wrong_deal", before)
    refused(escalate(game, "d", "single"), 409, "not_your_turn", before)  # out player
    outsider = post(
        game.club.outsider, table_url(game.table, "escalations"), {"deal_no": 1, "action": "single"}
    )
    refused(outsider, 403, "not_seated", before)

    escalates(game, "b:single", "c:double")
    before = event_count()
    refused(escalate(game, "a", "single"), 409, "level_too_low", before)  # lowering
    assert action_of(game, "a", "escalate")["risks"] == {"double": 80, "triple": 120, "fold": 40}
    view = escalates(game, "a:fold")
    assert view["deal"]["escalation"]["level"] == "double"
    view = escalates(game, "b:double")
    # T38-05, D-T38-01: b shows aces full against c's kings and takes the pot of 40; c pays the
    # pot at double (80), a the single he had accepted (40): the next pot is 120.
    assert view["deal"]["winners"] == [game.ids["b"]]
    assert game.hands("d")["b"] == cards("As Ad Ac Kd Kc")  # shown to all
    assert game.hands("d")["a"] is None  # folded: unseen
    assert (view["pot"], game.stacks()) == (120, {"a": 950, "b": 1030, "c": 910, "d": 990})
    assert list(game.moves("PotSettled")) == [
        ("pot", "b", 40, "pot_won"),
        ("c", "pot", 80, "pot_matched"),
        ("a", "pot", 40, "pot_matched"),
    ]
    answers = [(game.name_of(e["player"]), e["action"], e["level"]) for e in game.events("Escalated")]
    assert answers == [("b", "single", 1), ("c", "double", 2), ("a", "fold", 1), ("b", "double", 2)]
    assert game.money() == 4 * BUY_IN
    assert check_conservation() == []


HIGH_B = "5h 6d 7c 3s 8h 9d 2c"  # a 5-9 straight
HIGH_C = "As Ad Ac Kd Ks 9c Qh"  # aces full
LOW_A = "Ah 2d 3c 4s 6h Jd Qs"  # 6-4-3-2-A low


def seven(*hands: str) -> list[str]:
    split = [h.split() for h in hands]
    return [*stack_deck(*(" ".join(h[:4]) for h in split)), *stack_deck(*(" ".join(h[4:]) for h in split))]


def test_four_three_session_with_the_sealed_high_low_declare() -> None:
    game = Game.open("four_three", [seven(HIGH_B, HIGH_C, LOW_A)], players="abc")
    view = game.start()
    assert view["pot"] == 30  # 43-01
    before = event_count()
    refused(game.declare("b", "high"), 400, "invalid_choice", before)  # not offered yet
    view = game.declares("b:in", "c:in", "a:in", stage=1)
    assert view["deal"]["stage"] == 2
    assert view["deal"]["mode"] == "simultaneous"
    assert [p["card_count"] for p in view["deal"]["players"]] == [7, 7, 7]  # 43-02
    assert game.declare_action("b")["choices"] == ["high", "low", "both"]  # 43-03
    before = event_count()
    refused(game.declare("b", "in"), 400, "invalid_choice", before)
    refused(game.declare("b", "maybe"), 400, "invalid_choice", before)
    refused(game.declare("b", "high", stage=1), 409, "wrong_stage", before)
    game.declares("a:low", "b:high", stage=2)
    for viewer in ("b", "c", None):  # sealed (SIM-01)
        declared = {game.name_of(p["player"]): p["declared"] for p in game.view(viewer)["deal"]["players"]}
        assert declared["a"] == "sealed"
        assert declared["b"] == ("high" if viewer == "b" else "sealed")
    assert all(e["choice"] is None for e in game.events("Declared")[-2:])  # the feed, too
    view = game.declares("c:high", stage=2)
    # 43-05, D-43-01: c's aces full take the High half (15), a's 6-low the Low half (15); b wins
    # nothing and matches the pot of 30 (43-06).
    assert view["deal"]["sides"] == {"high": [game.ids["c"]], "low": [game.ids["a"]]}
    revealed = game.events("DeclaresRevealed")[-1]["choices"]
    assert {game.name_of(p): c for p, c in revealed.items()} == {"b": "high", "c": "high", "a": "low"}
    assert (view["pot"], game.stacks()) == (30, {"a": 1005, "b": 960, "c": 1005})
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []


def test_thirty_eight_an_escalation_turn_gets_a_timer_and_times_out_safely() -> None:
    """The declare timers serve the escalation (DESIGN 2.8): the turn's deadline is in the
    projection the timers read; at the deadline the first turn accepts single (it costs nothing
    more), and a player facing a raise folds at the level he had accepted."""
    three = stack_deck("As Ad Ac", "Ks Kh 9c", "Qs Qh Jd")
    game = Game.open("thirty_eight", [[*three, *stack_deck("Kd Kc", "7h 2s", "6s 4s")]])
    game.start()
    game.declares("b:in", "c:in", "a:in")

    def expire() -> list[tuple[str, str, int, bool]]:
        opened = [e for e in read_stream(f"table-{game.table}") if e.type == "EscalationOpened"]
        due = parse_iso(opened[-1].data["deadline"])
        assert [d.due for d in overdue_deadlines(due) if d.table_id == game.table] == [due]
        service.deal_expire(table_id=game.table, deal_no=1, now=due)
        return [
            (game.name_of(e.data["player"]), e.data["action"], e.data["level"], e.data["timed_out"])
            for e in read_stream(f"table-{game.table}")
            if e.type == "Escalated"
        ]

    assert expire() == [("b", "single", 1, True)]
    escalates(game, "c:double")
    assert expire()[-1] == ("a", "fold", 1, True)
    view = escalates(game, "b:double")
    assert (view["pot"], view["deal"]["winners"]) == (90, [game.ids["b"]])  # c 60, a 30 (single)


def test_four_three_with_its_optional_betting_round() -> None:
    """43-07, D-BET: with betting=true, a fixed-limit round after the three more cards and before
    the High/Low/Both declare (POST /tables/{id}/bets); a folder does not declare, is not shown and
    still matches the pot at its pre-betting size; the bets go to the winner(s)."""
    game = Game.open("four_three", [seven(HIGH_B, HIGH_C, LOW_A)], players="abc", betting=True)
    game.start()
    view = game.declares("b:in", "c:in", "a:in", stage=1)
    assert view["phase"] == "betting"
    for name, action in (("b", "bet"), ("c", "call"), ("a", "fold")):
        body = {"deal_no": 1, "action": action}
        response = post(game.api(name), table_url(game.table, "bets"), body)
        assert response.status_code == 200, response.content
    view = game.view("b")
    assert (view["phase"], view["pot"]) == ("declare", 30)
    assert game.declare_action("a") is None  # folded
    view = game.declares("b:high", "c:low", stage=2)
    # b alone plays High and c alone Low: each takes a half of the pre-betting pot of 30 (43-05);
    # the folder a matches 30 (D-BET); the bets (10 + 10) are shared by b and c.
    assert view["deal"]["sides"] == {"high": [game.ids["b"]], "low": [game.ids["c"]]}
    assert (view["pot"], game.stacks()) == (30, {"a": 960, "b": 1005, "c": 1005})
    assert game.money() == 3 * BUY_IN
    assert check_conservation() == []
