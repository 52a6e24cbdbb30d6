"""The home page as a newcomer meets it: "Play as guest" says once that they now play
as a guest and puts the way to play in front of them, and on a phone (390 px wide)
"Play the computer" is on the first screen, with no scrolling."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, play_as_guest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def play_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Play the computer", exact=True)


def on_first_screen(page: Page, locator: Locator) -> bool:
    """Whether the element lies wholly within the viewport as the page now scrolls."""
    return page.evaluate(
        """(el) => { const r = el.getBoundingClientRect();
                      return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }""",
        locator.element_handle(),
    )


def guest_notices(page: Page) -> list[str]:
    """Every notice on the page that tells the visitor they play as a guest."""
    notices = page.locator(".messages .message, .guest-banner, [role=status]")
    return [text for text in notices.all_inner_texts() if "as a guest" in text]


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_play_the_computer_is_on_the_first_screen(
    site: Any, new_page: Any, name: str, viewport: dict[str, int]
) -> None:
    page = new_page(viewport)
    page.goto(site.url + "/")
    button = play_button(page)
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], box
    page.screenshot(path=SCREENSHOTS / f"home-first-screen-{name}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # It plays at once, as a guest, with the choices it shows.
    button.click()
    page.wait_for_url("**/match/*/")
    page.locator("[data-my-hand] .card").first.wait_for()
    assert page.js_errors == []


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_play_as_guest_says_it_once_and_shows_how_to_play(
    site: Any, new_page: Any, name: str, viewport: dict[str, int]
) -> None:
    page = new_page(viewport)
    page.goto(site.url + "/")
    play_as_guest(page)
    notices = guest_notices(page)
    assert len(notices) == 1, notices
    assert on_first_screen(page, page.locator(".guest-banner"))
    assert on_first_screen(page, play_button(page))
    page.screenshot(path=SCREENSHOTS / f"home-as-guest-{name}.png")
    page.reload()
    assert len(guest_notices(page)) == 1
    assert page.js_errors == []
