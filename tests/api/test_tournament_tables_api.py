"""Players at a tournament table use the table endpoints they know: they declare, and
read the table and its deals, redacted exactly as at a cash table (DESIGN §2.6); sitting down,
topping up, leaving, sitting out and starting a deal are a clean 409 tournament_table."""

from __future__ import annotations

import uuid

import pytest
from django.test import override_settings

from tables import service
from tables.api.serializers import TableOutputSerializer
from tables.engine.decider import commands as cmd
from tests.api.test_tables_api import documented
from tests.api.test_tables_redaction import CHOICES, HANDS, Observer, Truth, check_table, finish, walk
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

TID = str(uuid.uuid4())


def tournament_table(club: Club, *, mode: str = "sequential") -> str:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table = service.table_open(
            variant="guts2",
            options={"ante": 10, "declare_mode": mode},
            stacked_decks=[stack_deck(*hands) for hands in HANDS],
            tournament_id=TID,
        ).table_id
    for player in club.players:
        service.tournament_command(table_id=table, command=cmd.SeatEntrant(str(player), 1000))
    return table


def test_cash_endpoints_answer_409_tournament_table() -> None:
    club = Club.create(players=2, bankroll=1000)
    table = tournament_table(club)
    player = next(iter(club.players.values()))
    for action, body in (
        ("seats", {"buy_in": 100}),
        ("top-ups", {"amount": 10}),
        ("leave", None),
        ("sit-out", None),
        ("deals", None),
    ):
        response = post(player, table_url(table, action), body)
        assert (response.status_code, response.json()["code"]) == (409, "tournament_table"), action
    outsider = post(club.outsider, table_url(table, "seats"), {"buy_in": 100})
    assert (outsider.status_code, outsider.json()["code"]) == (409, "tournament_table")
    by_hand = post(club.admin, table_url(table, "deals"), None)  # only the tournament paces deals
    assert (by_hand.status_code, by_hand.json()["code"]) == (409, "tournament_table")
    assert club.bankroll(next(iter(club.players))) == 1000  # no cash moved


def test_the_table_view_shows_the_tournament_and_its_unit() -> None:
    club = Club.create(players=2, bankroll=1)
    table = tournament_table(club)
    view = club.outsider.get(table_url(table)).json()
    assert (view["tournament_id"], view["unit"]) == (TID, f"t:{TID}")
    assert documented(TableOutputSerializer(view).data, view)
    listed = {t["table_id"]: t for t in club.outsider.get("/api/v1/tables").json()["results"]}
    assert (listed[table]["tournament_id"], listed[table]["unit"]) == (TID, f"t:{TID}")
    mine = next(iter(club.players.values())).get(table_url(table)).json()
    assert mine["legal_actions"] == []  # nothing to buy or leave


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_players_declare_and_no_response_leaks_a_hidden_card(mode: str) -> None:
    club = Club.create(players=4, bankroll=1)
    table = tournament_table(club, mode=mode)
    players = [str(p) for p in club.players]
    observers = [Observer(client, str(pid), "player") for pid, client in club.players.items()]
    observers += [
        Observer(club.outsider, None, "player"),
        Observer(club.admin, None, "admin"),
        Observer(club.auditor, None, "auditor"),
    ]
    truths: dict[int, Truth] = {}
    for deal_no, choices in enumerate(CHOICES[:3], start=1):
        service.start_next_deal(table_id=table, after_deal_no=deal_no - 1)
        view = club.admin.get(table_url(table)).json()
        order = [p["player"] for p in view["deal"]["players"]]
        hands = HANDS[(deal_no - 1) % len(HANDS)]
        truth = truths[deal_no] = Truth(
            hands={p: hands[i].split() for i, p in enumerate(order)}, sealed=mode == "simultaneous"
        )
        walk(observers, table, players, truths)
        for player, choice in zip(order, choices, strict=True):
            if club.outsider.get(table_url(table)).json()["turn"] == []:
                break  # G2-10
            response = post(
                club.players[int(player)],
                table_url(table, "declares"),
                {"deal_no": deal_no, "choice": choice},
            )
            assert response.status_code == 200, response.content
            truth.choices[player] = choice
            if response.json()["deal"]["over"]:
                finish(truth, order)
            check_table(Observer(club.players[int(player)], player, "player"), response.json(), truths)
            walk(observers, table, players, truths)
        assert truth.over
    assert truths[2].shown
