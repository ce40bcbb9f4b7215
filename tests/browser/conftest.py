"""What every browser journey shares: Debian's Chromium driven by Playwright, and the screenshots.

Debian's Chromium (/usr/bin/chromium) is driven through Playwright's sync API against pytest-django's live
server; no browser is ever downloaded. The journeys are skipped where Chromium is missing, except in CI
(CI=true), where a missing browser is a failure. Screenshots go to test-artifacts/screenshots/, named with
the module's SCREENSHOT_PREFIX.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
# As the machine's own check starts it: without the background-networking flags Chromium keeps trying to
# reach hosts this closed network refuses.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    missing = not Path(CHROMIUM).exists() and os.environ.get("CI") != "true"
    for item in items:
        if Path(str(item.fspath)).resolve().parent == HERE:
            item.add_marker(pytest.mark.browser)
            if missing:
                item.add_marker(pytest.mark.skip(reason="no Debian chromium here (apt-get install chromium)"))


@pytest.fixture
def browser_page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", accept_downloads=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        context.close()
        browser.close()


@pytest.fixture
def shot(request):
    """shot(page, name): a full-page screenshot, test-artifacts/screenshots/<SCREENSHOT_PREFIX>-<name>.png."""
    prefix = request.module.SCREENSHOT_PREFIX

    def save(page, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{prefix}-{name}.png"), full_page=True)

    return save
