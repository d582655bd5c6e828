"""The live table page (/tables/{id}/) in Chromium: two players, each in his own browser, sit down,
start and play a deal to its end from the page alone. The page knows no variant: it draws the
API's view and offers its `legal_actions`; the same player code plays two-card Guts and Jacks
and Piss (declare, draw, betting). The other browser is redrawn by the SSE stream."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("selenium", reason="browser tests need the selenium package (the dev extras)")
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from ledger.models import Event
from tables import service
from tables.models import TableView
from tables.state import load_table
from tests.e2e.conftest import CeleryStack, require_redis
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


def chosen_button(form: Any, *, bids: bool) -> Any:
    """An "in", a call or a check; a bid of the least allowed (`bids`) or a pass; "Exchange" with
    nothing ticked (stand pat)."""
    kind = form.get_attribute("data-kind")
    buttons = form.find_elements(By.CSS_SELECTOR, "button")
    if kind in ("choice", "card"):
        by_value = {button.get_attribute("value"): button for button in buttons}
        return next((by_value[value] for value in PREFERRED if value in by_value), buttons[0])
    if kind == "amount" and not bids:
        return next((b for b in buttons if b.get_attribute("data-null") is not None), buttons[0])
    if kind == "amount":
        return buttons[0]  # the amount field holds the server's min
    return buttons[-1]


def act(page: Page, *, bids: bool = False) -> str | None:
    """Take the first game action the page offers; its name (None: nothing to do)."""
    form = game_form(page)
    if form is None:
        return None
    action = form.get_attribute("data-action")
    click_and_wait(page, lambda: chosen_button(game_form(page), bids=bids), action)
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


VARIANTS = [
    "guts2",
    "guts3",
    "two_plus_one",
    "four_two_two",
    "four_two_three",
    "three_five_seven",
    "thirty_eight",
    "four_three",
    "jacks_and_piss",
    "three_to_five",
    "monte_carlo",
    "survivor",
]


def seated_and_dealt(browser: Any, people: People, table_id: str) -> tuple[Page, Page]:
    """Alice and bob, each in his own browser (bob at a phone's width), sit down from the page
    and alice starts the deal once her page, redrawn by the stream, offers it."""
    alice, bob = browser(), browser(width=420, height=900)
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
    return alice, bob


def play_to_the_end(
    pages: dict[str, Page], table_id: str, *, shots: str, skip: Any = lambda name, page: False
) -> list[str]:
    """Each page in turn takes the action it offers until the deal ends; the actions taken
    (`skip(name, page)` True: that player lets his turn go by)."""
    acted: list[str] = []
    bought: list[str] = []
    for _ in range(60):
        for name, page in pages.items():
            if deal_over(table_id):
                return acted
            caught_up(page, table_id)
            if skip(name, page):
                acted.append("timeout")
                continue
            bids = name == "alice" and not bought  # alice buys the open hand once
            if (action := act(page, bids=bids)) is not None:
                if bids and action == "bid":
                    bought.append(name)
                acted.append(action)
                if len(acted) == 1:
                    page.screenshot(f"{shots}-{name}-after-first-action")
    raise AssertionError(f"the deal did not end: {acted}")


def check_the_end(pages: dict[str, Page], table_id: str, shots: str) -> None:
    assert Event.objects.filter(stream=f"table-{table_id}", type="DealEnded").count() == 1
    for name, page in pages.items():
        caught_up(page, table_id)
        assert "is over" in page.css(".headline")[0].text
        assert page.css(".results"), "the settlement is shown"
        page.screenshot(f"{shots}-{name}-end")
    state = load_table(table_id).state
    chips = sum(seat.stack for seat in state.seats) + state.pot + state.reserve + state.bets
    assert chips == 2 * buy_in(table_id)  # no chip lost or made at the table


@pytest.mark.parametrize(
    ("variant", "options"),
    [*((variant, {}) for variant in VARIANTS), ("monte_carlo", {"open_hand": "auction"})],
    ids=[*VARIANTS, "monte_carlo-auction"],
)
def test_two_players_play_a_deal_to_its_end_from_the_live_page_alone(
    browser: Any, people: People, variant: str, options: dict[str, Any]
) -> None:  # G2, 3C, TPO, 422, 423, 357, T38, 43, JP, T25
    table_id = service.table_open(
        variant=variant, options={"ante": 10, "declare_timeout": 600, **options}
    ).table_id
    alice, bob = seated_and_dealt(browser, people, table_id)
    pages = {"alice": alice, "bob": bob}
    shots = f"live-{variant}" + "".join(f"-{value}" for value in options.values())
    acted = play_to_the_end(pages, table_id, shots=shots)
    assert "declare" in acted
    if variant == "jacks_and_piss":
        assert {"exchange", "bet"} <= set(acted), acted  # JP-02 the draw, D-BET
    if options.get("open_hand") == "auction":
        bought = Event.objects.filter(stream=f"table-{table_id}", type="OpenHandBought").count()
        assert bought == 1, acted  # MCA-04: alice's bid, bob's pass: she buys the open hand
    check_the_end(pages, table_id, shots)


@pytest.mark.e2e
def test_a_declare_runs_out_on_the_live_page_and_the_real_timers_apply_it(
    browser: Any, people: People, tmp_path: Any
) -> None:  # G2, TO (timeout_effect out), docs/timers.md
    require_redis()
    stack = CeleryStack(tmp_path)
    try:
        stack.start("worker", beat=True)
        table_id = service.table_open(variant="guts2", options={"ante": 10, "declare_timeout": 3}).table_id
        alice, bob = seated_and_dealt(browser, people, table_id)
        pages = {"alice": alice, "bob": bob}

        def bob_waits(name: str, page: Page) -> bool:
            if name != "bob" or not page.css("form[data-action=declare]"):
                return False
            page.screenshot("live-guts2-bob-to-act")  # docs/img/live-table.png
            timed_out = f'.seat[data-player="{people.bob.pk}"] .declared'
            page.wait(  # the countdown runs out, unless the timer's declare redraws the page first
                lambda: (
                    page.css(timed_out)
                    or "time is up" in page.css("form[data-action=declare] .countdown")[0].text
                ),
                what="bob's countdown to run out",
            )
            page.wait(
                lambda: page.css(f'.seat[data-player="{people.bob.pk}"] .declared'),
                timeout=20,
                what="the timer's declare for bob, on his page over SSE",
            )
            return True

        acted = play_to_the_end(pages, table_id, shots="live-guts2-timeout", skip=bob_waits)
        assert "timeout" in acted
        timed_out = Event.objects.filter(stream=f"table-{table_id}", type="DeclareTimedOut").count()
        assert timed_out == 1
        check_the_end(pages, table_id, "live-guts2-timeout")
    finally:
        stack.close()


def buy_in(table_id: str) -> int:
    """The buy-in each page sat down with: the form's default, the server's minimum."""
    buy_ins = Event.objects.filter(stream=f"table-{table_id}", type="PlayerSeated").values_list(
        "data", flat=True
    )
    amounts = {transfer["amount"] for data in buy_ins for transfer in data.get("transfers", [])}
    assert len(amounts) == 1, amounts
    return amounts.pop()
