"""The table settings in real Chromium (issue 33): a player on a phone sets the largest
cards and the high-contrast theme, reloads the table, and finds them there from the
first paint (in the HTML sent, and in the computed style at DOMContentLoaded, the
first card drawn as wide as it stays) with corner indices big enough to read at arm's
length; a guest's settings, kept by the browser and applied before the first paint,
go to the account they sign up for; every theme passes axe-core at the table and on
the settings page, at desktop and phone sizes (screenshots in tests/browser/screenshots,
looked at)."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from accounts.models import Profile, User
from accounts.services import profile_update
from games import services
from tests.browser.conftest import (
    PASSWORD,
    SCREENSHOTS,
    TablePlayer,
    axe_violations,
    off_the_event_loop,
    play_as_guest,
    sign_in,
    sign_up,
    start_from_lobby,
    wait_until,
)
from tests.browser.test_play import SIZES, assert_fits
from tests.factories import create_match, create_user
from tests.games.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = SIZES["phone-portrait"]
DESKTOP = SIZES["desktop"]
HTML_TAG = re.compile(r"<html[^>]*>")

# Recorded by the page itself: the settings and their effect at DOMContentLoaded
# (before any module ran), and the width of the first card of my hand when it was
# added, before anything could restyle it.
FIRST_PAINT = """
window.__firstPaint = null;
document.addEventListener("DOMContentLoaded", () => {
  const root = document.documentElement;
  window.__firstPaint = {
    size: root.dataset.cardSize, theme: root.dataset.theme,
    scale: getComputedStyle(root).getPropertyValue("--card-scale").trim(),
    background: getComputedStyle(document.body).backgroundColor,
  };
});
new MutationObserver((changes, observer) => {
  const card = document.querySelector("[data-my-hand] .card");
  if (!card) return;
  window.__firstCardWidth = card.getBoundingClientRect().width;
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def by_rank(card: str) -> tuple[int, int]:
    """The order of a hand sorted by rank: ace to king, then spades, hearts, clubs,
    diamonds (cards.js)."""
    return "A23456789TJQK".index(card[0]), "SHCD".index(card[1])


def choose(page: Any, field: str, value: str) -> None:
    """Pick a value of the settings form: a row of choices or a select."""
    radio = page.locator(f"label:has(input[name={field}][value={value}])")
    if radio.count():
        radio.click()
    else:
        page.select_option(f"#id_{field}", value)


def html_tag(text: str) -> str:
    match = HTML_TAG.search(text)
    assert match
    return match.group(0)


def test_largest_cards_and_high_contrast_on_a_phone_from_the_first_paint(
    site: Any, new_page: Any
) -> None:
    grace = create_user("grace", PASSWORD)
    page = new_page(PHONE)
    sign_in(page, site.url, "grace")
    page.goto(site.url + "/players/settings/table/")
    choose(page, "card_size", "huge")
    choose(page, "theme", "contrast")
    page.click("form[data-prefs-form] button[type=submit]")
    page.locator("text=Your table settings are saved.").wait_for()

    match = off_the_event_loop(create_match, grace, "easy")
    page.add_init_script(FIRST_PAINT)
    response = page.goto(f"{site.url}/match/{match.pk}/")
    tag = html_tag(response.text())
    assert 'data-card-size="huge"' in tag and 'data-theme="contrast"' in tag, tag
    page.locator("[data-my-hand] .card").first.wait_for()
    first = page.evaluate("window.__firstPaint")
    assert first == {"size": "huge", "theme": "contrast", "scale": "1.5",
                     "background": "rgb(0, 0, 0)"}, first

    # Reloaded: the same from the first card on, and nothing moves once loaded.
    page.reload()
    page.locator("[data-my-hand] .card").first.wait_for()
    assert page.evaluate("window.__firstPaint.theme") == "contrast"
    width_then = page.evaluate("window.__firstCardWidth")
    hand = page.locator("[data-my-hand] .card")
    widths = hand.evaluate_all("cards => cards.map((c) => c.getBoundingClientRect().width)")
    assert width_then == widths[0] == 75, (width_then, widths)  # 50 px on a phone x 1.5
    # Arm's length: each corner index of my cards is 25 px high or more (about 4 mm).
    ranks = hand.evaluate_all(
        """cards => cards.map((card) => Math.min(...[...card.querySelectorAll(".card__rank")]
             .map((el) => el.getBoundingClientRect().height).filter((h) => h > 0)))"""
    )
    assert min(ranks) >= 25, ranks
    assert_fits(page, PHONE)
    page.screenshot(path=SCREENSHOTS / "settings-huge-contrast-phone.png", full_page=True)
    # Held sideways, and on a desktop, the largest cards still fit.
    for name in ("phone-landscape", "desktop"):
        page.set_viewport_size(SIZES[name])
        page.wait_for_timeout(200)
        assert_fits(page, SIZES[name])
        page.screenshot(path=SCREENSHOTS / f"settings-huge-contrast-{name}.png")
    assert page.js_errors == []


def test_a_guests_settings_stay_in_the_browser_then_go_to_the_account_signed_up(
    site: Any, new_page: Any
) -> None:
    page = new_page(DESKTOP)
    page.goto(site.url + "/")
    play_as_guest(page)
    page.goto(site.url + "/players/settings/table/")
    assert page.locator("html").get_attribute("data-prefs") == "browser"
    choose(page, "card_size", "large")
    choose(page, "theme", "blue")
    choose(page, "hand_sort", "suit")
    page.check("#id_left_handed")
    # Shown at once, before saving.
    assert page.locator("html").get_attribute("data-theme") == "blue"
    page.click("form[data-prefs-form] button[type=submit]")
    page.locator("text=Your table settings are saved in this browser.").wait_for()

    # The server does not know them: the page it sends has the defaults, and the
    # browser's blocking script in <head> has put these in by DOMContentLoaded.
    page.add_init_script(FIRST_PAINT)
    response = page.goto(site.url + "/fairness/")
    assert 'data-theme="green"' in html_tag(response.text())
    wait_until(page, "window.__firstPaint")
    assert page.evaluate("window.__firstPaint") == {
        "size": "large", "theme": "blue", "scale": "1.22", "background": "rgb(10, 21, 32)",
    }
    page.goto(site.url + "/players/settings/table/")
    assert page.is_checked("input[name=theme][value=blue]")
    assert page.is_checked("#id_left_handed")

    sign_up(page, site.url, "newcomer")

    def saved() -> tuple[Any, ...]:
        p = Profile.objects.get(user=User.objects.get(username="newcomer"))
        return (p.card_size, p.theme, p.hand_sort, p.left_handed, p.sound_on)

    assert off_the_event_loop(saved) == ("large", "blue", "suit", True, True)
    tag = html_tag(page.goto(site.url + "/fairness/").text())
    for expected in ('data-prefs="account"', 'data-card-size="large"', 'data-theme="blue"',
                     'data-hand-sort="suit"', 'data-hand="left"'):
        assert expected in tag, (expected, tag)
    # The offline table, the same page for everyone, shows them from the browser's copy.
    response = page.goto(site.url + "/play/offline/")
    assert 'data-theme="green"' in html_tag(response.text())
    wait_until(page, "window.__firstPaint")
    assert page.evaluate("window.__firstPaint.theme") == "blue"
    assert page.js_errors == []


def test_every_theme_passes_axe_at_the_table_and_on_the_settings_page(
    site: Any, new_page: Any, axe_source: str
) -> None:
    hana = create_user("hana", PASSWORD)
    match = off_the_event_loop(create_match, hana, "easy")
    page = new_page(DESKTOP)
    sign_in(page, site.url, "hana")
    found: dict[str, Any] = {}
    for theme in Profile.Theme.values:
        off_the_event_loop(profile_update, user=hana, theme=theme, card_size="large",
                           card_back="blue" if theme == "wine" else "red")
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.goto(f"{site.url}/match/{match.pk}/")
            page.locator("[data-my-hand] .card").first.wait_for()
            assert page.locator("html").get_attribute("data-theme") == theme
            # Larger cards: my own name bar, under my hand, stays inside the felt.
            felt, bar = (page.locator(sel).bounding_box()
                         for sel in (".felt", ".seat--me .player-bar"))
            assert felt and bar and bar["y"] + bar["height"] <= felt["y"] + felt["height"], (
                name, felt, bar)
            violations = axe_violations(page, axe_source)
            if violations:
                found[f"{theme} table {name}"] = violations
            page.screenshot(path=SCREENSHOTS / f"theme-{theme}-table-{name}.png")
            if name == "phone":
                page.goto(site.url + "/")
                violations = axe_violations(page, axe_source)
                if violations:
                    found[f"{theme} home {name}"] = violations
                page.screenshot(path=SCREENSHOTS / f"theme-{theme}-home-{name}.png")
                page.goto(site.url + "/players/settings/table/")
                violations = axe_violations(page, axe_source)
                if violations:
                    found[f"{theme} settings {name}"] = violations
                page.screenshot(path=SCREENSHOTS / f"theme-{theme}-settings-{name}.png",
                                full_page=True)
    assert found == {}
    assert page.js_errors == []


def test_confirm_before_discard_rank_sorting_and_the_left_handed_table(
    site: Any, new_page: Any
) -> None:
    ida = create_user("ida", PASSWORD)
    off_the_event_loop(profile_update, user=ida, confirm_discard=True, hand_sort="rank",
                       left_handed=True, volume=0)
    page = new_page(DESKTOP)
    sign_in(page, site.url, "ida")
    # To 250: a match to 50 can end on the computer's first gin, before this test's turn.
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    player = TablePlayer(page)
    hand = page.locator("[data-my-hand] .card")
    hand.first.wait_for()
    # Left-handed: the side panel left of the felt, the stock right of the discard pile.
    left = page.evaluate("""() => Object.fromEntries(["sidebar", "felt"].map((name) =>
        [name, document.querySelector(`.${name}`).getBoundingClientRect().x]))""")
    assert left["sidebar"] < left["felt"], left
    assert page.locator("[data-discard]").bounding_box()["x"] < page.locator(  # type: ignore[index]
        "[data-stock]").bounding_box()["x"]  # type: ignore[index]

    deadline = time.monotonic() + 45
    while hand.count() != 11:  # my turn to discard
        assert time.monotonic() < deadline, ("never got to discard", page.locator(
            "[data-status]").inner_text(), hand.count(), page.js_errors)
        if player.act() == "showdown":
            player.next_hand()
        time.sleep(0.05)
    # Sorted by rank (then spades, hearts, clubs, diamonds), melds marked, not grouped.
    cards = player.hand_cards()
    assert cards == sorted(cards, key=by_rank)
    assert page.locator("[data-my-hand] .meld-group").count() == 1

    target = page.locator("[data-my-hand] .card[data-drag=card]").last
    card = target.get_attribute("data-card")
    target.click()
    chosen = page.locator(f"[data-my-hand] .card[data-card='{card}']")
    wait_until(page, f"document.querySelector(\"[data-my-hand] [data-card='{card}']\")"
                     ".dataset.confirm === 'true'")
    assert hand.count() == 11  # chosen, not discarded
    assert "again to discard" in page.locator("[data-status]").inner_text()
    assert "press again to discard it" in chosen.inner_text()
    chosen.click()
    wait_until(page, "document.querySelectorAll('[data-my-hand] .card').length === 10")
    assert card not in player.hand_cards()
    page.screenshot(path=SCREENSHOTS / "settings-left-handed-by-rank-desktop.png")
    # Sound on at volume 0: the page has heard clicks, yet no tone was ever played; a
    # tone at volume 35 is about a third as loud as at full volume.
    sound = page.evaluate("({played: [...window.ginSound.played], state: window.ginSound.state})")
    assert sound["played"] == [] and sound["state"] != "none", sound
    peaks = page.evaluate(
        """async () => {
            const s = await import("/static/games/sound.js");
            const peak = async (level) => {
              const ctx = new OfflineAudioContext(1, 44100, 44100);
              s.synthesise(ctx, "turn", 0, level);
              const data = (await ctx.startRendering()).getChannelData(0);
              return data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
            };
            return [await peak(1), await peak(0.35)];
        }"""
    )
    assert abs(peaks[1] / peaks[0] - 0.35) < 0.02, peaks

    # The replay of a finished hand sorts both hands by rank too, one row each.
    finished = off_the_event_loop(lambda: play_out(services.match_create_computer(
        user=ida, level="easy", rules={"target_score": 50, "turn_seconds": None},
        variant="time_freedom"), random.Random(3)))
    page.goto(f"{site.url}/match/{finished.pk}/hand/1/replay/")
    for side in ("top", "bottom"):
        row = page.locator(f"[data-replay-hand={side}] .meld-group")
        assert row.count() == 1, side
        shown = row.locator(".card").evaluate_all("cards => cards.map((c) => c.dataset.card)")
        assert shown == sorted(shown, key=by_rank)

    # Animations: this browser asks for reduced motion, which "as my device asks" (the
    # default) follows with none; "normal" and "fast" override it.
    transitions = {}
    for motion in ("auto", "normal", "fast", "none"):
        off_the_event_loop(profile_update, user=ida, motion=motion)
        page.goto(f"{site.url}/match/{finished.pk}/hand/1/replay/")
        transitions[motion] = page.locator("[data-replay-hand=bottom] .card").first.evaluate(
            "card => getComputedStyle(card).transitionDuration")
    assert transitions == {"auto": "0s", "normal": "0.12s, 0.12s", "fast": "0.06s, 0.06s",
                           "none": "0s"}, transitions
    assert page.js_errors == []
