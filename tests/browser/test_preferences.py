"""Display preferences in real Chromium: the card style and sound saved on the table
settings page change the table (bigger indices, a minimal face, table sounds or
silence without any AudioContext); each synthesised tone is short and unclipped."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.conftest import (
    PASSWORD,
    SCREENSHOTS,
    TablePlayer,
    sign_in,
    start_from_lobby,
)
from tests.browser.test_play import SIZES, assert_fits
from tests.factories import create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per card in my hand: the drawn rank indices (heights in px) and suit pips.
VISIBLE_ART = """cards => cards.map((card) => {
  const shown = (sel) => [...card.querySelectorAll(sel)]
    .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  return {ranks: shown(".card__rank").map((r) => r.height), pips: shown(".card__pip").length,
          court: shown(".card__court").length};
})"""


def save_preferences(page: Any, base_url: str, *, card_style: str, sound_on: bool) -> None:
    page.goto(f"{base_url}/players/settings/table/")
    page.select_option("#id_card_style", card_style)
    page.set_checked("#id_sound_on", sound_on)
    page.click("form[data-prefs-form] button[type=submit]")
    page.locator("text=Your table settings are saved.").wait_for()


def hand_art(page: Any) -> list[dict[str, Any]]:
    return page.locator("[data-my-hand] .card").evaluate_all(VISIBLE_ART)


def test_card_style_from_the_settings_page_changes_the_table(site: Any, new_page: Any) -> None:
    create_user("carla", PASSWORD)
    page = new_page(SIZES["desktop"])
    sign_in(page, site.url, "carla")
    # To 250: a match to 50 can end on the computer's first gin, before this test's turn.
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    table_url = page.url
    player = TablePlayer(page)
    deadline = time.monotonic() + 30
    while page.locator("[data-my-hand] .card").count() != 11:  # my turn to discard: it stays
        assert time.monotonic() < deadline, "never got to discard"
        if player.act() == "showdown":  # the computer knocked first: the next hand
            player.next_hand()
        time.sleep(0.05)
    assert page.locator("html").get_attribute("data-card-style") == "classic"
    classic = hand_art(page)
    # Classic: an index in two corners (rank over pip) and a centre pip or court figure.
    assert all(len(c["ranks"]) == 2 and c["pips"] == 3 for c in classic), classic
    classic_rank = max(h for c in classic for h in c["ranks"])

    seen = {}
    for style in ("classic", "large", "minimal"):
        if style != "classic":
            save_preferences(page, site.url, card_style=style, sound_on=True)
            assert page.locator("html").get_attribute("data-card-style") == style
            page.goto(table_url)
            page.locator("[data-my-hand] .card").first.wait_for()
            assert page.locator("html").get_attribute("data-card-style") == style
        page.mouse.move(1, 1)
        seen[style] = hand_art(page)
        for name in ("phone-portrait", "desktop"):
            page.set_viewport_size(SIZES[name])
            page.wait_for_timeout(200)
            assert_fits(page, SIZES[name])
            page.screenshot(path=SCREENSHOTS / f"cards-{style}-{name}.png")
        page.set_viewport_size(SIZES["desktop"])

    # Large: jumbo indices in both corners, nothing in the centre.
    assert all(len(c["ranks"]) == 2 and c["pips"] == 2 and not c["court"] for c in seen["large"])
    assert min(h for c in seen["large"] for h in c["ranks"]) > 1.4 * classic_rank
    # Minimal: one big rank over one suit, nothing else.
    assert all(len(c["ranks"]) == 1 and c["pips"] == 1 and not c["court"] for c in seen["minimal"])
    assert min(h for c in seen["minimal"] for h in c["ranks"]) > 1.6 * classic_rank
    assert page.js_errors == []


def sounds(page: Any) -> dict[str, Any]:
    return page.evaluate("({played: [...window.ginSound.played], state: window.ginSound.state})")


def test_sound_on_plays_table_sounds_and_off_creates_no_audio(site: Any, new_page: Any) -> None:
    create_user("dmitri", PASSWORD)
    page = new_page()
    sign_in(page, site.url, "dmitri")
    start_from_lobby(page, "computer", variant="time_freedom", level="easy")
    table_url = page.url
    player = TablePlayer(page)
    page.locator("[data-my-hand] .card").first.wait_for()
    assert page.locator("html").get_attribute("data-sound") == "on"

    def play_until(done: Any, what: str) -> None:
        """Play until ``done``, or until the match is over: one gin against a hand full
        of deadwood can reach the target score, and what was played by then is judged."""
        deadline = time.monotonic() + 30
        while not done():
            assert time.monotonic() < deadline, what
            if player.act() == "showdown":
                if player.match_over():
                    return
                player.next_hand()
            time.sleep(0.05)

    # After my first click, the computer's discard and my turn are heard.
    play_until(lambda: {"discard", "turn"} <= set(sounds(page)["played"]),
               "no discard and turn sounds")
    assert sounds(page)["state"] != "none"

    save_preferences(page, site.url, card_style="classic", sound_on=False)
    assert page.locator("html").get_attribute("data-sound") == "off"
    page.goto(table_url)
    page.locator("[data-my-hand] .card").first.wait_for()
    # Clicks and several of the computer's turns later: silence, and no AudioContext.
    start = player.history_length()
    play_until(lambda: player.history_length() >= start + 6, "play did not continue")
    assert sounds(page) == {"played": [], "state": "none"}
    assert page.js_errors == []


def test_each_tone_is_short_and_unclipped(site: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(site.url + "/fairness/")
    tones = page.evaluate(
        """async () => {
            const s = await import("/static/games/sound.js");
            const out = {};
            for (const name of s.SOUND_NAMES) {
              const ctx = new OfflineAudioContext(1, 44100 * 3, 44100);
              s.synthesise(ctx, name, 0);
              const data = (await ctx.startRendering()).getChannelData(0);
              let peak = 0, last = 0;
              data.forEach((x, i) => {
                peak = Math.max(peak, Math.abs(x));
                if (Math.abs(x) > 0.002) last = i;
              });
              out[name] = {peak, seconds: last / 44100};
            }
            return out;
        }"""
    )
    assert set(tones) == {"turn", "discard", "hand_end", "gin", "error"}
    for name, tone in tones.items():
        assert 0.05 < tone["peak"] < 0.9, (name, tone)
        assert tone["seconds"] < 1.3, (name, tone)
    # Gin's chord rings on after a plain hand end.
    assert tones["gin"]["seconds"] > tones["hand_end"]["seconds"] + 0.2
