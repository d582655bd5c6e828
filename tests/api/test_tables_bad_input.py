"""Bad input to the tables API: a clean 4xx problem with the documented code, nothing appended."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from http_edge.api.errors import PROBLEM_STATUS
from tests.api.conftest import event_count
from tests.tables.conftest import stack_deck
from tests.tables.http import Club, post, table_url

pytestmark = pytest.mark.django_db

OPTIONS = {"ante": 10, "min_buy_in": 100}
MISSING_TABLE = "6f1c0c52-8d7e-4c3b-9a51-3d2f0e9b7a10"


@pytest.fixture
def club() -> Club:
    return Club.create(players=3, bankroll=1000)


def refused(client: APIClient, url: str, body: Any, code: str, **headers: str) -> dict[str, Any]:
    """POST and check: the documented status for `code`, problem+json, no event appended."""
    before = event_count()
    response = post(client, url, body, **headers)
    assert response["Content-Type"] == "application/problem+json", response.content
    problem = response.json()
    assert problem["code"] == code, problem
    expected = PROBLEM_STATUS[code][0] if code in PROBLEM_STATUS else problem["status"]
    assert response.status_code == expected
    assert 400 <= response.status_code < 500
    assert event_count() == before
    return problem


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "guts9"}, "unknown_variant"),
        ({"variant": "guts2", "options": {"colour": "red"}}, "invalid_option"),
        ({"variant": "guts2", "options": {"ante": -5}}, "invalid_option"),
        ({"variant": "guts2", "options": {"ante": 0}}, "invalid_option"),
        ({"variant": "guts2", "options": {"ante": 2.5}}, "invalid_option"),
        ({"variant": "guts2", "options": {"ante": "5"}}, "invalid_option"),
        ({"variant": "guts2", "options": {"pot_limit": -100}}, "invalid_option"),
        ({"variant": "guts2", "options": {"declare_mode": "shouting"}}, "invalid_option"),
        ({"variant": "guts2", "options": {"seats": 27}}, "invalid_option"),
        ({"variant": "guts2", "options": "ante=5"}, "invalid_input"),
        ({"options": {}}, "invalid_input"),
        ({"variant": "guts2", "stacked_decks": [["As", "Zz"]]}, "invalid_card"),
        ({"variant": "guts2", "stacked_decks": [["As", "As"]]}, "invalid_card"),
        ({"variant": "guts2", "stacked_decks": [["A♠"]]}, "invalid_card"),
        ({"variant": "guts2", "stacked_decks": []}, "invalid_card"),
        ({"variant": "guts2", "stacked_decks": "As Kd"}, "invalid_input"),
    ],
)
def test_bad_table_openings(club: Club, body: dict[str, Any], code: str) -> None:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        refused(club.admin, "/api/v1/tables", body, code)


def test_stacked_decks_need_the_setting(club: Club) -> None:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=False):
        refused(
            club.admin,
            "/api/v1/tables",
            {"variant": "guts2", "stacked_decks": [["As"]]},
            "stacked_decks_not_allowed",
        )


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        (1.5, "invalid_input"),
        ("100", "invalid_input"),
        (True, "invalid_input"),
        (None, "invalid_input"),
        ([100], "invalid_input"),
        (10**13, "invalid_input"),
        (-100, "invalid_amount"),
        (0, "invalid_amount"),
        (50, "invalid_amount"),  # below min_buy_in
        (5000, "insufficient_funds"),
    ],
)
def test_bad_buy_ins(club: Club, amount: Any, code: str) -> None:
    table = club.open_table(OPTIONS)
    client = next(iter(club.players.values()))
    refused(client, table_url(table, "seats"), {"buy_in": amount}, code)


def started(club: Club, mode: str = "sequential") -> tuple[str, list[str]]:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table = club.open_table({**OPTIONS, "declare_mode": mode}, [stack_deck("As Ad", "Ks Kd", "2c 7h")])
    club.seat_all(table, 200)
    view = post(club.admin, table_url(table, "deals")).json()
    return table, [p["player"] for p in view["deal"]["players"]]


def test_declare_errors(club: Club) -> None:
    table, order = started(club)
    first, second = club.players[int(order[0])], club.players[int(order[1])]
    url = table_url(table, "declares")
    refused(second, url, {"deal_no": 1, "choice": "in"}, "not_your_turn")
    refused(first, url, {"deal_no": 2, "choice": "in"}, "wrong_deal")
    refused(first, url, {"deal_no": 0, "choice": "in"}, "invalid_input")
    refused(first, url, {"deal_no": 1, "choice": "maybe"}, "invalid_choice")
    refused(first, url, {"choice": "in"}, "invalid_input")
    refused(club.admin, url, {"deal_no": 1, "choice": "in"}, "forbidden")
    refused(club.outsider, url, {"deal_no": 1, "choice": "in"}, "not_seated")
    refused(first, table_url(table, "leave"), {}, "liability_open")
    refused(first, table_url(table, "top-ups"), {"amount": 10}, "deal_in_progress")
    refused(first, table_url(table, "deals"), {}, "deal_in_progress")
    refused(club.admin, table_url(table, "close"), {}, "deal_in_progress")
    assert post(first, url, {"deal_no": 1, "choice": "out"}).status_code == 200
    refused(first, url, {"deal_no": 1, "choice": "in"}, "already_declared")
    for player in order[1:]:
        if post(club.players[int(player)], url, {"deal_no": 1, "choice": "in"}).status_code != 200:
            break
    refused(first, url, {"deal_no": 1, "choice": "in"}, "deal_over")


def test_duplicate_sealed_declare_is_already_declared(club: Club) -> None:  # SIM-01
    table, order = started(club, "simultaneous")
    client = club.players[int(order[1])]
    assert post(client, table_url(table, "declares"), {"deal_no": 1, "choice": "in"}).status_code == 200
    refused(client, table_url(table, "declares"), {"deal_no": 1, "choice": "out"}, "already_declared")


def test_table_state_errors(club: Club) -> None:
    table = club.open_table({**OPTIONS, "seats": 2})
    clients = list(club.players.values())
    refused(clients[0], table_url(table, "deals"), {}, "not_seated")
    assert post(clients[0], table_url(table, "seats"), {"buy_in": 100}).status_code == 200
    refused(clients[0], table_url(table, "seats"), {"buy_in": 100}, "already_seated")
    refused(clients[0], table_url(table, "deals"), {}, "not_enough_players")
    refused(clients[0], table_url(table, "declares"), {"deal_no": 1, "choice": "in"}, "no_deal")
    assert post(clients[1], table_url(table, "seats"), {"buy_in": 100}).status_code == 200
    refused(clients[2], table_url(table, "seats"), {"buy_in": 100}, "table_full")
    refused(clients[2], table_url(table, "top-ups"), {"amount": 10}, "not_seated")
    refused(clients[0], table_url(table, "close"), {}, "forbidden")
    assert post(club.admin, table_url(table, "close")).status_code == 200
    refused(clients[2], table_url(table, "seats"), {"buy_in": 100}, "table_closed")
    refused(club.admin, table_url(table, "deals"), {}, "table_closed")


def test_unknown_table(club: Club) -> None:
    client = next(iter(club.players.values()))
    refused(client, table_url(MISSING_TABLE, "seats"), {"buy_in": 100}, "unknown_table")
    refused(club.admin, table_url(MISSING_TABLE, "deals"), {}, "unknown_table")
    assert client.get(table_url(MISSING_TABLE)).json()["code"] == "unknown_table"
    assert client.get(table_url(MISSING_TABLE, "deals")).status_code == 404
    assert client.get(table_url("not-a-uuid")).status_code == 404


@pytest.mark.parametrize("header", ['"1"', '"999"', "garbage", 'W/"x"'])
def test_stale_or_malformed_if_match_is_412(club: Club, header: str) -> None:
    table = club.open_table(OPTIONS)
    client = next(iter(club.players.values()))
    assert post(client, table_url(table, "seats"), {"buy_in": 100}).status_code == 200
    problem = refused(
        list(club.players.values())[1],
        table_url(table, "seats"),
        {"buy_in": 100},
        "stale_version",
        **{"If-Match": header},
    )
    assert problem["status"] == 412


def test_replayed_idempotency_key_appends_nothing(club: Club) -> None:
    table = club.open_table(OPTIONS)
    client = next(iter(club.players.values()))
    first = post(client, table_url(table, "seats"), {"buy_in": 100}, **{"Idempotency-Key": "sit-1"})
    assert first.status_code == 200
    before = event_count()
    again = post(client, table_url(table, "seats"), {"buy_in": 100}, **{"Idempotency-Key": "sit-1"})
    assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (200, first.json(), "true")
    assert event_count() == before
    refused(
        client,
        table_url(table, "seats"),
        {"buy_in": 200},
        "idempotency_key_reused",
        **{"Idempotency-Key": "sit-1"},
    )
    error = post(client, table_url(table, "top-ups"), {"amount": -1}, **{"Idempotency-Key": "top-1"})
    replay = post(client, table_url(table, "top-ups"), {"amount": -1}, **{"Idempotency-Key": "top-1"})
    assert (error.status_code, replay.status_code, replay.json()) == (400, 400, error.json())
    assert event_count() == before
