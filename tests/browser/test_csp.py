"""The Content Security Policy (``CONTENT_SECURITY_POLICY`` in ginsite/settings.py,
docs/operations.md) holds on every kind of page, in real Chromium: no page, nor
anything the pages do as they are used (a move at a live table, a chat line, the
offline table dealt and played, with and without the network), breaks it. A break
is a ``securitypolicyviolation`` event on the page or the console line Chromium
writes for one; each page's response must carry the policy, so a page without it
fails too, and the policy must stop what it forbids (an inline script does not run).
"""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import Resolver404, resolve
from django.utils import timezone
from playwright.sync_api import ConsoleMessage, Page

from games import services
from games.analysis.models import HandAnalysis
from games.chat.models import ChatMessage, ChatReport
from games.models import Match
from games.tournaments import services as tournament_services
from leaderboards.models import RatingChange
from tests.browser.conftest import (
    PASSWORD,
    TablePlayer,
    off_the_event_loop,
    sign_in,
    start_from_lobby,
    wait_until,
)
from tests.factories import create_challenge, create_user
from tests.games.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every violation of the page, from before its first script on (each load).
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`
  + (e.sample ? ` (${e.sample})` : "")
), true);
"""


class PolicyWatch:
    """The violations of one page's policy, across its loads, labelled by where."""

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base
        self.where = "(first page)"
        self.found: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", self._console)

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.found.append(f"{self.where}: {message.text}")

    def collect(self) -> None:
        """Take the events the page has fired so far (after one more task of the page:
        an event is queued as a task when the violation happens)."""
        events = self.page.evaluate(
            "() => new Promise((done) => setTimeout(() => done((window.__csp || []).splice(0))))"
        )
        self.found.extend(f"{self.where}: {event}" for event in events)

    def visit(self, path: str, label: str | None = None) -> None:
        """Open ``path``; its response must carry the policy."""
        self.collect()
        self.where = label or path
        response = self.page.goto(self.base + path)
        assert response is not None, path
        policy = response.header_value("content-security-policy") or ""
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (
            path, response.status, policy
        )

    def enter(self, label: str) -> None:
        """What follows happens on the page already open (a move, a chat line...)."""
        self.collect()
        self.where = label

    def check(self) -> None:
        self.collect()
        assert self.found == [], "\n".join(self.found)


def analysed_and_rated(user: Any, match: Match) -> None:
    """What the profile's two charts draw: one rating change and one analysed hand."""
    now = timezone.now()
    RatingChange.objects.create(user=user, match=match, rating_before=1500, rating=1512,
                                deviation=300, volatility=0.06, at=now)
    HandAnalysis.objects.create(
        hand=match.hands.first(), match=match, done=True, claimed_at=now, completed_at=now,
        decisions=[{"seat": 0, "loss": 0.0}, {"seat": 1, "loss": 5}],
    )


def play_one_move(page: Page, timeout: float = 60.0) -> None:
    """Play one move at this table, once it is ours (the computer's turns waited for; a
    hand the computer ends first is followed by the next)."""
    player = TablePlayer(page)
    deadline = time.monotonic() + timeout
    while player.act_or_next_hand(end_hand=False) not in ("pass", "draw", "discard"):
        assert time.monotonic() < deadline, "no move of ours was offered"
        time.sleep(0.05)


def test_the_policy_stops_an_inline_script_and_the_watch_sees_it(
    site: Any, new_page: Any
) -> None:
    page = new_page()
    watch = PolicyWatch(page, site.url)
    watch.visit("/")
    page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.__ran = true;";
            document.head.append(script);
        }"""
    )
    watch.collect()
    assert page.evaluate("window.__ran") is None
    assert any("script-src" in line for line in watch.found), watch.found


def test_every_kind_of_page_keeps_the_policy(site: Any, new_page: Any) -> None:
    ann = create_user("ann", PASSWORD)
    ben = create_user("ben", PASSWORD)
    finished = off_the_event_loop(
        lambda: play_out(
            services.match_create_computer(
                user=ann, level="easy", rules={"target_score": 50, "turn_seconds": None},
            ),
            random.Random(7),
        )
    )
    analysed_and_rated(ann, finished)
    challenge = off_the_event_loop(create_challenge, ann, ben)
    arena = off_the_event_loop(
        tournament_services.tournament_create_and_join,
        user=ann, name="Friday Arena", format="arena", public=False,
        starts_at=timezone.now() + timedelta(minutes=30),
    )
    page = new_page()
    watch = PolicyWatch(page, site.url)

    # Signed out: the lobby, sign-in and sign-up, boards, a profile.
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
                 "/fairness/", "/leaderboards/", "/leaderboards/month/", "/leaderboards/rating/",
                 "/leaderboards/computer/", "/tournaments/", "/watch/", "/players/ann/",
                 f"/match/{finished.pk}/sheet/"):
        watch.visit(path, f"signed out {path}")
    try:
        resolve("/api/docs/")
    except Resolver404:
        pass
    else:
        watch.visit("/api/docs/", "the API's documentation page")

    # Signed in (the sign-in form posted): every page of a player's.
    watch.visit("/accounts/login/", "sign in")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{site.url}/")
    for path in ("/", "/matches/", "/players/settings/", "/players/settings/tokens/",
                 "/players/etiquette/", "/players/ann/", f"/match/{finished.pk}/",
                 f"/match/{finished.pk}/sheet/", f"/match/{finished.pk}/hand/1/replay/",
                 f"/challenge/{challenge.pk}/", f"/tournaments/{arena.pk}/",
                 "/accounts/email/", "/accounts/password/change/"):
        watch.visit(path, f"ann {path}")
    watch.visit(f"/match/{finished.pk}/hand/1/replay/", "ann steps through a replay")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")

    # The lobby's chat: a line sent and shown.
    watch.visit("/", "ann lobby chat")
    # Sent before the socket is open, a line is refused with a notice and kept in the box
    # (games/static/games/chat.js): wait until the chat is live, as a person would see.
    page.locator("[data-chat][data-state=live]").wait_for()
    page.fill("[data-chat-input]", "hello lobby")
    page.press("[data-chat-input]", "Enter")
    page.locator("[data-chat-log] .chat-msg", has_text="hello lobby").wait_for()

    # A live table: a match against the computer from the lobby, a move, a chat line.
    watch.visit("/", "ann starts a computer match")
    start_from_lobby(page, "computer", variant="default", level="easy", target="250")
    watch.enter("ann's live table")
    page.locator("[data-my-hand] .card").first.wait_for()
    play_one_move(page)
    page.fill("[data-chat-input]", "good luck")
    page.press("[data-chat-input]", "Enter")
    page.locator("[data-chat-log] .chat-msg", has_text="good luck").wait_for()
    assert ChatMessage.objects.filter(text="good luck").exists()
    page.click("[data-resign]")
    page.click("#resign-dialog button[value=resign]")
    page.locator("#showdown [data-match-over]:not([hidden])").wait_for()

    # Waiting in the quick-match queue (the lobby polls its status).
    assert off_the_event_loop(services.quickmatch_enqueue, user=ann) is None
    watch.visit("/", "ann waits for a quick match")
    page.locator("[data-quick-waiting]").wait_for()
    with page.expect_response(lambda r: "/play/quick/status/" in r.url):
        pass
    assert page.js_errors == []
    watch.check()


def test_the_offline_app_keeps_the_policy_online_and_offline(site: Any, new_page: Any) -> None:
    create_user("nomad", PASSWORD)
    page = new_page()
    watch = PolicyWatch(page, site.url)
    sign_in(page, site.url, "nomad")
    watch.visit("/play/offline/", "the offline table")
    page.wait_for_selector("body[data-ready=true]")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(
        page,
        "caches.keys().then(keys => keys.some(k => k.startsWith('gin-offline-')))"
    )
    for when in ("online", "offline"):
        if when == "offline":
            page.context.set_offline(True)
            watch.enter("the offline table, reloaded with no network")
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
        watch.enter(f"a match dealt and played {when}")
        form = page.locator("form[data-new-match]")
        if form.is_visible():
            form.locator("label:has(input[name=level][value=easy])").click()
            form.locator("button[type=submit]").click()
        page.locator("[data-my-hand] .card").first.wait_for()
        play_one_move(page)
    page.context.set_offline(False)
    assert page.js_errors == []
    watch.check()


def test_the_admin_keeps_the_policy(site: Any, new_page: Any) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    ann = create_user("ann")
    ben = create_user("ben")
    line = ChatMessage.objects.create(author=ann, text="rude words", original_text="rude words")
    report = ChatReport.objects.create(reporter=ben, message=line, reason="abuse")
    page = new_page()
    watch = PolicyWatch(page, site.url)
    watch.visit("/admin/login/", "the admin's sign-in")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{site.url}/admin/")
    for path in ("/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{ann.pk}/change/",
                 "/admin/accounts/user/add/", "/admin/chat/chatreport/",
                 f"/admin/chat/chatreport/{report.pk}/change/",
                 "/admin/tournaments/tournamentschedule/add/", "/admin/games/match/"):
        watch.visit(path, f"admin {path}")
    # A related-object lookup, a date widget: the admin's own scripts at work.
    watch.visit(f"/admin/accounts/user/{ann.pk}/change/", "admin change page, used")
    page.locator("#id_username").fill("ann2")
    page.click("input[name=_save]")
    page.wait_for_url(f"{site.url}/admin/accounts/user/")
    assert page.js_errors == []
    watch.check()
