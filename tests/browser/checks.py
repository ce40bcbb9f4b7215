"""The checks every browser test makes of a page: it fits the width, and axe-core finds nothing serious in it.

axe-core is the one bundled with axe-playwright-python. Its `Axe.run` sends the 570 kB script to the page before
every run; here it is sent only to a document that has not got it yet (`axe_problems`), or once for a whole
context (`axe_in_every_page`, for a crawl that checks every page it opens).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import axe_playwright_python

SERIOUS = ("serious", "critical")
# Rules axe-core runs only when asked (tagged experimental) that a page must pass too: WCAG 2.5.3 (label in name,
# level A): a control's accessible name contains the words it shows, so that saying them aloud finds it.
_EXTRA_RULES = '{"label-content-name-mismatch": {enabled: true}}'
_AXE_JS = Path(axe_playwright_python.__file__).resolve().parent / "axe.min.js"


@cache
def axe_script() -> str:
    return _AXE_JS.read_text(encoding="utf-8")


def axe_in_every_page(context) -> None:
    """Every document the context opens from now on has axe-core, loaded before the page's own scripts."""
    context.add_init_script(script=axe_script())


def axe_violations(page) -> list[dict]:
    """axe-core's violations of serious or critical impact on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_script())
    results = page.evaluate(f"axe.run({{resultTypes: ['violations'], rules: {_EXTRA_RULES}}})")
    return [violation for violation in results["violations"] if violation["impact"] in SERIOUS]


def axe_problems(page) -> list[str]:
    """Each serious or critical violation: its impact, rule, help and first three places."""
    return [f"{v['impact']}: {v['id']} ({v['help']}) at {[n['target'] for n in v['nodes'][:3]]}"
            for v in axe_violations(page)]


def fits(page) -> bool:
    """The page does not scroll sideways."""
    return page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth") + 1


def resize(page, width: int, height: int) -> None:
    """The page at another size, once its scripts have answered the resize (site.js makes a table that has become
    wider than the screen a focusable region): the resize event comes before the next frame is drawn."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def choose_pool(page, form: str, pool: str) -> None:
    """The players page's pool of `form` (find, paste, new): chosen from the tournament's pools when it is one of
    them, else typed as a new pool (an explicit act, its own field)."""
    if page.locator(f"#pool-choice-{form} option[value='{pool}']").count():
        page.select_option(f"#pool-choice-{form}", pool)
        page.fill(f"#new-pool-{form}", "")
    else:
        page.fill(f"#new-pool-{form}", pool)


def sign_in(page, base_url: str, next_path: str, username: str, password: str) -> None:
    """Signed in through the sign-in page, which then opens `next_path`."""
    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
