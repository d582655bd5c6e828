"""Browser tests of the pages: Debian's Chromium driven headless by Selenium against a live server.

They skip, saying why, when no Chromium (or no chromedriver, or no selenium) is installed: a fresh
machine; `.ci/run` installs `chromium` and `chromium-driver` with apt-get. Screenshots of every
page go to `var/screenshots/` (GUTS_SCREENSHOT_DIR), which CI keeps.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser

from http_edge.roles import AUDITOR, CLUB_ADMIN, grant_role
from ledger.cashier import cashier_deposit, player_create
from tables.state import cache

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("GUTS_SCREENSHOT_DIR", ROOT / "var" / "screenshots"))
PASSWORD = "web-test-pass"
_names = itertools.count(1)


def chromium_paths() -> tuple[str, str] | str:
    """(browser, driver), or why the browser tests cannot run here."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed (pip install -e '.[dev]')"
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        return (
            "no Chromium found (needs `chromium` and `chromedriver` on PATH: "
            "apt-get install chromium chromium-driver; .ci/run does it)"
        )
    return browser, driver


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    found = chromium_paths()
    for item in items:
        if "browser" not in item.keywords:
            continue
        item.add_marker(pytest.mark.xdist_group("browser"))  # one Chromium at a time per run
        if isinstance(found, str):
            item.add_marker(pytest.mark.skip(reason=f"browser test skipped: {found}"))


@pytest.fixture(autouse=True)
def web_settings(settings: Any) -> None:
    """Fast password hashing; login failures counted apart from other tests'; plain-HTTP cookies
    for the live server; short SSE streams, so that none outlives its test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {
        alias: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}  # login throttling
        for alias, config in settings.CACHES.items()
    }
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False
    settings.GUTS_SSE_MAX_DURATION = 4.0
    settings.GUTS_SSE_HEARTBEAT = 1.0
    settings.GUTS_SSE_POLL = 0.2
    cache.clear()


@dataclass
class People:
    alice: AbstractUser
    bob: AbstractUser
    carol: AbstractUser  # a player who never sits at the tables under test
    auditor: AbstractUser
    admin: AbstractUser


def make_player(name: str) -> AbstractUser:
    user = player_create(username=f"{name}{next(_names)}", password=PASSWORD, display_name=name.capitalize())
    cashier_deposit(player_id=user.pk, amount=10_000)
    return user


def make_staff(role: str) -> AbstractUser:
    user = get_user_model().objects.create_user(username=f"{role}{next(_names)}", password=PASSWORD)
    grant_role(user, role)
    return user


@pytest.fixture
def people(transactional_db: Any) -> People:
    return People(
        make_player("alice"),
        make_player("bob"),
        make_player("carol"),
        make_staff(AUDITOR),
        make_staff(CLUB_ADMIN),
    )


class Page:
    """One signed-in browser (its own Chromium, so its own session cookie)."""

    def __init__(self, driver: Any, base: str) -> None:
        self.driver = driver
        self.base = base

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def sign_in(self, user: AbstractUser) -> None:
        from selenium.webdriver.common.by import By

        self.open("/login/")
        self.driver.find_element(By.NAME, "username").send_keys(user.get_username())
        self.driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        self.driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        self.wait(lambda: "/login/" not in self.driver.current_url, what="the login to finish")

    def wait(self, condition: Callable[[], Any], *, timeout: float = 15.0, what: str = "a condition") -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                result = condition()
            except Exception:  # the page is being redrawn under us: look again
                result = None
            if result:
                return result
            if time.monotonic() > deadline:
                self.screenshot("timeout")
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.1)

    def css(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def screenshot(self, name: str, *, full: bool = True) -> Path:
        """A PNG of the page (its whole height) in the screenshots folder."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        width, height = self.driver.get_window_size().values()
        if full:
            whole = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(width, max(height, min(int(whole) + 120, 6000)))
            self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.save_screenshot(str(path))
        if full:
            self.driver.set_window_size(width, height)
        return path

    def responses(self) -> list[str]:
        """Every response body the page received since the last call (performance log + CDP)."""
        bodies = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] != "Network.responseReceived":
                continue
            if message["params"]["response"].get("mimeType") == "text/event-stream":
                continue  # still open: its events are in the feed bodies
            try:
                body = self.driver.execute_cdp_cmd(
                    "Network.getResponseBody", {"requestId": message["params"]["requestId"]}
                )
            except Exception:  # no body kept (a redirect, an evicted one)
                continue
            bodies.append(body.get("body", ""))
        return bodies

    def source(self) -> str:
        return self.driver.page_source


@pytest.fixture
def browser(live_server: Any) -> Iterator[Callable[[], Page]]:
    """Open as many headless Chromiums as a test needs; all are closed after it."""
    found = chromium_paths()
    assert not isinstance(found, str), found
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers: list[Any] = []

    def open_browser(width: int = 1280, height: int = 900) -> Page:
        options = webdriver.ChromeOptions()
        options.binary_location = found[0]
        for argument in (
            "--headless=new",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--disable-gpu",
            f"--window-size={width},{height}",
            "--lang=en-GB",
        ):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        driver = webdriver.Chrome(service=Service(found[1]), options=options)
        driver.execute_cdp_cmd("Network.enable", {})
        drivers.append(driver)
        return Page(driver, live_server.url)

    yield open_browser
    for driver in drivers:
        driver.quit()
    time.sleep(0.5)  # let the live server's stream threads notice their browsers are gone
