"""The site in the player's language (ginsite/i18n.py, locale/): a visitor switches to
Spanish with the footer's chooser and plays a whole hand against the computer with
every word on screen in Spanish; in each of the other languages a player at 390 px
plays the first moves of a hand, and the lobby, the table and the sign-up page fit the
phone (screenshots in tests/browser/screenshots/, at the phone's and a desktop's size,
looked at); the browser code groups numbers as the language does; the lessons the
service worker keeps follow the reader's language."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    DESKTOP,
    SCREENSHOTS,
    TablePlayer,
    start_from_lobby,
    wait_until,
)
from tests.po import read

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PHONE = {"width": 390, "height": 844}
WORD = re.compile(r"[^\W\d_]+")
GAP = re.compile(r"%\(\w+\)[sd]|\{\w+\}|<[^>]+>|&\w+;")
QUOTED = re.compile(r'"[^"]*"')
# Names the site prints as they are in every language (the brand, the variants named
# after places, the hash, the keys of the keyboard).
AS_WRITTEN = {"gin", "rummy", "online", "oklahoma", "sha", "hmac", "tab", "esc"}
# Words the sign-up form's own catalogs (django-allauth's) use in some languages, as
# players of those languages write them ("Email", Italian "Username").
AS_WRITTEN |= {"email", "username"}


def english_only_words(language: str) -> set[str]:
    """Words of the English texts that no translation into ``language`` uses: one of
    them on screen is English left untranslated."""
    english: set[str] = set()
    translated: set[str] = set()
    for domain in ("django", "djangojs"):
        for entry in read(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"):
            for text in (entry.msgid, entry.msgid_plural or ""):
                english |= {w.lower() for w in WORD.findall(GAP.sub(" ", text))}
            for text in entry.translations:
                # Words in straight quotes are a program's ("stock", "knock" of the
                # engine's refusals), kept in English by every translation.
                text = QUOTED.sub(" ", GAP.sub(" ", text))
                translated |= {w.lower() for w in WORD.findall(text)}
    return english - translated - AS_WRITTEN


def english_on_screen(page: Any, english: set[str], names: set[str]) -> set[str]:
    text = page.locator("body").inner_text()
    # Tokens with digits (a hash, "10♥") are not words.
    words = {w.lower() for token in text.split() if not re.search(r"\d", token)
             for w in WORD.findall(token)}
    found = (words & english) - names
    if found:  # the lines they are on, for the failure's message
        lines = [line for line in text.splitlines()
                 if {w.lower() for w in WORD.findall(line)} & found]
        print("English on screen:", lines)
    return found


def switch_language(page: Any, code: str) -> None:
    """The footer's chooser: the same page comes back in ``code``."""
    url = page.url
    page.select_option("#site-language", code)
    page.locator(".language-form button[type=submit]").click()
    page.wait_for_url(url)
    wait_until(page, f"document.documentElement.lang === {code!r}")


def test_a_visitor_switches_to_spanish_and_plays_a_whole_hand_in_spanish(
    site: Any, new_page: Any
) -> None:
    english = english_only_words("es")
    assert {"knock", "deadwood", "discard", "stock", "hand"} <= english
    page = new_page(PHONE)
    page.goto(site.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    switch_language(page, "es")
    assert page.url == site.url + "/", "the address does not change"
    assert page.locator("h1").inner_text().startswith("Gin rummy, en directo")
    assert english_on_screen(page, english, set()) == set()

    page.click("text=Jugar como invitado, sin registro")
    page.locator(".site-account__name").wait_for()
    guest = page.locator(".site-account__name").inner_text().replace("invitado", "").strip()
    names = {w.lower() for w in WORD.findall(guest)}
    assert english_on_screen(page, english, names) == set()

    start_from_lobby(page, "computer", variant="time_freedom", level="easy")
    page.locator("[data-my-hand] .card").first.wait_for()
    player = TablePlayer(page)
    seen_mid_hand = False
    deadline = time.monotonic() + 120
    for hand in range(3):
        # The player ends no hand before its first discard (a deal may allow a knock at
        # once); should the computer end one first, the next hand is played.
        while (done := player.act(end_hand=seen_mid_hand)) != "showdown":
            assert time.monotonic() < deadline, "the hand did not end"
            if done == "discard" and not seen_mid_hand:
                # The status line, the log, the piles, the seats and the side panel.
                assert english_on_screen(page, english, names) == set()
                assert "Puntos muertos" in page.locator("[data-deadwood]").inner_text()
                seen_mid_hand = True
                page.screenshot(path=SCREENSHOTS / "language-es-table.png")
            time.sleep(0.05)
        if seen_mid_hand or hand == 2 or player.match_over():
            break
        player.next_hand()
    assert seen_mid_hand
    assert player.wait_for_verdict() == "verified"
    dialog = page.locator("#showdown")
    headline = dialog.locator("[data-showdown-headline]").inner_text()
    assert re.search(r"Gin|Ganas|gana|Contragolpe|Tablas|cerró|hizo", headline), headline
    assert re.match(r"Mano \d+\.", dialog.locator("[data-showdown-why]").inner_text())
    assert english_on_screen(page, english, names) == set()
    page.screenshot(path=SCREENSHOTS / "language-es-showdown.png")

    # Cards are named for screen readers in Spanish ("diez de picas").
    names_read = page.locator("#showdown .card[aria-label]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert names_read and all(
        re.match(r"^(as|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|jota|reina|rey) de "
                 r"(tréboles|diamantes|corazones|picas)", name)
        for name in names_read
    ), names_read
    assert page.js_errors == []


def translation_of(language: str, domain: str, msgid: str) -> str:
    for entry in read(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"):
        if entry.msgid == msgid and entry.msgctxt is None:
            return entry.translations[0]
    raise KeyError(msgid)


def fits_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px phone"


@pytest.mark.parametrize(
    ("code", "catalog", "browser_locale"),
    [("es", "es", "es-ES"), ("pt-br", "pt_BR", "pt-BR"), ("fr", "fr", "fr-FR"),
     ("de", "de", "de-DE"), ("it", "it", "it-IT")],
)
def test_a_phone_in_each_language_starts_a_hand_and_every_page_fits(
    site: Any, new_page: Any, code: str, catalog: str, browser_locale: str
) -> None:
    """The browser's language is the site's (Accept-Language); at 390 px the lobby, the
    sign-up page and the table, with the first moves of a hand, are in that language and
    nothing sticks out sideways."""
    english = english_only_words(catalog)
    page = new_page(PHONE, locale=browser_locale, is_mobile=True, has_touch=True)
    page.goto(site.url + "/accounts/signup/")
    assert page.locator("html").get_attribute("lang") == code
    assert english_on_screen(page, english, set()) == set()
    fits_the_phone(page)
    page.screenshot(path=SCREENSHOTS / f"language-{code}-signup.png")

    page.goto(site.url + "/")
    fits_the_phone(page)
    page.screenshot(path=SCREENSHOTS / f"language-{code}-lobby.png", full_page=True)
    page.click(f"text={translation_of(catalog, 'django', 'Play as guest, no sign-up')}")
    page.locator(".site-account__name").wait_for()
    names = {w.lower() for w in WORD.findall(page.locator(".site-account__name").inner_text())}
    # To 250: a match to 50 can end on the computer's first gin, before this test's turn.
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    page.locator("[data-my-hand] .card").first.wait_for()
    player = TablePlayer(page)
    deadline = time.monotonic() + 60
    while player.act_or_next_hand(end_hand=False) != "discard":
        assert time.monotonic() < deadline, "no discard of mine in time"
        time.sleep(0.05)
    deadwood = translation_of(catalog, "djangojs", "Deadwood %(points)s").split("%(")[0].strip()
    assert page.locator("[data-deadwood]").inner_text().startswith(deadwood)
    wait_until(page, "!document.getElementById('table-app').classList.contains('is-pending')")
    assert english_on_screen(page, english, names) == set()
    fits_the_phone(page)
    page.screenshot(path=SCREENSHOTS / f"language-{code}-table.png")
    # The browser code writes numbers as the language does (i18n.js formatNumber).
    grouped = page.evaluate(
        "async () => (await import('/static/games/i18n.js')).formatNumber(1234)"
    )
    assert grouped.replace("\u202f", " ").replace("\xa0", " ") == (
        "1 234" if code == "fr" else "1.234"
    )
    # The same table and lobby at a desktop's size, for the screenshots.
    page.set_viewport_size(DESKTOP)
    assert english_on_screen(page, english, names) == set()
    page.screenshot(path=SCREENSHOTS / f"language-{code}-table-desktop.png")
    page.goto(site.url + "/")
    page.screenshot(path=SCREENSHOTS / f"language-{code}-lobby-desktop.png", full_page=True)
    assert page.js_errors == []


def test_the_kept_lessons_page_follows_the_readers_language(site: Any, new_page: Any) -> None:
    """The service worker keeps the lessons in the language they were first fetched in;
    once the reader's language is another, the page fetches itself again in it
    (page_language.js) and shows it, still from the worker."""
    page = new_page(PHONE)
    page.goto(site.url + "/learn/")
    assert page.locator("h1").first.inner_text() == "Learn gin rummy"
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.goto(site.url + "/")
    switch_language(page, "es")
    page.goto(site.url + "/learn/")
    wait_until(page, "document.documentElement.lang === 'es'")
    page.locator("[data-lesson-list] li").first.wait_for()
    assert page.locator("#course-title").inner_text() == "Aprende gin rummy"
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # The worker's copy is Spanish now: the next visit is Spanish at once.
    page.reload()
    assert page.locator("html").get_attribute("lang") == "es"
    # A lesson's table draws the hand's loose cards as deadwood, named in Spanish.
    page.goto(site.url + "/learn/#lesson-melds")
    tag = page.locator("[data-my-hand] .meld-group--deadwood .meld-group__tag")
    assert tag.text_content() == "sueltas"
    assert page.js_errors == []
