"""The live table page (/tables/{id}/) in Chromium: two players, each in his own browser, sit down,
start and play a deal to its end from the page alone. The page knows no variant: it draws the
API's view and offers its `legal_actions`; the same player code plays two-card Guts and Jacks
and Piss (declare, draw, betting). The other browser is redrawn by the SSE stream."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("selenium", reason="browser tests need the selenium package (the dev extras)")
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from ledger.models import Event
from tables import service
from tables.models import TableView
from tables.state import load_table
from tables.tasks import sweep_overdue_declares
from tests.web.conftest import Page, People

pytestmark = [pytest.mark.browser]

GAME_ACTIONS = ("declare", "exchange", "bet", "pass", "bid", "escalate")
PREFERRED = ("in", "call", "check", "single")  # stay in the deal, bet nothing new
LIVE = 10.0  # seconds within which the SSE stream must redraw a page (the safety net is 15 s)


def panel_version(page: Page) -> str:
    """Read in one script: the panel may be redrawn between two WebDriver calls."""
    return page.driver.execute_script("return document.querySelector('.panel').dataset.version")


def table_version(table_id: str) -> str:
    return str(TableView.objects.get(table_id=table_id).version)


def caught_up(page: Page, table_id: str) -> None:
    """The page shows the table's latest version: its stream redrew it."""
    version = table_version(table_id)
    page.wait(lambda: panel_version(page) == version, timeout=LIVE, what=f"the page at version {version}")


def click_and_wait(page: Page, find: Any, what: str) -> None:
    """Click what `find()` finds (again if a redraw replaced it under the click), then wait for
    the table after it."""
    before = panel_version(page)
    for attempt in range(5):
        try:
            find().click()
            break
        except StaleElementReferenceException:
            if attempt == 4:
                raise
    page.wait(lambda: panel_version(page) != before, what=f"the table after {what}")
    assert "bad" not in (page.css("#status")[0].get_attribute("class") or ""), page.css("#status")[0].text


def game_form(page: Page) -> Any:
    forms = [form for form in page.css("form.control") if form.get_attribute("data-action") in GAME_ACTIONS]
    return forms[0] if forms else None


def chosen_button(form: Any) -> Any:
    """An "in", a call or a check; a bid's pass; "Exchange" with nothing ticked (stand pat)."""
    kind = form.get_attribute("data-kind")
    buttons = form.find_elements(By.CSS_SELECTOR, "button")
    if kind in ("choice", "card"):
        by_value = {button.get_attribute("value"): button for button in buttons}
        return next((by_value[value] for value in PREFERRED if value in by_value), buttons[0])
    if kind == "amount":
        return next((b for b in buttons if b.get_attribute("data-null") is not None), buttons[0])
    return buttons[-1]


def act(page: Page) -> str | None:
    """Take the first game action the page offers; its name (None: nothing to do)."""
    form = game_form(page)
    if form is None:
        return None
    action = form.get_attribute("data-action")
    click_and_wait(page, lambda: chosen_button(game_form(page)), action)
    return action


def sit_down(page: Page, table_id: str) -> None:
    page.open(f"/tables/{table_id}/")
    page.wait(lambda: page.css(".conn.on"), what="the live stream")
    page.wait(lambda: page.css("form[data-action=sit_down]"), what="the sit-down form")
    click_and_wait(
        page, lambda: page.css("form[data-action=sit_down] button[type=submit]")[0], "sitting down"
    )


def deal_over(table_id: str) -> bool:
    return load_table(table_id).state.live is None


@pytest.mark.parametrize(
    ("variant", "timing_out"), [("guts2", False), ("guts2", True), ("jacks_and_piss", False)]
)
def test_two_players_play_a_deal_to_its_end_from_the_live_page_alone(
    browser: Any, people: People, variant: str, timing_out: bool
) -> None:  # G2, JP-01..15, D-BET
    table_id = service.table_open(
        variant=variant, options={"ante": 10, "declare_timeout": 3 if timing_out else 600}
    ).table_id
    alice, bob = browser(), browser(width=420, height=900)  # bob plays on a phone's width
    alice.sign_in(people.alice)
    bob.sign_in(people.bob)
    sit_down(alice, table_id)
    sit_down(bob, table_id)
    alice.wait(
        lambda: alice.css("form[data-action=start_deal] button"),
        timeout=LIVE,
        what="alice's page to offer the deal once bob sat down (over SSE)",
    )
    click_and_wait(alice, lambda: alice.css("form[data-action=start_deal] button")[0], "starting the deal")

    acted: list[str] = []
    suffix = "-timeout" if timing_out else ""
    for _ in range(40):
        if deal_over(table_id):
            break
        for page, name in ((alice, "alice"), (bob, "bob")):
            if deal_over(table_id):
                break
            caught_up(page, table_id)
            if timing_out and name == "bob" and page.css("form[data-action=declare]"):
                page.screenshot(f"live-{variant}-bob-to-act")  # docs/img/live-table.png
                bob.wait(
                    lambda: "time is up" in bob.css("form[data-action=declare] .countdown")[0].text,
                    what="bob's countdown to run out",
                )
                time.sleep(0.3)
                assert sweep_overdue_declares() >= 1  # what beat's sweeper runs (docs/timers.md)
                caught_up(page, table_id)
                assert page.css(f'.seat[data-player="{people.bob.pk}"] .declared')
                acted.append("timeout")
                continue
            if (action := act(page)) is not None:
                acted.append(action)
                if len(acted) == 1:
                    page.screenshot(f"live-{variant}-{name}-after-first-action{suffix}")
    assert deal_over(table_id), f"the deal did not end: {acted}"
    if timing_out:
        assert "timeout" in acted
    if variant == "jacks_and_piss":
        assert {"declare", "exchange", "bet"} <= set(acted) or "timeout" in acted, acted

    ended = Event.objects.filter(stream=f"table-{table_id}", type="DealEnded").count()
    assert ended == 1
    for page, name in ((alice, "alice"), (bob, "bob")):
        caught_up(page, table_id)
        assert "is over" in page.css(".headline")[0].text
        assert page.css(".results"), "the settlement is shown"
        assert page.css("form[data-action=start_deal]"), "the next deal is offered"
        page.screenshot(f"live-{variant}-{name}-end{suffix}")
    state = load_table(table_id).state
    assert sum(seat.stack for seat in state.seats) + state.pot + state.reserve + state.bets == 2 * min_buy_in(
        state
    )


def min_buy_in(state: Any) -> int:
    """The buy-in each page sat down with: the form's default, the server's minimum."""
    buy_ins = Event.objects.filter(stream=f"table-{state.table_id}", type="PlayerSeated").values_list(
        "data", flat=True
    )
    amounts = {transfer["amount"] for data in buy_ins for transfer in data.get("transfers", [])}
    assert len(amounts) == 1, amounts
    return amounts.pop()
