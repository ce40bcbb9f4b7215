"""The site from the keyboard on a phone, in Debian's Chromium (tests/browser/conftest.py).

Apart from the crawl (tests/browser/test_every_page.py): it builds its own small federation, and the crawl's demo
federation is shared by the crawl's tests for the whole of its module.
"""

from __future__ import annotations


def test_the_keyboard_reaches_everything_on_a_phone(live_server, transactional_db, new_context):
    """Tab from the top: the skip link first; the Menu button opens the menu (Escape closes it and gives the
    focus back); the folded filters open from the keyboard."""
    from playwright.sync_api import expect

    from tests import factories

    factories.federation(8)
    page = new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
    page.goto(f"{live_server.url}/ratings/adlg/")
    menu = page.locator("#site-menu")
    expect(menu).to_be_hidden()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "menu-toggle"
    page.keyboard.press("Enter")
    expect(menu).to_be_visible()
    expect(page.locator(".menu-toggle")).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Ratings"
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    assert page.evaluate("document.activeElement.className") == "menu-toggle"
    # The rating list's filters are folded on a phone: the first screen shows players.
    expect(page.locator("#id_country")).to_be_hidden()
    assert page.locator("table.rating-list tbody tr").first.bounding_box()["y"] < 844
    page.locator("details.fold > summary").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#id_country")).to_be_visible()
    # On a screen, the same page shows the filters and the whole menu without a click.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.reload()
    expect(page.locator("#id_country")).to_be_visible()
    expect(page.locator(".site-nav")).to_be_visible()
    expect(page.locator(".menu-toggle")).to_be_hidden()
