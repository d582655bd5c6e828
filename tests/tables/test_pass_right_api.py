"""AO-06 pass_right over HTTP: everyone out, each passes a card right, a new declare opens; the
passed cards stay secret from the other players, and the pass window gets a timer like a declare."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.store import read_stream
from tables import service
from tables.engine.decider import commands as cmd
from tables.engine.decider.program import parse_iso
from tables.timers import overdue_deadlines
from tests.api.conftest import client_for

pytestmark = pytest.mark.django_db

DECK = ["As", "Qd", "2c", "Ks", "Jd", "7h"]  # dealt one at a time: b, c, a, b, c, a


@pytest.fixture
def all_out_table(funded_player: Any, settings: Any) -> tuple[str, list[int]]:
    settings.GUTS_ALLOW_STACKED_DECKS = True
    players = [funded_player(1000) for _ in range(3)]
    table = service.table_open(
        variant="guts2",
        stacked_decks=[DECK],
        options={"ante": 5, "declare_mode": "simultaneous", "all_out": "pass_right"},
    ).table_id
    for player in players:
        service.table_command(table_id=table, command=cmd.SitDown(str(player), 200))
    service.table_command(table_id=table, command=cmd.StartDeal())
    for player in players:
        service.table_command(table_id=table, command=cmd.Declare(str(player), 1, "out"))
    return table, players


def api_client_for(player_id: int) -> Any:
    return client_for(get_user_model().objects.get(pk=player_id))


def test_ao_06_the_pass_window_gets_a_timer_like_a_declare(all_out_table: tuple[str, list[int]]) -> None:
    table, players = all_out_table
    events = read_stream(f"table-{table}")
    opened = [e for e in events if e.type == "PassOpened"]
    assert len(opened) == 1
    due = parse_iso(opened[0].data["deadline"])  # the timers read it from the projection
    assert [d.due for d in overdue_deadlines(due) if d.table_id == table] == [due]
    result = service.table_command(table_id=table, command=cmd.PassCard(str(players[0]), 1, "2c"))
    assert result.state.live.passing


def test_ao_06_passes_through_the_api(all_out_table: tuple[str, list[int]]) -> None:
    table, (a, b, c) = all_out_table
    client_b = api_client_for(b)
    view = client_b.get(f"/api/v1/tables/{table}").json()
    assert view["phase"] == "pass"
    assert {"action": "pass"}.items() <= view["legal_actions"][0].items()
    response = client_b.post(f"/api/v1/tables/{table}/passes", {"deal_no": 1, "card": "Ks"}, format="json")
    assert response.status_code == 200, response.content
    again = client_b.post(f"/api/v1/tables/{table}/passes", {"deal_no": 1, "card": "As"}, format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "already_passed"
    seen_by_c = json.dumps(api_client_for(c).get(f"/api/v1/tables/{table}/events").json())
    assert "Ks" not in seen_by_c  # b's passed card is b's secret
    api_client_for(c).post(f"/api/v1/tables/{table}/passes", {"deal_no": 1, "card": "Jd"}, format="json")
    last = (
        api_client_for(a)
        .post(f"/api/v1/tables/{table}/passes", {"deal_no": 1, "card": "7h"}, format="json")
        .json()
    )
    assert last["phase"] == "declare"  # a new declare after the exchange
    hand_b = client_b.get(f"/api/v1/tables/{table}").json()
    mine = next(p for p in hand_b["deal"]["players"] if p["player"] == str(b))
    assert sorted(mine["cards"]) == ["As", "Jd"]


def test_ao_06_hand_history_shows_the_hand_after_the_exchange(all_out_table: tuple[str, list[int]]) -> None:
    table, (a, b, c) = all_out_table
    for player, card in ((b, "Ks"), (c, "Jd"), (a, "7h")):
        service.table_command(table_id=table, command=cmd.PassCard(str(player), 1, card))
    history = api_client_for(b).get(f"/api/v1/tables/{table}/deals/1/history?format=json").json()
    hands = {h["player"]: h["cards"] for h in history["hands"]}
    assert sorted(hands[str(b)]) == ["As", "Jd"]
    assert hands[str(c)] is None
    assert hands[str(a)] is None
    text = api_client_for(b).get(f"/api/v1/tables/{table}/deals/1/history?format=text")
    assert text.status_code == 200
