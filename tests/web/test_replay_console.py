"""The replay console (/audit/) in Chromium: stepping by keyboard, every card for an auditor, the
hash chain and the fairness proof re-checked by the browser itself, a tampered chain caught, and
nothing of a folded hand ever reaching a player (DESIGN §2.6, §2.7)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("selenium", reason="browser tests need the selenium package (the dev extras)")
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.audit.conftest import everyone_in, hole_cards, open_session
from tests.web.cards import leaks
from tests.web.conftest import Page, People
from tests.web.tampered_urls import TAMPERED_TYPE

pytestmark = [pytest.mark.browser]

DOCS_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # docs/deck.md §8
DOCS_FIRST_TEN = ["Qs", "Ah", "Ks", "4d", "Td", "9s", "Jh", "2h", "Ad", "Jc"]


def replay_path(table_id: str, deal_no: int) -> str:
    return f"/audit/tables/{table_id}/deals/{deal_no}/"


def shown_step(page: Page) -> int:
    visible = [step for step in page.css(".step") if step.is_displayed()]
    assert len(visible) == 1, "exactly one step is drawn at a time"
    return int(visible[0].get_attribute("id").removeprefix("step-"))


def press(page: Page, key: str, expected: int) -> None:
    ActionChains(page.driver).send_keys(key).perform()
    page.wait(lambda: shown_step(page) == expected, what=f"step {expected} after {key!r}")


def checked(page: Page) -> dict[str, Any]:
    """Wait for the browser's own checks; their verdicts and every failed row."""
    page.wait(lambda: page.css(".checks[data-state=done]"), timeout=30, what="the in-browser checks")
    return {
        "chain": page.css("#chain-verdict")[0].get_attribute("class"),
        "proof": page.css("#proof-verdict")[0].get_attribute("class"),
        "failed": [row.text for row in page.css(".check.fail")],
        "passed": len(page.css(".check.pass")),
    }


@pytest.mark.parametrize("variant", ["guts2", "three_five_seven"])
def test_auditor_steps_a_finished_deal_by_keyboard_sees_every_card_and_the_checks_pass(
    browser: Any, people: People, variant: str
) -> None:  # D-G2-01, TSG/357, DESIGN §2.7
    session = open_session([people.alice.pk, people.bob.pk], variant=variant)
    deal_no = session.play(everyone_in)
    page = browser()
    page.sign_in(people.auditor)
    page.open(replay_path(session.table_id, deal_no))
    count = len(page.css(".step"))
    assert count >= 8  # two players: deal, antes, cards, declares, showdown, settlement
    assert shown_step(page) == 0

    press(page, Keys.ARROW_RIGHT, 1)
    press(page, Keys.ARROW_RIGHT, 2)
    press(page, Keys.ARROW_RIGHT, 3)
    press(page, Keys.ARROW_LEFT, 2)
    press(page, Keys.END, count - 1)
    press(page, Keys.ARROW_RIGHT, count - 1)  # the last step stays the last
    press(page, Keys.HOME, 0)
    press(page, Keys.ARROW_LEFT, 0)
    page.css("[data-go=next]")[0].click()
    page.wait(lambda: shown_step(page) == 1, what="the Next button")
    press(page, Keys.END, count - 1)
    assert page.driver.current_url.endswith(f"#step-{count}")

    last = page.css(f"#step-{count - 1}")[0]
    for player, cards in hole_cards(session.table_id, deal_no).items():  # the final hands
        seat = last.find_element(By.CSS_SELECTOR, f'.seat[data-player="{player}"]')
        drawn = [
            card.get_attribute("data-card") for card in seat.find_elements(By.CSS_SELECTOR, ".hand .card")
        ]
        assert drawn == cards, f"the auditor sees {player}'s hand as dealt"
    assert not last.find_elements(By.CSS_SELECTOR, ".card.back")

    verdicts = checked(page)
    assert verdicts["failed"] == []
    assert "pass" in verdicts["chain"]
    assert "pass" in verdicts["proof"]
    assert verdicts["passed"] >= count
    page.screenshot(f"replay-{variant}-auditor")
    deck = page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "GutsVerify.deckOf(arguments[0], GutsVerify.PACK).then((deck) => done(deck.slice(0, 10)));",
        DOCS_SEED,
    )
    assert deck == DOCS_FIRST_TEN  # docs/deck.md §8, recomputed by the browser
    showdown = next(i for i, jump in enumerate(page.css(".timeline button")) if "Showdown" in jump.text)
    page.css(".timeline button")[showdown].click()
    page.wait(lambda: shown_step(page) == showdown, what="the showdown step")
    page.driver.set_window_size(1280, 1700)
    page.screenshot(f"replay-{variant}-auditor-showdown", full=False)  # docs/img/replay-console.png


def checked_as_served(
    browser: Any, settings: Any, urlconf: str, user: Any, path: str
) -> tuple[Page, dict[str, Any]]:
    """The browser's own checks of `path` for `user`, the site served by the URL map `urlconf`."""
    settings.ROOT_URLCONF = urlconf
    page = browser()
    page.sign_in(user)
    page.open(path)
    return page, checked(page)


def test_a_tampered_event_fails_the_browsers_chain_check(browser: Any, people: People, settings: Any) -> None:
    session = open_session([people.alice.pk, people.bob.pk])
    deal_no = session.play(everyone_in)
    page, verdicts = checked_as_served(  # the replay served with one chip more
        browser, settings, "tests.web.tampered_urls", people.auditor, replay_path(session.table_id, deal_no)
    )
    assert "fail" in verdicts["chain"]
    assert len(verdicts["failed"]) == 1
    assert TAMPERED_TYPE in verdicts["failed"][0]
    assert "hash does not match the event" in verdicts["failed"][0]
    assert "pass" in verdicts["proof"]  # the cards were not touched
    row = page.css(".check.fail")[0]
    row.click()  # the failed row leads to its step
    page.wait(
        lambda: "Antes posted" in page.css(f"#step-{shown_step(page)} h2")[0].text, what="the tampered step"
    )
    page.screenshot("replay-tampered-chain")


def test_a_player_never_receives_a_folded_opponents_cards(browser: Any, people: People) -> None:
    """During the live deal and in its replay afterwards: DOM, page source and every response the
    pages fetched (table, SSE tickets, replay, proof, event feed) (DESIGN §2.6)."""
    alice, bob = str(people.alice.pk), str(people.bob.pk)
    session = open_session([people.alice.pk, people.bob.pk], declare_timeout=600)
    deal_no = session.start()
    hands = hole_cards(session.table_id, deal_no)
    page = browser()
    page.sign_in(people.alice)
    page.open(f"/tables/{session.table_id}/")
    page.wait(lambda: page.css(".conn.on"), what="the live stream")
    own = [c.get_attribute("data-card") for c in page.css(f'.seat[data-player="{alice}"] .hand .card')]
    assert own == hands[alice]
    assert leaks(page, hands[bob]) == []
    page.screenshot("live-table-player-during-deal")

    session.declare_all(lambda player: "out" if player == bob else "in")  # bob folds: never shown
    page.wait(lambda: "is over" in page.css(".headline")[0].text, what="the deal's end, over SSE")
    assert leaks(page, hands[bob]) == []

    page.open(replay_path(session.table_id, deal_no))
    verdicts = checked(page)
    assert verdicts["failed"] == []
    press(page, Keys.END, len(page.css(".step")) - 1)
    assert page.css(f'.step:not([hidden]) .seat[data-player="{bob}"] .card.back')
    assert leaks(page, hands[bob]) == []
    page.screenshot("replay-player-folded-opponent")


def test_a_player_cannot_open_another_tables_private_replay_nor_another_players_statement(
    browser: Any, people: People
) -> None:
    """Roles as the API enforces them: carol, who never sat at alice and bob's table, sees its
    replay as the API serves it to her (no hole card, no fold: only what was shown); another
    player's statement and the table's pot are 403 for her, as GET .../statement is."""
    session = open_session([people.alice.pk, people.bob.pk])
    alice, bob = str(people.alice.pk), str(people.bob.pk)
    deal_no = session.start()
    hands = hole_cards(session.table_id, deal_no)
    session.declare_all(lambda player: "in" if player == alice else "out")  # alice alone in: no showdown
    page = browser()
    page.open(replay_path(session.table_id, deal_no))
    assert "/login/" in page.driver.current_url  # signed out: the login page
    page.sign_in(people.carol)
    page.open(replay_path(session.table_id, deal_no))
    checked(page)
    assert leaks(page, [*hands[alice], *hands[bob]]) == []
    assert not page.css(".step .hand .card:not(.back)")
    page.screenshot("replay-outsider")

    for account in (f"player:{alice}", f"seat:{session.table_id}:{bob}", f"pot:{session.table_id}"):
        page.open(f"/audit/accounts/{account}/")
        assert "Not yours to see" in page.css("h1")[0].text
    page.open(f"/audit/accounts/player:{people.carol.pk}/")
    assert "Statement" in page.css("h1")[0].text


def test_a_player_checks_his_own_cards_in_the_browser_while_the_deal_is_played(
    browser: Any, people: People, settings: Any
) -> None:  # D-IT-01, docs/deck.md §10.4-10.6
    """Italian poker for two (the 24-card pack from 9s): the browser checks the cards out of play,
    then alice's five cards against the commitment, during the deal; bob's never reach her. A
    proof whose opening was forged fails the same check."""
    alice, bob = str(people.alice.pk), str(people.bob.pk)
    session = open_session([people.alice.pk, people.bob.pk], variant="italian", declare_timeout=600)
    deal_no = session.start()
    hands = hole_cards(session.table_id, deal_no)
    page = browser()
    page.sign_in(people.alice)
    page.open(replay_path(session.table_id, deal_no))
    verdicts = checked(page)
    assert verdicts["failed"] == []
    assert "pass" in verdicts["proof"]
    rows = [row.text for row in page.css("#proof-checks .check")]
    assert any("Deal still being played" in row for row in rows)
    assert any("Short pack" in row for row in page_rows(page, "pass")), rows
    checked_cards = [row for row in page_rows(page, "pass") if "Card " in row]
    assert len(checked_cards) == 5, rows
    assert all(card in " ".join(checked_cards) for card in hands[alice])
    assert leaks(page, hands[bob]) == []
    page.screenshot("replay-player-live-deal-proof")

    _, verdicts = checked_as_served(
        browser,
        settings,
        "tests.web.tampered_proof_urls",
        people.alice,
        replay_path(session.table_id, deal_no),
    )
    assert "fail" in verdicts["proof"]
    assert len(verdicts["failed"]) == 1
    assert "does not open the commitment" in verdicts["failed"][0]


def page_rows(page: Page, state: str) -> list[str]:
    """The text of the proof's check rows in that state (pass, fail, skip, info)."""
    return [row.text for row in page.css(f"#proof-checks .check.{state}")]
