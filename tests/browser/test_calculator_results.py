"""The rules page's calculator offers the results of the system chosen, as the system changes (site.js)."""

from __future__ import annotations

SCREENSHOT_PREFIX = "calculator"  # see tests/browser/conftest.py


def _offered(page) -> list[str]:
    return page.locator("#id_result option").evaluate_all("options => options.map(o => o.value)")


def test_the_results_follow_the_system_chosen(live_server, browser_page, transactional_db):
    page = browser_page
    page.goto(f"{live_server.url}/rules/")
    assert "A+" not in _offered(page) and "DD" in _offered(page)  # L'Art de la Guerre first
    page.select_option("#id_system", "battle-empire")
    assert "A++" in _offered(page) and "DD" not in _offered(page)
    page.select_option("#id_result", "A++")
    page.get_by_role("button", name="Compute").click()
    assert page.locator("#calculation").is_visible()  # computed, not refused
    page.select_option("#id_system", "adlg")
    assert "A++" not in _offered(page)
