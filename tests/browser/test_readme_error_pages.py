"""The README's run mode, as a visitor meets it: the site started exactly as the
README's run command starts it (tests/embedded_site.py), a wrong address and a server
error answer the site's own pages, never Django's technical ones (which list every URL
pattern of the site, its settings and its code). The run mode behaves as production
does here: DEBUG is off unless asked for, and its static files, secret key and hosts
work out of the box."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, axe_violations
from tests.embedded_site import EmbeddedSite, running_embedded_site

# What only Django's technical pages say.
TECHNICAL = (
    "URLconf",
    "urlpatterns",
    "DEBUG = True",
    "Traceback",
    "Request Method",
    "ginsite.urls",
    "OperationalError",
    "settings file",
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def embedded_site() -> Iterator[EmbeddedSite]:
    with running_embedded_site() as site:
        yield site


def visitor(browser: Browser, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    context.set_default_timeout(20_000)
    return context.new_page()


def assert_the_sites_own_page(page: Page, heading: str) -> None:
    page.get_by_role("heading", level=1, name=heading).wait_for()
    text = page.content()
    assert not [word for word in TECHNICAL if word in text], text
    # The site's header, styled by the site's stylesheet (served with DEBUG off too).
    page.locator(".site-header .brand").wait_for()
    assert page.evaluate(
        "getComputedStyle(document.querySelector('.site-header')).display !== 'inline'"
    )
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def violations_in_main(page: Page, axe_source: str) -> list[dict]:
    """The serious accessibility violations of the page's own content (its frame, the
    header and footer of every page, is tests/browser/test_accessibility.py's)."""
    return [
        violation
        for violation in axe_violations(page, axe_source)
        if any(
            page.evaluate("(t) => !!document.querySelector(t)?.closest('main')", target)
            for target in violation["nodes"]
        )
    ]


def test_a_wrong_address_and_a_server_error_show_the_sites_own_pages(
    browser: Browser, embedded_site: EmbeddedSite, axe_source: str
) -> None:
    url = embedded_site.url
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = visitor(browser, viewport)
        response = page.goto(url + "/no-such-page/")
        assert response is not None and response.status == 404
        assert_the_sites_own_page(page, "Page not found")
        assert "/no-such-page/" in page.locator("main").inner_text()
        assert violations_in_main(page, axe_source) == []
        page.screenshot(path=str(SCREENSHOTS / f"readme-404-{name}.png"), full_page=True)
        # A way on: back to the lobby.
        page.get_by_role("link", name="Back to the lobby").click()
        page.wait_for_url(url + "/")
        page.context.close()

    # A page whose view says "no such thing" (Http404) gets the same page.
    page = visitor(browser, DESKTOP)
    response = page.goto(url + "/players/nobody-by-that-name/")
    assert response is not None and response.status == 404
    assert_the_sites_own_page(page, "Page not found")

    # A server error: the tournaments' table is gone from under the running site.
    with sqlite3.connect(embedded_site.database, timeout=30) as db:
        db.execute("ALTER TABLE tournaments_tournament RENAME TO tournaments_gone")
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = visitor(browser, viewport)
        response = page.goto(url + "/tournaments/")
        assert response is not None and response.status == 500
        assert_the_sites_own_page(page, "Something went wrong")
        page.screenshot(path=str(SCREENSHOTS / f"readme-500-{name}.png"), full_page=True)
        page.context.close()
    # The error is in the server's log, for whoever runs it.
    assert "tournaments_tournament" in embedded_site.log()
