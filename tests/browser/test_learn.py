"""Lessons as a newcomer meets them (issue 32): a visitor, not signed in, plays the
first lesson on the table (a wrong move is explained and the position stays; the
right one moves on), finishes it, signs up, and finds the lesson kept on the account;
the page at phone and desktop sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.learn.models import LessonDone
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    TablePlayer,
    axe_violations,
    off_the_event_loop,
    sign_up,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def feedback(page: Page) -> str:
    return page.locator("[data-feedback]").inner_text()


def right_then_next(page: Page, act: Any) -> None:
    act()
    expect(page.locator("[data-feedback]")).to_have_attribute("data-result", "right")
    page.locator("[data-next]").click()


def test_a_guest_finishes_the_first_lesson_signs_up_and_keeps_it(
    site: Any, new_page: Any, axe_source: str
) -> None:
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(site.url + "/learn/")
    page.get_by_role("link", name="Cards and melds").click()
    expect(page.locator("[data-goal]")).to_contain_text("take the 7♥")
    page.screenshot(path=SCREENSHOTS / "learn-lesson-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    assert axe_violations(page, axe_source) == []

    # A wrong move: explained in a sentence, announced, and the position stays.
    page.get_by_role("button", name="Pass").click()
    expect(page.locator("[data-feedback]")).to_have_attribute("data-result", "wrong")
    assert "5♥ and 6♥" in feedback(page)
    wait_until(page, "document.getElementById('announce').textContent.includes('Try again')")
    expect(page.get_by_role("button", name="Pass")).to_be_visible()
    page.screenshot(path=SCREENSHOTS / "learn-wrong-phone.png")

    # The right one moves on: the run shows in the hand.
    right_then_next(page, lambda: page.get_by_role("button", name="Take upcard").click())
    # By keyboard: D takes the discard pile's top card, S draws from the stock.
    expect(page.locator("[data-goal]")).to_contain_text("A♠ 2♠")
    page.keyboard.press("d")
    expect(page.locator("[data-feedback]")).to_have_attribute("data-result", "right")
    first_group = page.locator("[data-my-hand] .meld-group").first
    expect(first_group).to_contain_text("run", ignore_case=True)
    page.locator("[data-next]").click()
    page.keyboard.press("d")  # Q♥ K♥ A♥ is not a run: explained
    expect(page.locator("[data-feedback]")).to_contain_text("not a run")
    right_then_next(page, lambda: page.keyboard.press("s"))
    right_then_next(page, lambda: page.locator("[data-discard]").click())
    expect(page.locator("[data-finish]")).to_be_visible()
    assert axe_violations(page, axe_source) == []
    expect(page.locator("[data-finish-text]")).to_contain_text("Cards and melds")
    assert page.evaluate("JSON.parse(localStorage.getItem('gin-learn')).lessons") == ["melds"]

    # Sign up: the lesson this browser finished joins the new account.
    sign_up(page, site.url, "newcomer")
    page.goto(site.url + "/learn/")
    expect(page.locator("[data-lesson-item='melds'] .lesson-list__state")).to_have_text("done")
    wait_until(page, "document.querySelector('[data-account]').textContent.includes('account')")

    def kept() -> list[str]:
        rows = LessonDone.objects.filter(user__username="newcomer")
        return list(rows.values_list("lesson", flat=True))

    assert off_the_event_loop(kept) == ["melds"]
    # Another browser signed in to that account sees it too.
    other = new_page(DESKTOP)
    other.goto(f"{site.url}/accounts/login/")
    other.fill("#id_login", "newcomer")
    other.fill("#id_password", PASSWORD)
    other.click("form button[type=submit]")
    other.wait_for_url(f"{site.url}/")
    other.goto(site.url + "/learn/")
    expect(other.locator("[data-lesson-item='melds'] .lesson-list__state")).to_have_text("done")
    expect(other.locator("[data-lesson-item='deadwood'] .lesson-list__state")).to_have_text("next")
    other.get_by_role("link", name="Knocking and the knock limit").click()
    expect(other.locator("[data-goal]")).to_contain_text("Knock")
    other.screenshot(path=SCREENSHOTS / "learn-lesson-desktop.png")
    assert page.js_errors == [] and other.js_errors == []


def test_a_lesson_opens_and_plays_offline_once_the_site_was_visited(
    site: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    page.goto(site.url + "/learn/")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(page, "caches.keys().then(keys => Promise.all(keys.map(k => caches.open(k)"
                     ".then(c => c.match('/learn/'))))).then(found => found.some(Boolean))")
    page.context.set_offline(True)
    page.goto(site.url + "/learn/#lesson-gin")
    expect(page.locator("[data-goal]")).to_contain_text("Go gin")
    page.keyboard.press("g")  # the gin button's key: right, and said so
    expect(page.locator("[data-feedback]")).to_have_attribute("data-result", "right")
    expect(page.locator("[data-showdown]")).to_be_visible()
    page.context.set_offline(False)
    assert page.js_errors == []


def test_the_courses_last_match_shows_a_hint_at_each_of_the_learners_turns(
    site: Any, new_page: Any
) -> None:
    """The course ends with a match against the easy computer, hints on: at each of the
    learner's turns the table shows the expert's suggestion without Hint being pressed,
    and after a reload too; unticking the box stops it."""
    page = new_page(DESKTOP)
    page.goto(site.url + "/learn/")
    # The form the course's end shows, sent as learn.js fills it (CSRF token from the
    # cookie, which the page's progress request sets); reaching the end of the course is
    # tested above.
    wait_until(page, "document.cookie.split('; ').some((c) => c.startsWith('csrftoken='))")
    page.evaluate("""() => {
      const form = document.querySelector('[data-final-match]');
      form.querySelector('[data-csrf]').value = document.cookie.split('; ')
        .find((c) => c.startsWith('csrftoken=')).slice('csrftoken='.length);
      form.requestSubmit();
    }""")
    page.wait_for_url("**/match/*/?hints=auto")
    auto = page.locator("[data-hint-auto]")
    expect(auto).to_be_checked()
    note = page.locator("[data-hint-note]")
    turn = "[data-seat-bar='bottom'][data-turn='true']"

    def hinted_turn() -> str:
        """Wait for the learner's turn and its hint, unasked; the hint's text."""
        page.locator(turn).wait_for(timeout=30_000)
        expect(note).to_contain_text("Hint:", timeout=30_000)
        return note.inner_text()

    player = TablePlayer(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)

    assert "1 hint used" in hinted_turn()
    page.screenshot(path=SCREENSHOTS / "learn-final-match-hint-desktop.png")
    page.set_viewport_size(PHONE)
    page.screenshot(path=SCREENSHOTS / "learn-final-match-hint-phone.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    assert player.act(end_hand=False) in ("pass", "draw", "discard")
    # Its next decision (the discard after a draw, or its next turn): hinted again.
    expect(note).to_contain_text("2 hints used", timeout=60_000)

    page.goto(page.url.split("?")[0])  # reloaded without the address's ?hints=auto
    expect(auto).to_be_checked()
    assert "Hint:" in hinted_turn()

    auto.uncheck()
    before = len(asked)
    assert player.act(end_hand=False) in ("pass", "draw", "discard")
    page.locator(turn).wait_for(timeout=30_000)  # the learner's next decision
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    expect(note).to_have_text("")
    assert len(asked) == before, "a hint was asked for with the box unticked"
