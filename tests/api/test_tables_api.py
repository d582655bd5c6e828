"""The tables API: variants, opening, seats, deals, declares, histories, ETags (DESIGN §2.9)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from tables.api.serializers import TableOutputSerializer
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

OPTIONS = {"ante": 10, "min_buy_in": 100, "pot_limit": 100}


@pytest.fixture
def club() -> Club:
    return Club.create(players=3, bankroll=2000)


def test_variants_lists_both_guts_games_with_their_option_schema(club: Club) -> None:
    response = club.outsider.get("/api/v1/variants")
    assert response.status_code == 200
    by_name = {v["name"]: v for v in response.json()}
    assert set(by_name) >= {"guts2", "guts3"}
    assert by_name["guts2"]["defaults"]["declare_mode"] == "sequential"
    assert by_name["guts3"]["options_schema"]["properties"]["ranking"]["type"] == "string"


def test_only_club_admins_open_tables(club: Club) -> None:
    player = next(iter(club.players.values()))
    response = post(player, "/api/v1/tables", {"variant": "guts2"})
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")


def test_a_deal_through_the_api(club: Club) -> None:  # G2-05 antes, G2-08 in turn, G2-13, D-RES-01
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table = club.open_table(OPTIONS, [stack_deck("As Ad", "Ks Kd", "2c 7h")])
    club.seat_all(table, 500)
    first = next(iter(club.players.values()))
    started = post(first, table_url(table, "deals"))
    assert started.status_code == 200, started.content
    view = started.json()
    assert (view["phase"], view["pot"], view["deal_no"]) == ("declare", 30, 1)
    assert started["ETag"] == f'"{view["version"]}"'
    order = [p["player"] for p in view["deal"]["players"]]
    for player, choice in zip(order, ["in", "in", "out"], strict=True):
        assert view["turn"] == [player]
        response = post(
            club.players[int(player)], table_url(table, "declares"), {"deal_no": 1, "choice": choice}
        )
        assert response.status_code == 200, response.content
        view = response.json()
    # order[0] holds aces, order[1] kings: the kings match the pot of 30 (G2-13)
    stacks = {s["player"]: s["stack"] for s in view["seats"]}
    assert stacks == {order[0]: 520, order[1]: 460, order[2]: 490}
    assert (view["pot"], view["reserve"], view["phase"]) == (30, 0, "between_deals")
    shown = {p["player"]: p["cards"] for p in view["deal"]["players"]}
    assert shown[order[0]] == ["As", "Ad"]
    assert documented(TableOutputSerializer(view).data, view)  # the schema describes the real shape
    history = club.auditor.get(table_url(table, "deals")).json()
    assert history["count"] == 1
    assert history["results"][0]["winners"] == [order[0]]
    assert history["results"][0]["pot_after"] == 30
    mine = first.get(f"/api/v1/players/{next(iter(club.players))}/deals").json()
    assert mine["count"] == 1


def documented(rendered: object, real: object) -> bool:
    """`rendered` (the serializer's output) equals `real`, where optional fields absent from `real`
    render as null."""
    if isinstance(real, dict) and isinstance(rendered, dict):
        return (
            set(real) <= set(rendered)
            and all(documented(rendered[k], v) for k, v in real.items())
            and all(rendered[k] is None for k in set(rendered) - set(real))
        )
    if isinstance(real, list) and isinstance(rendered, list):
        return len(real) == len(rendered) and all(map(documented, rendered, real))
    return rendered == real


def test_sit_out_and_in(club: Club) -> None:
    table = club.open_table(OPTIONS)
    club.seat_all(table, 200)
    client = next(iter(club.players.values()))
    view = post(client, table_url(table, "sit-out")).json()
    assert "sit_in" in [a["action"] for a in view["legal_actions"]]
    assert post(client, table_url(table, "sit-out")).json()["code"] == "already_sitting_out"
    assert post(client, table_url(table, "sit-in")).status_code == 200


def test_etag_and_if_none_match(club: Club) -> None:
    table = club.open_table(OPTIONS)
    response = club.outsider.get(table_url(table))
    assert response.status_code == 200
    tag = response["ETag"]
    assert club.outsider.get(table_url(table), headers={"If-None-Match": tag}).status_code == 304
    club.seat_all(table, 200)
    assert club.outsider.get(table_url(table), headers={"If-None-Match": tag}).status_code == 200


def test_if_match_stale_is_412_and_current_succeeds(club: Club) -> None:
    table = club.open_table(OPTIONS)
    player = next(iter(club.players.values()))
    tag = club.outsider.get(table_url(table))["ETag"]
    other = list(club.players.values())[1]
    assert post(other, table_url(table, "seats"), {"buy_in": 100}).status_code == 200
    before = event_count()
    stale = post(player, table_url(table, "seats"), {"buy_in": 100}, **{"If-Match": tag})
    assert (stale.status_code, stale.json()["code"]) == (412, "stale_version")
    assert event_count() == before
    fresh = club.outsider.get(table_url(table))["ETag"]
    assert post(player, table_url(table, "seats"), {"buy_in": 100}, **{"If-Match": fresh}).status_code == 200


def test_top_up_leave_and_close_move_chips_back(club: Club) -> None:
    table = club.open_table(OPTIONS)
    club.seat_all(table, 300)
    (first, client), *_ = club.players.items()
    assert post(client, table_url(table, "top-ups"), {"amount": 50}).status_code == 200
    assert club.bankroll(first) == 1650
    assert post(client, table_url(table, "leave")).status_code == 200
    assert club.bankroll(first) == 2000
    closed = post(club.admin, table_url(table, "close"))
    assert (closed.status_code, closed.json()["status"]) == (200, "closed")
    assert all(club.bankroll(p) == 2000 for p in club.players)
    listed = club.outsider.get("/api/v1/tables?status=closed").json()["results"]
    assert table in [t["table_id"] for t in listed]


def test_a_player_sees_only_his_own_deal_history(club: Club) -> None:
    (first, client), (second, _), *_ = club.players.items()
    assert client.get(f"/api/v1/players/{second}/deals").status_code == 403
    assert club.auditor.get(f"/api/v1/players/{second}/deals").status_code == 200
    assert client.get(f"/api/v1/players/{first}/deals").status_code == 200
