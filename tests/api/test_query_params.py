"""Every list and every query parameter is validated alike (http_edge.api.input): a malformed,
blank or out-of-range value is 400 `invalid_query` naming the parameter, never a 500 (2^63 used to
overflow PostgreSQL's bigint), never silently replaced by the default, and a page is at most 500."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from http_edge.api.paging import MAX_PAGE_SIZE
from tests.tables.http import Club

pytestmark = pytest.mark.django_db

HUGE = str(2**63)  # one past PostgreSQL's bigint
LARGEST = str(2**63 - 1)  # the largest bigint: "every row" as a limit, before the cap
BAD_NUMBERS = ["abc", "", " ", "null", "-1", "1.5", "5.0", "+5", " 5", "1e3", "٣", HUGE, "9" * 400]
BAD_LIMITS = [*BAD_NUMBERS, "0", str(MAX_PAGE_SIZE + 1), LARGEST]


@dataclass
class Urls:
    player: int
    table: str

    def paged(self) -> list[str]:
        """Every limit/offset list of the API."""
        return [
            "/api/v1/players",
            f"/api/v1/players/{self.player}/statement",
            f"/api/v1/players/{self.player}/deals",
            "/api/v1/tables",
            f"/api/v1/tables/{self.table}/deals",
            f"/api/v1/audit/accounts/player:{self.player}/statement",
        ]

    def feeds(self) -> list[str]:
        """The cursor (`after`) lists: the event feeds."""
        return [f"/api/v1/tables/{self.table}/events", "/api/v1/audit/events"]


@pytest.fixture
def club() -> Club:
    return Club.create(players=2, bankroll=1000)


@pytest.fixture
def urls(club: Club) -> Urls:
    return Urls(player=next(iter(club.players)), table=club.open_table({"ante": 10}))


def refused(
    client: APIClient, url: str, params: dict[str, str], parameter: str, headers: dict[str, str] | None = None
) -> None:
    response = client.get(url, params, headers=headers or {})
    assert response.status_code == 400, (url, params, response.status_code, response.content[:300])
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "invalid_query", problem
    assert parameter in problem["errors"], problem
    assert parameter in problem["detail"], problem


@pytest.mark.parametrize("value", BAD_LIMITS)
def test_bad_limit_is_refused_on_every_list(club: Club, urls: Urls, value: str) -> None:
    for url in [*urls.paged(), *urls.feeds()]:
        refused(club.auditor, url, {"limit": value}, "limit")


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_bad_offset_is_refused_on_every_paged_list(club: Club, urls: Urls, value: str) -> None:
    for url in urls.paged():
        refused(club.auditor, url, {"offset": value}, "offset")


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_bad_cursor_is_refused_on_every_feed(club: Club, urls: Urls, value: str) -> None:
    for url in urls.feeds():
        refused(club.auditor, url, {"after": value}, "after")


@pytest.mark.parametrize("parameter", ["since", "until"])
@pytest.mark.parametrize("value", ["", " ", "yesterday", "2026-13-01T00:00:00Z", "null"])
def test_bad_time_window_is_refused_on_every_feed(club: Club, urls: Urls, parameter: str, value: str) -> None:
    for url in urls.feeds():
        refused(club.auditor, url, {parameter: value}, parameter)


def test_blank_event_type_is_refused(club: Club, urls: Urls) -> None:
    for url in urls.feeds():
        refused(club.auditor, url, {"type": ""}, "type")


@pytest.mark.parametrize("value", ["", "x" * 101])
def test_bad_unit_is_refused_on_the_account_statement(club: Club, urls: Urls, value: str) -> None:
    refused(club.auditor, urls.paged()[-1], {"unit": value}, "unit")


@pytest.mark.parametrize("value", ["", "bogus"])
def test_bad_table_status_is_refused(club: Club, urls: Urls, value: str) -> None:
    refused(club.auditor, "/api/v1/tables", {"status": value}, "status")


@pytest.mark.parametrize("value", ["", "0", "abc", HUGE])
def test_bad_replay_step_is_refused(club: Club, urls: Urls, value: str) -> None:
    refused(club.auditor, f"/api/v1/tables/{urls.table}/deals/1/replay", {"at": value}, "at")


@pytest.mark.parametrize("value", ["", "abc", "-1", HUGE])
def test_bad_stream_resume_point_is_refused(club: Club, urls: Urls, value: str) -> None:
    url = f"/api/v1/tables/{urls.table}/stream"
    refused(club.auditor, url, {"last_event_id": value}, "last_event_id")
    if value:  # a blank header counts as no header
        refused(club.auditor, url, {}, "last_event_id", headers={"Last-Event-ID": value})


def test_every_error_of_a_query_is_named_at_once(club: Club, urls: Urls) -> None:
    response = club.auditor.get(urls.feeds()[0], {"limit": "abc", "after": "", "since": "no"})
    assert set(response.json()["errors"]) == {"limit", "after", "since"}


def test_the_page_cap_and_the_largest_offset_and_cursor_are_answered(club: Club, urls: Urls) -> None:
    for url in urls.paged():
        page = club.auditor.get(url, {"limit": str(MAX_PAGE_SIZE), "offset": LARGEST})
        assert page.status_code == 200, (url, page.content[:300])
        assert page.json()["results"] == []
    for url in urls.feeds():
        page = club.auditor.get(url, {"limit": str(MAX_PAGE_SIZE), "after": LARGEST})
        assert page.status_code == 200, (url, page.content[:300])
        assert page.json()["results"] == []


def test_defaults_and_next_links_still_page_through(club: Club, urls: Urls) -> None:
    players = club.auditor.get("/api/v1/players", {"limit": "1"}).json()
    assert len(players["results"]) == 1
    assert players["count"] >= 3  # two seated-to-be players and the outsider
    following = club.auditor.get(players["next"]).json()
    assert following["results"] != players["results"]
    assert len(club.auditor.get("/api/v1/players").json()["results"]) == players["count"]
