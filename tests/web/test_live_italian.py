"""Italian poker on the live table page (/tables/{id}/) in Chromium: two players, each in his own
browser, play a whole deal from the page alone on a stacked deck (IT-07..18, D-IT-02, D-IT-03):
bob opens on jacks, alice raises, bob calls; in the draw bob splits his openers (he ticks a jack
and "I split my openers", IT-16) and alice draws one; in the second round bob checks, alice
bets, bob raises and alice folds. The page shows who opened, the round, the pot, each player's
bet and how many cards he drew; the openers are shown at the end (OpenersShown). Under pot limit
an open is of the chips typed in (D-IT-02)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("selenium", reason="browser tests need the selenium package (the dev extras)")
from django.test import override_settings
from selenium.webdriver.common.by import By

from ledger.models import Event
from tables import service
from tests.tables.conftest import stack_deck
from tests.web.conftest import Page, People
from tests.web.test_live_table import caught_up, check_the_end, click_and_wait, seated_and_dealt

pytestmark = [pytest.mark.browser]

# Two players play the 24-card pack, 9s up (D-IT-01). Alice sits first and deals: bob is dealt
# first and acts first. Bob: a pair of jacks (openers); alice: a pair of kings. The stock: bob's
# two cards (the jacks of clubs and diamonds), then alice's one.
DECK = [*stack_deck("Jh Js 9c Tc Qd", "Kh Kd 9s Ts Ah"), "Jc", "Jd", "Qh", "9d", "Td", "Kc", "Ac"]


def bet_button(page: Page, action: str) -> Any:
    return page.css(f"form[data-action=bet] button[value={action}]")[0]


def bets(page: Page, table_id: str, action: str) -> None:
    caught_up(page, table_id)
    page.wait(lambda: page.css(f"form[data-action=bet] button[value={action}]"), what=f"the {action} button")
    click_and_wait(page, lambda: bet_button(page, action), action)


def draws(page: Page, table_id: str, discards: list[str], *, split: bool = False) -> None:
    caught_up(page, table_id)
    form = page.wait(lambda: page.css("form[data-action=exchange]"), what="the draw form")[0]
    for card in discards:
        form.find_element(By.CSS_SELECTOR, f'input[type=checkbox][value="{card}"]').click()
    flags = form.find_elements(By.CSS_SELECTOR, "input[data-flag]")
    assert bool(flags) == split, "only the opener is asked whether he splits his openers"
    if split:
        flags[0].click()
    click_and_wait(page, lambda: page.css("form[data-action=exchange] button[type=submit]")[0], "the draw")


def actions(table_id: str) -> list[tuple[str, str]]:
    made = Event.objects.filter(stream=f"table-{table_id}", type="BetMade").order_by("version")
    return [(str(e.data["player"]), e.data["action"]) for e in made]


def test_it_07_18_d_it_03_two_players_play_an_italian_deal_from_the_live_page(
    browser: Any, people: People
) -> None:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table_id = service.table_open(
            variant="italian", options={"ante": 10, "declare_timeout": 600}, stacked_decks=[DECK]
        ).table_id
    alice, bob = seated_and_dealt(browser, people, table_id)
    a, b = str(people.alice.pk), str(people.bob.pk)
    caught_up(bob, table_id)
    assert [x.get_attribute("value") for x in bob.css("form[data-action=bet] button")] == ["check", "open"]
    bets(bob, table_id, "open")  # IT-07: jacks or better
    bets(alice, table_id, "raise")  # IT-10
    bets(bob, table_id, "call")
    caught_up(bob, table_id)
    assert "Opened by" in bob.css(".betting-line")[0].text
    draws(bob, table_id, ["Js", "9c"], split=True)  # IT-16: he says so with his draw
    draws(alice, table_id, ["9s"])
    caught_up(alice, table_id)
    assert "drew 2" in alice.css(f'.seat[data-player="{b}"]')[0].text  # D-IT-05: the count is public
    alice.screenshot("live-italian-second-round-alice")
    bets(bob, table_id, "check")  # IT-17: the opener starts the second round
    bets(alice, table_id, "bet")
    bets(bob, table_id, "raise")
    bets(alice, table_id, "fold")
    assert actions(table_id) == [
        (b, "open"),
        (a, "raise"),
        (b, "call"),
        (b, "check"),
        (a, "bet"),
        (b, "raise"),
        (a, "fold"),
    ]
    drawn = Event.objects.filter(stream=f"table-{table_id}", type="CardsDrawn").order_by("version")
    assert [(str(e.data["player"]), e.data["count"], bool(e.data.get("split_openers"))) for e in drawn] == [
        (b, 2, True),
        (a, 1, False),
    ]
    shown = Event.objects.get(stream=f"table-{table_id}", type="OpenersShown").data
    assert (shown["openers"], shown["split"]) == (["Jh", "Js"], True)  # D-IT-03
    check_the_end({"alice": alice, "bob": bob}, table_id, "live-italian")


def test_d_it_02_a_pot_limit_open_of_the_chips_chosen_on_the_live_page(browser: Any, people: People) -> None:
    with override_settings(GUTS_ALLOW_STACKED_DECKS=True):
        table_id = service.table_open(
            variant="italian",
            options={"ante": 10, "declare_timeout": 600, "limit": "pot"},
            stacked_decks=[DECK],
        ).table_id
    _alice, bob = seated_and_dealt(browser, people, table_id)
    caught_up(bob, table_id)
    amount = bob.css("form[data-action=bet] input[name=amount]")[0]
    assert (amount.get_attribute("min"), amount.get_attribute("max")) == ("10", "20")  # the unit to the pot
    amount.clear()
    amount.send_keys("15")
    bets(bob, table_id, "open")
    made = Event.objects.filter(stream=f"table-{table_id}", type="BetMade").get()
    assert (made.data["action"], made.data["amount"]) == ("open", 15)
