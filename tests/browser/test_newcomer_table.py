"""What a new player meets at the table, in real Chromium: words that agree with
their numbers, the chat in sight beside the table (and a count of new messages
when it is not), error toasts a person understands, a result that can be read
before the next hand's clock runs, touch wording and the signed-in name on a
phone, and a hand played by keyboard alone with every move announced."""

from __future__ import annotations

import hashlib
import random
import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import services
from games.engine import HandState, RuleSet, timeout_action
from games.models import Hand, Match, Move, Seat
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    axe_violations,
    friend_match,
    key_events_on_the_document,
    off_the_event_loop,
    play_as_guest,
    record_window_errors,
    sign_in,
    start_from_lobby,
    wait_until,
)
from tests.factories import create_match, create_match_at, create_user, seated
from tests.games.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOPS = [
    {"width": 1280, "height": 800},
    {"width": 1366, "height": 768},
    {"width": 1440, "height": 900},
    {"width": 1920, "height": 1080},
]
PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

# Every text the page puts in the live region, in order (set before the page loads).
RECORD_ANNOUNCEMENTS = """
window.__announced = [];
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("announce");
  if (!live) return;
  // Each text the region was given, even several in one task (one callback then).
  new MutationObserver((records) => {
    for (const record of records) {
      const texts = record.type === "characterData"
        ? [record.target.textContent] : [...record.addedNodes].map((n) => n.textContent);
      window.__announced.push(...texts.filter(Boolean));
    }
  }).observe(live, {childList: true, characterData: true, subtree: true});
});
window.__version = null;
window.__frames = [];  // what the socket brought, for a failure's message
document.addEventListener("gin:socket-message", (e) => {
  if (typeof e.detail.version === "number") window.__version = e.detail.version;
  window.__frames.push(`${e.detail.type}@${e.detail.version}`);
});
"""


def match_of(page: Any) -> Match:
    return Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def one_point_match(alice: Any, bob: Any) -> Match:
    """A friend match (Time Freedom) whose hand 1 is dealt from a seed whose
    straightforward play (pass the first turn, draw from the stock, discard the card
    leaving least deadwood, knock as soon as allowed) ends in a knock won by exactly 1
    point, then played through the services: a real hand, a real seed, a 1-point result."""
    rules = RuleSet.time_freedom()
    for i in range(5000):
        seed = hashlib.sha256(f"one point {i}".encode()).digest()
        state = HandState.deal(rules, 0, seed)
        actions = []
        while not state.is_over:
            knocks = [a for a in state.legal_actions() if a["type"] == "knock"]
            action = knocks[0] if knocks else timeout_action(state)
            actions.append((state.current_player, action))
            state, _ = state.apply(action)
        if state.result.kind == "knock" and state.result.points == 1:
            break
    else:
        raise AssertionError("no seed gives a 1-point hand")
    match = create_match_at(HandState.deal(rules, 0, seed), [alice, bob], seed=seed)
    users = seated(match)
    for seat, action in actions:
        match.refresh_from_db()
        services.move_submit(
            match=match, user=users[seat], action=action, expected_version=match.version
        )
    return match


def test_a_one_point_hand_says_1_point_not_1_points(site: Any, new_page: Any) -> None:
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    match = off_the_event_loop(one_point_match, alice, bob)
    hand = Hand.objects.get(match=match, number=1)
    assert hand.points == 1
    winner = Seat.objects.get(match=match, index=hand.winner_seat).user.username
    loser = "bob" if winner == "alice" else "alice"
    pages = {}
    for name in (winner, loser):
        page = new_page()
        sign_in(page, site.url, name)
        page.goto(f"{site.url}/match/{match.pk}/")
        page.locator("#showdown[open]").wait_for()
        pages[name] = page
    headline = pages[winner].locator("[data-showdown-headline]")
    assert headline.inner_text() == "You win the hand: 1 point"
    assert pages[loser].locator("[data-showdown-headline]").inner_text() == (
        f"{winner} wins the hand: 1 point"
    )
    # The deal of the rigged hand is the seed's: the browser's check agrees.
    pages[winner].locator("#showdown [data-fairness=verified]").wait_for()
    pages[winner].screenshot(path=SCREENSHOTS / "one-point-desktop.png")
    assert all(page.js_errors == [] for page in pages.values())


def take_the_upcard_and_discard(match: Match) -> str:
    """The player to move first takes the upcard and discards through the services;
    returns that player's name."""
    state = HandState.from_dict(Hand.objects.get(match=match, number=1).state)
    mover = Seat.objects.select_related("user").get(match=match, index=state.current_player).user
    take = {"type": "draw", "source": "discard"}
    after, _ = state.apply(take)
    discard = next(a for a in after.legal_actions() if a["type"] == "discard")
    for action in (take, discard):
        match.refresh_from_db()
        services.move_submit(
            match=match, user=mover, action=action, expected_version=match.version
        )
    return mover.username


def test_a_player_arriving_hears_every_move_made_since_their_own(
    site: Any, new_page: Any
) -> None:
    """The opponent took the upcard and discarded before the page opened: both moves
    are announced on arrival, not only the last one."""
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    match = off_the_event_loop(create_match, alice, bob, variant="time_freedom")
    mover = off_the_event_loop(take_the_upcard_and_discard, match)
    page = new_page()
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    sign_in(page, site.url, "bob" if mover == "alice" else "alice")
    page.goto(f"{site.url}/match/{match.pk}/")
    wait_until(page, "window.__announced.length > 0")
    announced = " ".join(page.evaluate("window.__announced"))
    assert re.search(rf"{mover} took the .+ from the discard pile\.", announced), announced
    assert re.search(rf"{mover} discarded the .+\.", announced), announced
    assert page.js_errors == []


def visible_in_viewport(page: Any, selector: str) -> bool:
    """The element is on screen without scrolling: inside the viewport and not
    covered (its centre is the element or inside it)."""
    return page.evaluate(
        """(sel) => {
            const el = document.querySelector(sel);
            if (!el) return false;
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) return false;
            if (r.top < 0 || r.left < 0) return false;
            if (r.bottom > innerHeight || r.right > innerWidth) return false;
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return !!hit && (el === hit || el.contains(hit));
        }""",
        selector,
    )


def test_the_chat_is_beside_the_table_and_counts_new_messages_out_of_sight(
    site: Any, new_page: Any, player_page: Any, axe_source: str
) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    alice = player_page(site.url, "alice", DESKTOPS[0])
    bob = player_page(site.url, "bob", PHONE)
    friend_match(alice, bob, variant="time_freedom", target="100")
    for page in (alice, bob):
        page.locator("[data-my-hand] .card").first.wait_for()
        page.locator("[data-chat][data-state=live]").wait_for()

    # On common desktop sizes the chat's messages and its input are in sight beside
    # the table, with nothing scrolled.
    for size in DESKTOPS:
        alice.set_viewport_size(size)
        wait_until(alice, f"innerWidth === {size['width']}")
        for part in ("[data-chat-log]", "[data-chat-input]"):
            assert visible_in_viewport(alice, part), (part, size)
        felt = alice.locator(".felt").bounding_box()
        chat = alice.locator("[data-chat]").bounding_box()
        assert chat["x"] >= felt["x"] + felt["width"], size  # beside, not under
        assert alice.evaluate("scrollY") == 0
        alice.screenshot(path=SCREENSHOTS / f"table-chat-{size['width']}x{size['height']}.png")
    alice.set_viewport_size(DESKTOPS[0])

    # On the phone the chat is below the table: a message arriving there is counted.
    assert not visible_in_viewport(bob, "[data-chat-log]")
    unread = bob.locator("[data-chat-unread]")
    assert unread.is_hidden()
    alice.fill("[data-chat-input]", "good luck!")
    alice.press("[data-chat-input]", "Enter")
    bob.locator("[data-chat-log] .chat-msg", has_text="good luck!").wait_for(state="attached")
    unread.wait_for()
    assert unread.inner_text() == "Chat: 1 new message"
    alice.fill("[data-chat-input]", "and have fun")
    alice.press("[data-chat-input]", "Enter")
    wait_until(
        bob,
        "document.querySelector('[data-chat-unread]').textContent === 'Chat: 2 new messages'"
    )
    assert visible_in_viewport(bob, "[data-chat-unread]")
    bob.screenshot(path=SCREENSHOTS / "table-chat-unread-phone.png")
    # The button brings the chat into view, and the count goes.
    unread.click()
    unread.wait_for(state="hidden")
    wait_until(
        bob,
        """() => {
            const r = document.querySelector('[data-chat-log]').getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight;
        }"""
    )
    # Alice sees her own and Bob's messages at once: nothing is counted for her.
    bob.fill("[data-chat-input]", "thanks")
    bob.press("[data-chat-input]", "Enter")
    alice.locator("[data-chat-log] .chat-msg", has_text="thanks").wait_for()
    assert alice.locator("[data-chat-unread]").is_hidden()
    # With messages, their report and block buttons, both tables pass axe-core.
    assert axe_violations(alice, axe_source) == []
    assert axe_violations(bob, axe_source) == []
    assert alice.js_errors == [] and bob.js_errors == []


def protocol_error_codes() -> list[str]:
    """Every code of every "| code | when |" table of docs/protocol.md."""
    codes: list[str] = []
    in_table = False
    for line in PROTOCOL.read_text().splitlines():
        if re.match(r"^\|\s*code\s*\|\s*when\s*\|", line):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        if in_table:
            codes += re.findall(r"`([a-z_]+)`", line.split("|")[1])
    return sorted(set(codes))


def to_my_draw(page: Any, tap: bool = False) -> None:
    """Pass the first turns (and close a showdown) until I am to draw from the stock.
    Fails at once if the match ends first."""
    press = page.tap if tap else page.click
    deadline = time.monotonic() + 30
    while not page.locator("[data-stock][data-active=true]").count():
        if match_of(page).status != Match.Status.ACTIVE:
            raise AssertionError(f"the match ended before my draw: {what_the_table_shows(page)}")
        assert time.monotonic() < deadline, f"never my turn to draw: {what_the_table_shows(page)}"
        for button in ("#showdown[open] [data-next-hand]", "[data-act=pass]:visible:enabled"):
            if page.locator(button).count():
                try:
                    press(button, timeout=2_000)
                except PlaywrightTimeout:
                    pass  # the table changed under us: look again
                break
        page.wait_for_timeout(100)
    wait_until(page, "!document.getElementById('table-app').classList.contains('is-pending')")


def what_the_table_shows(page: Any) -> str:
    """The page's status line and connection banner, and the match as the database has
    it, for a failure message."""
    shown = page.evaluate(
        """() => ({
            status: document.querySelector('[data-status]')?.innerText,
            banner: document.getElementById('conn-banner')?.hidden ? null
                : document.getElementById('conn-banner')?.innerText,
            connects: document.getElementById('table-app')?.dataset.connects,
        })"""
    )
    match = match_of(page)
    moves = list(Move.objects.filter(match=match).order_by("-seq")[:3].values_list(
        "seq", "seat", "action", "created_at"
    ))
    return (
        f"page {shown}; match version {match.version}, seat to move {match.current_seat}, "
        f"turn started {match.turn_started_at}, clock due {match.clock_due_at}, "
        f"last moves {moves}"
    )


def to_my_discard(page: Any) -> None:
    to_my_draw(page)
    page.click("[data-stock]")
    page.locator("[data-my-hand] .card[data-drag=card]").first.wait_for()


def test_errors_are_sentences_that_say_what_to_do(site: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    page.goto(site.url + "/")
    play_as_guest(page)
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    page.locator("[data-my-hand] .card").first.wait_for()

    # Every error code of the protocol has a sentence, none is the bare code or the
    # engine's lowercase text.
    codes = protocol_error_codes()
    assert {"illegal_action", "not_your_turn", "stale_version", "server_error"} <= set(codes)
    sentences = page.evaluate(
        """async (codes) => {
            const w = await import("/static/games/words.js");
            return Object.fromEntries(codes.map((c) => [c, w.errorSentences()[c] ?? null]));
        }""",
        codes,
    )
    for code, sentence in sentences.items():
        assert sentence and sentence[0].isupper() and sentence.endswith((".", "!")), code
        assert "_" not in sentence, code  # no code such as not_your_turn in the text

    # A refused action shows as a sentence with the rule, card names spelled out.
    wait_until(page, "window.__version !== null")
    toast = page.locator("#toast")

    def send(action: dict) -> str:
        page.evaluate("document.getElementById('toast').hidden = true")
        page.evaluate(
            """(action) => document.dispatchEvent(new CustomEvent("gin:socket-send", {
                detail: {type: "action", version: window.__version, action}, cancelable: true}))""",
            action,
        )
        toast.wait_for()
        return toast.inner_text()

    deadline = time.monotonic() + 20
    while not page.locator("[data-act=pass]:visible, [data-stock][data-active=true]").count():
        assert time.monotonic() < deadline, "never my turn"
        page.wait_for_timeout(100)
    wait_until(page, "!document.getElementById('table-app').classList.contains('is-pending')")
    text = send({"type": "draw", "source": "moon"})
    assert text == (
        "The table sent a move the server could not read, so nothing changed. "
        "Reload the page and play the move again."
    )
    to_my_discard(page)
    held = page.locator("[data-my-hand] .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    other = next(c for c in ("KS", "QH", "2C", "3D", "4S") if c not in held)
    text = send({"type": "discard", "card": other})
    assert text == (
        f"That move is not allowed: you do not hold the {card_name(other)}. "
        "The line above the piles says what you can do now."
    )
    page.screenshot(path=SCREENSHOTS / "table-toast-desktop.png")
    assert page.js_errors == []


def test_phone_header_names_the_player_and_touch_hints_say_tap(
    site: Any, new_page: Any
) -> None:
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(site.url + "/")
    play_as_guest(page)
    name = page.locator(".site-account__name")
    assert name.is_visible() and "guest-" in name.inner_text()
    assert name.evaluate("el => el.scrollWidth <= el.clientWidth")  # the whole name
    assert visible_in_viewport(page, ".site-account__name")
    page.screenshot(path=SCREENSHOTS / "home-phone.png")
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    page.locator("[data-my-hand] .card").first.wait_for()
    assert visible_in_viewport(page, ".site-account__name")
    # At my draw the hint speaks of tapping, not clicking or keys.
    status = page.locator("[data-status]")
    to_my_draw(page, tap=True)
    hint = status.locator("small").inner_text()
    assert hint == "Tap a pile, or drag its card to your hand."
    assert "Click" not in status.inner_text() and "press" not in status.inner_text()
    page.screenshot(path=SCREENSHOTS / "table-touch-phone.png")
    page.tap("[data-stock]")
    wait_until(
        page,
        "document.querySelector('[data-status] small')?.textContent.startsWith('Tap a card')"
    )
    assert page.js_errors == []

    # With a mouse the same table says click.
    desktop = new_page()
    desktop.goto(site.url + "/")
    play_as_guest(desktop)
    start_from_lobby(desktop, "computer", variant="time_freedom", level="easy", target="250")
    desktop.locator("[data-my-hand] .card").first.wait_for()
    to_my_draw(desktop)
    assert desktop.locator("[data-status] small").inner_text() == "Click, drag, or press S / D."


def card_name(card: str) -> str:
    names = "ace two three four five six seven eight nine ten jack queen king".split()
    ranks = dict(zip("A23456789TJQK", names, strict=True))
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    return f"{ranks[card[0]]} of {suits[card[1]]}"


def lowest_after(page: Any) -> str:
    """The card of my hand whose discard leaves the least deadwood (from the cards'
    own names: "...: discard (deadwood after: 12)")."""
    labels = page.locator("[data-my-hand] .card").evaluate_all(
        "cs => cs.map(c => [c.dataset.card, c.querySelector('[data-card-name]')?.textContent])"
    )
    best, low = None, 999
    for card, label in labels:
        found = re.search(r"deadwood after: (\d+)", label or "")
        if found and int(found.group(1)) <= low:
            best, low = card, int(found.group(1))
    assert best, labels
    return best


def test_a_whole_hand_by_keyboard_alone_with_every_move_announced(
    site: Any, new_page: Any, axe_source: str
) -> None:
    """A default match (with the clock) against the computer, played with keys only:
    P to pass, S to draw, arrows and Enter to discard, K or G to end the hand. The
    live region tells each move of both players and the result; after the
    showdown the dialog counts down to the next hand while the clock stands."""
    page = new_page()
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    page.goto(site.url + "/")
    play_as_guest(page)
    start_from_lobby(page, "computer", variant="default", level="easy", target="250")
    page.locator("[data-my-hand] .card").first.wait_for()
    match = match_of(page)
    idle = "!document.getElementById('table-app').classList.contains('is-pending')"
    deadline = time.monotonic() + 90
    while not page.locator("#showdown[open]").count():
        assert time.monotonic() < deadline, "the hand did not end"
        wait_until(page, idle)
        keys = page.evaluate(
            """() => ({
                pass: !!document.querySelector("[data-act=pass]:not([hidden])"),
                draw: !!document.querySelector("[data-stock][data-active=true]"),
                gin: !!document.querySelector("[data-act=gin]:not([hidden])"),
                big: !!document.querySelector("[data-act=big-gin]:not([hidden])"),
                knock: !!document.querySelector("[data-act=knock]:not([hidden])"),
                discard: !!document.querySelector("[data-my-hand] .card[data-drag=card]"),
                showdown: !!document.querySelector("#showdown[open]"),
            })"""
        )
        if keys["showdown"]:
            break
        if keys["big"]:
            page.keyboard.press("b")
        elif keys["gin"]:
            page.keyboard.press("g")
        elif keys["knock"]:
            page.keyboard.press("k")  # knock mode: the first card to knock with has the focus
            wait_until(page, "document.activeElement?.dataset?.knock === 'true'")
            page.keyboard.press("Enter")
        elif keys["pass"]:
            page.keyboard.press("p")
        elif keys["draw"]:
            page.keyboard.press("s")
        elif keys["discard"]:
            # The card just drawn has the focus; the arrows go to the one to discard.
            target = lowest_after(page)
            wait_until(page, "document.activeElement?.closest?.('[data-my-hand]')")
            for _ in range(12):
                if page.evaluate("document.activeElement.dataset.card") == target:
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.card") == target
            page.keyboard.press("Enter")
        else:
            page.wait_for_timeout(50)
            continue
        page.wait_for_timeout(30)

    # The showdown dialog counts down to the next hand; the turn clock stands still.
    countdown = page.locator("#showdown [data-next-countdown]")
    countdown.wait_for()
    assert re.fullmatch(r"Next hand in (\d+) s: the clock starts then\.", countdown.inner_text())
    clock = page.locator("[data-clock]")
    assert clock.get_attribute("data-waiting") == "true"
    assert page.locator("[data-clock-text]").inner_text() == "0:30"
    page.screenshot(path=SCREENSHOTS / "showdown-countdown-desktop.png")
    assert axe_violations(page, axe_source) == []
    page.set_viewport_size(PHONE)
    assert visible_in_viewport(page, "#showdown [data-next-countdown]")
    page.screenshot(path=SCREENSHOTS / "showdown-countdown-phone.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    # Every move of the hand, of either player, was announced; then the result.
    hand = Hand.objects.get(match=match, number=1)
    texts, frames = page.evaluate("[window.__announced, window.__frames]")
    print("Announced, text by text:", *texts, "Frames:", frames, "Page errors:", page.js_errors,
          sep="\n")  # shown on failure
    announced = " ".join(texts)
    me = Seat.objects.get(match=match, bot_level="").index
    who = {me: "You", 1 - me: "Computer (easy)"}
    for move in Move.objects.filter(hand=hand).order_by("seq"):
        a = move.action
        if a["type"] == "pass":
            expected = f"{who[move.seat]} passed."
        elif a["type"] == "draw" and a["source"] == "stock":
            expected = f"{who[move.seat]} drew "
        elif a["type"] == "draw":
            expected = f"{who[move.seat]} took the "
        elif a["type"] == "discard":
            expected = f"{who[move.seat]} discarded the {card_name(a['card'])}."
        else:
            continue  # the hand's end: told by the result below
        assert expected in announced, expected
    headline = page.locator("[data-showdown-headline]").inner_text()
    assert f"Hand 1 over. {headline}." in announced
    assert "Hand 2 dealt." in announced

    # The dialog closes from the keyboard; the clock runs once the countdown is over.
    page.keyboard.press("Enter")
    wait_until(page, "!document.getElementById('showdown').open")
    wait_until(
        page,
        "document.querySelector('[data-clock]').dataset.waiting === 'false'", timeout=20_000
    )
    wait_until(
        page,
        "document.querySelector('[data-clock-text]').textContent < '0:30'", timeout=5_000
    )
    assert page.js_errors == []


def pass_to_the_first_draw(match: Match) -> str:
    """Both players pass the upcard through the services, so that the non-dealer is
    to draw; returns that player's name."""
    users = seated(match)
    for _ in range(2):
        match.refresh_from_db()
        services.move_submit(
            match=match,
            user=users[match.current_seat],
            action={"type": "pass"},
            expected_version=match.version,
        )
    match.refresh_from_db()
    return users[match.current_seat].username


def test_a_turn_the_clock_ran_out_on_says_the_server_played_it(site: Any, new_page: Any) -> None:
    """Alice lets her clock run out at her draw: the server draws and discards for her.
    Her table says so under her hand (also after a reload, until she plays again) and
    in the live region, and both tables' move lists mark those moves as the server's."""
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    match = off_the_event_loop(create_match, alice, bob)
    late = off_the_event_loop(pass_to_the_first_draw, match)
    other = "bob" if late == "alice" else "alice"
    pages = {}
    for name in (late, other):
        page = new_page(PHONE if name == other else None)
        page.add_init_script(RECORD_ANNOUNCEMENTS)
        sign_in(page, site.url, name)
        page.goto(f"{site.url}/match/{match.pk}/")
        page.locator("[data-my-hand] .card").first.wait_for()
        pages[name] = page
    me = pages[late]
    me.locator("[data-stock][data-active=true]").wait_for()
    note = me.locator("[data-timeout-note]")
    assert note.is_hidden()

    match.refresh_from_db()
    assert match.turn_deadline is not None
    assert off_the_event_loop(
        services.clock_expire,
        match_id=match.pk,
        expected_version=match.version,
        now=match.turn_deadline + timedelta(seconds=1),
    )
    said = "Time ran out: the server drew and discarded for you."
    note.wait_for()
    assert note.inner_text() == said
    wait_until(me, f"window.__announced.some((t) => t.includes({said!r}))")
    server_played = "(clock ran out: played by the server)"
    mine = me.locator("[data-log] li", has_text=server_played)
    assert mine.count() == 2  # the draw and the discard
    assert all(text.startswith("You ") for text in mine.all_inner_texts())
    # Bob's table marks the same two moves, and names whose turn the server played.
    theirs = pages[other].locator("[data-log] li", has_text=server_played)
    theirs.nth(1).wait_for()
    assert theirs.count() == 2
    assert all(text.startswith(f"{late} ") for text in theirs.all_inner_texts())
    wait_until(
        pages[other],
        "(t) => window.__announced.some((a) => a.includes(t))",
        arg=f"Time ran out: the server drew and discarded for {late}.",
    )
    me.screenshot(path=SCREENSHOTS / "table-timeout-desktop.png")
    me.set_viewport_size(PHONE)
    assert visible_in_viewport(me, "[data-timeout-note]")
    me.screenshot(path=SCREENSHOTS / "table-timeout-phone.png")
    me.set_viewport_size({"width": 1366, "height": 768})

    # After a reload the table still says it; once Alice plays again it does not.
    me.reload()
    note.wait_for()
    assert note.inner_text() == said
    match.refresh_from_db()
    opponent = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
    assert opponent.user.username == other
    state = HandState.from_dict(Hand.objects.get(match=match, number=1).state)
    after, _ = state.apply({"type": "draw", "source": "stock"})
    discard = next(a for a in after.legal_actions() if a["type"] == "discard")
    for action in ({"type": "draw", "source": "stock"}, discard):
        match.refresh_from_db()
        off_the_event_loop(
            services.move_submit,
            match=match,
            user=opponent.user,
            action=action,
            expected_version=match.version,
        )
    me.locator("[data-stock][data-active=true]").wait_for()
    assert note.inner_text() == said  # the opponent's move changes nothing of that
    me.click("[data-stock]")
    note.wait_for(state="hidden")
    assert all(page.js_errors == [] for page in pages.values())


def test_a_key_event_on_the_document_itself_throws_nothing(site: Any, new_page: Any) -> None:
    """A key event whose target is the document (a script's, or an assistive tool's)
    reaches the table's key handlers without an error."""
    page = new_page()
    record_window_errors(page)
    page.goto(site.url + "/")
    play_as_guest(page)
    start_from_lobby(page, "computer", variant="time_freedom", level="easy")
    page.locator("[data-my-hand] .card").first.wait_for()
    assert page.locator("[data-hint]").count() == 1  # the hint's key handler too
    assert key_events_on_the_document(page) == []
    assert page.js_errors == []


# Each card of the player's hand: the part of it a finger can reach (the points of a
# 2 px grid where the card is the element on top), its size, and what is at the
# centre of that part; and whether a meld or deadwood tag covers the card drawn.
MEASURE_HAND = """() => {
    const cards = [...document.querySelectorAll("[data-my-hand] .card")];
    const measured = cards.map((card) => {
        const r = card.getBoundingClientRect();
        let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
        for (let x = r.left + 1; x < r.right; x += 2) {
            for (let y = r.top + 1; y < r.bottom; y += 2) {
                if (document.elementFromPoint(x, y)?.closest(".card") !== card) continue;
                left = Math.min(left, x); right = Math.max(right, x);
                top = Math.min(top, y); bottom = Math.max(bottom, y);
            }
        }
        const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
        return {
            card: card.dataset.card, width: right - left + 2, height: bottom - top + 2,
            centreIsTheCard: hit?.closest(".card") === card,
            onScreen: r.left >= 0 && r.right <= innerWidth,
        };
    });
    const drawn = document.querySelector("[data-my-hand] .card--new");
    const box = drawn.getBoundingClientRect();
    const tags = [...document.querySelectorAll("[data-my-hand] .meld-group__tag")];
    const covering = tags.filter((tag) => {
        const t = tag.getBoundingClientRect();
        return t.left < box.right && t.right > box.left && t.top < box.bottom && t.bottom > box.top;
    }).map((tag) => tag.textContent);
    return {measured, covering, pageWidth: document.documentElement.scrollWidth};
}"""


def test_on_a_phone_every_card_of_an_eleven_card_hand_can_be_tapped(
    site: Any, new_page: Any
) -> None:
    """At 390 px, after a draw: each of the 11 cards shows a part at least 40 px wide
    and tall where a tap lands on that card (not its neighbour), nothing is off-screen,
    and no group's tag covers the card just drawn."""
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(site.url + "/")
    play_as_guest(page)

    # To 250: no knock of the computer's can end the match before my third draw.
    start_from_lobby(page, "computer", variant="time_freedom", level="easy", target="250")
    page.locator("[data-my-hand] .card").first.wait_for()
    for draw in range(3):
        to_my_draw(page, tap=True)
        page.tap("[data-stock]")
        page.locator("[data-my-hand] .card--new").wait_for()
        assert page.locator("[data-my-hand] .card").count() == 11
        page.locator("[data-my-hand]").scroll_into_view_if_needed()
        # The card drawn, focused from the keyboard (its focus ring shown), as well.
        page.locator("[data-my-hand] .card--new").focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        wait_until(
            page,
            "document.activeElement?.matches('[data-my-hand] .card--new:focus-visible')"
        )
        found = page.evaluate(MEASURE_HAND)
        assert found["pageWidth"] <= PHONE["width"], found
        for card in found["measured"]:
            assert card["onScreen"], card
            assert card["width"] >= 40 and card["height"] >= 40, (card, found)
            assert card["centreIsTheCard"], card
        assert found["covering"] == [], found
        if draw == 0:
            page.screenshot(path=SCREENSHOTS / "table-eleven-cards-phone.png")
        # A tap on the middle card discards it.
        middle = found["measured"][5]["card"]
        page.tap(f"[data-my-hand] .card[data-card='{middle}']")
        # That card, not a neighbour, left the hand (the computer may take it from the
        # pile at once, so the pile is not where to look).
        wait_until(page, "document.querySelectorAll('[data-my-hand] .card').length !== 11")
        assert page.locator(f"[data-my-hand] .card[data-card='{middle}']").count() == 0 or (
            page.locator("#showdown[open]").count()
        )
    assert page.js_errors == []


def test_on_a_phone_the_score_sheet_scrolls_inside_its_own_box(site: Any, new_page: Any) -> None:
    """At 390 px the page is no wider than the screen: the hand-by-hand table scrolls
    sideways inside its box, whose every column can be reached."""
    ann = create_user("ann", PASSWORD)
    finished = off_the_event_loop(
        lambda: play_out(
            services.match_create_computer(
                user=ann, level="easy", rules={"target_score": 100, "turn_seconds": None},
                variant="time_freedom",
            ),
            random.Random(3),
        )
    )
    page = new_page(PHONE)
    sign_in(page, site.url, "ann")
    page.goto(f"{site.url}/match/{finished.pk}/sheet/")
    sheet = page.locator(".table-wrap")
    sheet.wait_for()
    found = page.evaluate(
        """() => {
            const wrap = document.querySelector(".table-wrap");
            const r = wrap.getBoundingClientRect();
            return {pageWidth: document.documentElement.scrollWidth, left: r.left,
                    right: r.right, scrolls: getComputedStyle(wrap).overflowX,
                    inner: wrap.scrollWidth, outer: wrap.clientWidth};
        }"""
    )
    assert found["pageWidth"] <= PHONE["width"], found
    assert 0 <= found["left"] and found["right"] <= PHONE["width"], found
    if found["inner"] > found["outer"]:
        assert found["scrolls"] in ("auto", "scroll"), found
    # The last column (the replay links) comes into view by scrolling the box.
    replay = page.locator(".table-wrap tbody tr a", has_text="Replay").first
    replay.scroll_into_view_if_needed()
    box = replay.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("scrollX") == 0
    page.screenshot(path=SCREENSHOTS / "score-sheet-phone.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=SCREENSHOTS / "score-sheet-desktop.png", full_page=True)
    assert page.js_errors == []
