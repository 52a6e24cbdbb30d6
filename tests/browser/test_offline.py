"""The installable app in real Chromium: after one visit the offline table works with
the network gone, plays a whole match against the computer in the browser, survives
a reload and a closed tab in the middle, and hands the finished match to the
player's account once the network is back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Match, Seat
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    TablePlayer,
    resign,
    sign_in,
    wait_until,
)
from tests.factories import create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


def open_offline_table(page: Page, url: str) -> None:
    page.goto(url + "/play/offline/")
    page.wait_for_selector("body[data-ready=true]")


def wait_until_installed(page: Page) -> None:
    """The service worker controls the page: every file of the app is in its cache."""
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(
        page,
        "caches.keys().then(keys => keys.some(k => k.startsWith('gin-offline-')))"
    )


def deal(page: Page, *, level: str = "easy", target: str = "50") -> None:
    form = page.locator("form[data-new-match]")
    form.locator(f"label:has(input[name=level][value={level}])").click()
    form.locator(f"label:has(input[name=target][value='{target}'])").click()
    form.locator("button[type=submit]").click()
    page.locator("[data-my-hand] .card").first.wait_for()


# The id of the match in play in the browser's store (games/static/games/offline/store.js).
PLAYING_RECORD_ID = """() => new Promise((resolve, reject) => {
  const opened = indexedDB.open("gin-offline", 1);
  opened.onerror = () => reject(opened.error);
  opened.onsuccess = () => {
    const all = opened.result.transaction("matches").objectStore("matches").getAll();
    all.onerror = () => reject(all.error);
    all.onsuccess = () => resolve(all.result.find((r) => r.status === "playing").id);
  };
})"""


def table_snapshot(page: Page) -> dict[str, Any]:
    return {
        "hand": TablePlayer(page).hand_cards(),
        "log": page.locator("[data-log] li").all_inner_texts(),
        "stock": page.locator("[data-stock-count]").inner_text(),
    }


def wait_for_my_turn(page: Page) -> None:
    wait_until(
        page,
        "!document.getElementById('table-app').classList.contains('is-pending')"
        " || document.getElementById('showdown').open"
    )


def test_play_a_whole_match_offline_then_it_reaches_my_matches(
    site: Any, new_page: Any
) -> None:
    create_user("nomad", PASSWORD)
    page = new_page()
    errors = page.js_errors
    sign_in(page, site.url, "nomad")
    open_offline_table(page, site.url)
    wait_until_installed(page)
    expect(page.locator("[data-account]")).to_have_text("nomad")

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("[data-net]")).to_have_text("offline")
    player = TablePlayer(page)
    # A few moves into the first hand, reload: the same position comes back. We neither
    # knock nor go gin before it: a first hand can be worth the whole match (to 50),
    # and a finished match is not resumed but listed. Should the computer win it in its
    # first turns all the same, a new match is dealt.
    for _ in range(5):
        deal(page)
        moves = 0
        while moves < 4 and not player.showdown_open():
            if player.act(end_hand=False) not in (None, "showdown"):
                moves += 1
            wait_for_my_turn(page)
        wait_for_my_turn(page)
        if not player.match_over():
            break
        page.click("#showdown [data-new-game]")
    assert not player.match_over()
    record_id = page.evaluate(PLAYING_RECORD_ID)
    before = table_snapshot(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.locator("[data-my-hand] .card").first.wait_for()
    wait_for_my_turn(page)
    after = table_snapshot(page)
    assert after["hand"] == before["hand"] and after["stock"] == before["stock"]
    assert after["log"][-len(before["log"]):] == before["log"][-len(after["log"]):]

    hands = 0
    closed_the_tab = False
    while True:
        player.play_until_showdown()
        hands += 1
        if player.match_over():
            break
        assert hands < 30, "the match should have ended long ago"
        player.next_hand()
        if not closed_the_tab:
            # Close the tab between hands and open the app again: the match resumes.
            context = page.context
            cards = player.hand_cards()
            page.close()
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(site.url + "/play/offline/")
            page.wait_for_selector("body[data-ready=true]")
            page.locator("[data-my-hand] .card").first.wait_for()
            player = TablePlayer(page)
            assert player.hand_cards() == cards
            closed_the_tab = True

    totals = page.locator("#showdown [data-match-over] tfoot td").all_inner_texts()
    # The last hand's number, as the result shows it (the loop above may count one hand
    # fewer: hand 1 can end during the moves before the reload).
    why = page.locator("#showdown [data-showdown-why]").inner_text()
    last_hand = int(re.match(r"Hand (\d+)\.", why).group(1))
    assert last_hand >= hands
    expect(page.locator("#showdown [data-sync-status]")).to_contain_text("when you are online")
    assert not Match.objects.exists()

    page.context.set_offline(False)
    expect(page.locator("#showdown [data-sync-status]")).to_have_text(
        "Saved to your account (unrated).", timeout=30_000
    )
    match = Match.objects.get(offline_id=record_id)
    assert (match.kind, match.rated, match.status) == ("offline", False, "finished")
    assert match.hands.count() == last_hand
    mine = Seat.objects.get(match=match, index=0)
    assert [str(mine.score), str(Seat.objects.get(match=match, index=1).score)] == totals

    page.goto(site.url + "/matches/")
    row = page.locator(".match-row", has_text=f"{totals[0]} – {totals[1]}").first
    expect(row).to_contain_text("Computer (easy)")
    expect(row).to_contain_text("offline")
    assert errors == []


@pytest.mark.parametrize("name,viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_offline_table_screenshots(site: Any, new_page: Any, name: str, viewport: Any) -> None:
    page = new_page(viewport)
    open_offline_table(page, site.url)
    wait_until_installed(page)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.screenshot(path=SCREENSHOTS / f"offline-setup-{name}.png")
    deal(page, level="medium")
    player = TablePlayer(page)
    wait_for_my_turn(page)
    for _ in range(3):
        player.act()
        wait_for_my_turn(page)
    page.screenshot(path=SCREENSHOTS / f"offline-table-{name}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    player.play_until_showdown()
    page.screenshot(path=SCREENSHOTS / f"offline-showdown-{name}.png")
    assert page.js_errors == []


def test_a_match_finished_offline_reaches_my_matches_from_any_page(
    site: Any, new_page: Any
) -> None:
    """The player opens "My matches" first once back online: the page uploads what the
    browser holds and shows it; a record that does not replay is refused, not shown."""
    from tests.offline.helpers import offline_record

    create_user("commuter", PASSWORD)
    page = new_page()
    errors = page.js_errors
    sign_in(page, site.url, "commuter")
    good = {**offline_record(target=50, seed=5), "status": "finished", "owner": None}
    bad = {**offline_record(target=50, seed=6), "status": "finished", "owner": None}
    bad["hands"][0]["actions"] = bad["hands"][0]["actions"][1:]
    stored = page.evaluate(
        """async ([good, bad]) => {
            const store = await import("/static/games/offline/store.js");
            await store.putMatch(good);
            await store.putMatch(bad);
            return (await store.allMatches()).length;
        }""",
        [good, bad],
    )
    assert stored == 2
    page.goto(site.url + "/matches/")
    expect(page.locator(".match-row", has_text="Computer (easy)")).to_contain_text(
        "offline", timeout=20_000
    )
    match = Match.objects.get(seats__user__username="commuter")
    assert match.offline_id == good["id"] and match.kind == "offline"
    open_offline_table(page, site.url)
    saved = page.locator(f"[data-offline-match='{good['id']}']")
    expect(saved).to_contain_text("Saved to your account")
    refused = page.locator(f"[data-offline-match='{bad['id']}']")
    expect(refused).to_contain_text("Not saved to your account")
    assert Match.objects.count() == 1
    assert errors == []


def test_an_update_is_installed_whole_and_taken_only_when_the_player_reloads(
    site: Any, new_page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new version never mixes with the old one in an open page: it installs its own
    cache next to the old, waits, and takes over (the old cache deleted) only when the
    player accepts it; the match in progress carries on."""
    page = new_page()
    open_offline_table(page, site.url)
    wait_until_installed(page)
    deal(page)
    cards = TablePlayer(page).hand_cards()
    old = page.evaluate("caches.keys()")
    assert len(old) == 1

    monkeypatch.setenv("OFFLINE_APP_RELEASE", "next")
    site.restart()
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    expect(page.locator("[data-update]")).to_be_visible(timeout=30_000)
    keys = page.evaluate("caches.keys()")
    assert len(keys) == 2 and old[0] in keys  # the new one beside the old, both whole
    waiting = page.evaluate(
        "navigator.serviceWorker.getRegistration().then(r => Boolean(r.waiting && r.active))"
    )
    assert waiting  # the page is still served by the old version

    # The page reloads whole from the new version once it has taken over: wait for that
    # new document, not the old one that is still on screen until the reload.
    with page.expect_navigation(timeout=30_000):
        page.click("[data-update-now]")
    page.wait_for_selector("body[data-ready=true]")
    wait_until(
        page,
        f"caches.keys().then(keys => keys.length === 1 && keys[0] !== {old[0]!r})"
    )
    page.locator("[data-update]").wait_for(state="hidden")
    assert TablePlayer(page).hand_cards() == cards
    assert page.js_errors == []


def test_offline_names_the_player_once_and_keeps_the_chosen_variant_after_upload(
    site: Any, new_page: Any
) -> None:
    """Offline, the player's seat says "You" (not "You (you)") and "My matches", which
    needs the network, is shown unavailable with the reason; back online the seat
    names the account once, the link works again, and the uploaded match is listed
    under the variant that was chosen (Default, no clock), not "Time Freedom"."""
    create_user("rambler", PASSWORD)
    page = new_page()
    sign_in(page, site.url, "rambler")
    open_offline_table(page, site.url)
    wait_until_installed(page)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("[data-net]")).to_have_text("offline")

    nav = page.locator(".site-nav")
    mine = nav.locator("[data-online-only]")
    expect(mine).to_have_attribute("aria-disabled", "true")
    assert mine.get_attribute("href") is None
    expect(mine).to_contain_text("needs a connection")
    page.screenshot(path=SCREENSHOTS / "offline-nav-offline-desktop.png")

    form = page.locator("form[data-new-match]")
    expect(form.locator("label:has(input[name=variant]:checked)")).to_have_text("Default")
    deal(page)
    me = page.locator("[data-seat-bar='bottom'] [data-name]")
    expect(me).to_have_text("You")
    expect(page.locator("[data-meta]")).to_contain_text("Default")
    player = TablePlayer(page)
    moves = 0
    while moves < 4 and not player.showdown_open():
        if player.act(end_hand=False) not in (None, "showdown"):
            moves += 1
        wait_for_my_turn(page)
    if player.showdown_open() and not player.match_over():
        player.next_hand()
    if not player.match_over():
        resign(page)
    record_id = page.evaluate(
        """() => new Promise((resolve) => {
          const opened = indexedDB.open("gin-offline", 1);
          opened.onsuccess = () => {
            const all = opened.result.transaction("matches").objectStore("matches").getAll();
            all.onsuccess = () => resolve(all.result[0].id);
          };
        })"""
    )

    page.context.set_offline(False)
    expect(page.locator("#showdown [data-sync-status]")).to_have_text(
        "Saved to your account (unrated).", timeout=30_000
    )
    page.click("#showdown [data-new-game]")
    expect(mine).to_have_attribute("href", "/matches/")
    expect(mine).not_to_have_attribute("aria-disabled", "true")
    expect(mine).to_have_text("My matches")
    match = Match.objects.get(offline_id=record_id)
    assert match.variant == "default"

    deal(page)
    expect(me).to_have_text("rambler (you)")
    page.goto(site.url + "/matches/")
    row = page.locator(".match-row", has_text="offline").first
    expect(row).to_contain_text("Default · to 50 · no clock")
    expect(row).not_to_contain_text("Time Freedom")
    assert page.js_errors == []
