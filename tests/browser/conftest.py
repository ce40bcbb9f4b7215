"""What every browser test shares: one Debian Chromium driven by Playwright, fresh contexts, the screenshots.

Debian's Chromium (/usr/bin/chromium) is driven through Playwright's sync API against a live server; no browser
is ever downloaded. Every test in this folder is marked `browser`; the tests are skipped where Chromium is
missing, except in CI (CI=true), where a missing browser is a failure.

The fixtures, for any test module in this folder:

- `browser` (session): the one Chromium of the run (of each pytest-xdist worker), launched on the first browser
  test and closed at the end. Do not close it; open contexts with `new_context`.
- `new_context(**options)` (function): a fresh browser context (its own cookies, storage and viewport; Playwright's
  `Browser.new_context` options), closed after the test. Call it as often as the test needs people (a referee and
  a player on their own phones, say).
- `browser_page` (function): a page in a fresh context of 1280x900, locale en-GB, downloads accepted, 15 s timeout.
- `shot(page_or_locator, name, **options)` (function): a screenshot (of the whole page, for a page),
  test-artifacts/screenshots/<SCREENSHOT_PREFIX>-<name>.png, SCREENSHOT_PREFIX being a constant of the test's module.
  Screenshots are for a person to look at: SCREENSHOTS=0 (CI, which keeps no files) takes none.
- `live_server`: pytest-django's, as usual (it makes the test transactional: the database is flushed after it);
  SITE_URL is its address in a test that uses it, so the links of the emails the test reads lead to it.

Django and Playwright's event loop. Playwright's sync API runs an asyncio loop in the test's thread and marks it
as running between its calls, and Django refuses ORM calls in a thread with a running loop (SynchronousOnlyOperation).
So the loop is marked as running, and DJANGO_ALLOW_ASYNC_UNSAFE set, only while a test of this folder runs (and
while the session's browser starts and stops): the other tests of the run, and module-scoped fixtures that build
data, run with neither. Everything a browser test does with Playwright must happen inside the test or its
function-scoped fixtures.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
# As the machine's own check starts it: without the background-networking flags Chromium keeps trying to
# reach hosts this closed network refuses.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
HERE = Path(__file__).resolve().parent
DEFAULT_TIMEOUT_MS = 15_000
SCREENSHOTS_WANTED = os.environ.get("SCREENSHOTS", "1") != "0"


def pytest_collection_modifyitems(config, items):
    missing = not Path(CHROMIUM).exists() and os.environ.get("CI") != "true"
    for item in items:
        if Path(str(item.fspath)).resolve().parent == HERE:
            item.add_marker(pytest.mark.browser)
            if missing:
                item.add_marker(pytest.mark.skip(reason="no Debian chromium here (apt-get install chromium)"))


class _Playwright:
    """The session's Playwright and Chromium, and the event loop their sync API runs in this thread."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        self.manager = sync_playwright()
        self.playwright = self.manager.start()
        self.loop = asyncio.get_running_loop()  # marked as running by Playwright in this thread
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self.pause()

    def pause(self) -> None:
        """Between browser tests: the loop is not marked as running, so Django's ORM works as in any test."""
        asyncio._set_running_loop(None)

    def resume(self) -> None:
        """Where Playwright's sync API left it after its last call, before the next one."""
        asyncio._set_running_loop(self.loop)

    def stop(self) -> None:
        self.resume()
        try:
            self.browser.close()
        finally:
            self.manager.__exit__(None, None, None)  # stops the driver, closes the loop, unmarks it


@pytest.fixture(scope="session")
def _playwright():
    driver = _Playwright()
    yield driver
    driver.stop()


@pytest.fixture(scope="session")
def browser(_playwright):
    """The one Chromium of the session (see the module's docstring)."""
    return _playwright.browser


@pytest.fixture(autouse=True)
def _playwright_in_this_test(_playwright, monkeypatch):
    """Runs first and ends last among a browser test's function fixtures (autouse): the test and those fixtures
    may call Playwright, and the ORM despite Playwright's loop."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    _playwright.resume()
    yield
    _playwright.pause()


@pytest.fixture(autouse=True)
def _emails_link_to_the_live_server(request, settings):
    """Every link in an email is on SITE_URL: a test that follows one in Chromium needs it to be the live server."""
    if "live_server" in request.fixturenames:
        settings.SITE_URL = request.getfixturevalue("live_server").url


@pytest.fixture
def new_context(browser):
    """new_context(**options): a fresh context of the session's Chromium, closed after the test."""
    contexts = []

    def open_context(**options):
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def browser_page(new_context):
    context = new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return page


@pytest.fixture
def shot(request):
    """shot(page_or_locator, name, **options): test-artifacts/screenshots/<SCREENSHOT_PREFIX>-<name>.png, the whole
    page for a page unless `clip` or full_page=False says otherwise; the options are Playwright's screenshot's."""
    prefix = request.module.SCREENSHOT_PREFIX

    def save(target, name: str, **options) -> None:
        if not SCREENSHOTS_WANTED:
            return
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if hasattr(target, "goto"):  # a page
            options.setdefault("full_page", "clip" not in options)
        target.screenshot(path=str(SCREENSHOTS / f"{prefix}-{name}.png"), **options)

    return save

