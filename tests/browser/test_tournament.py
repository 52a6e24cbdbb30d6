"""A tournament in real Chromium against the running site (daphne, the Celery worker):
two players join an arena from its page, are paired when it starts (the prompt
appears without a reload), play and finish their match at the table, and every open
tournament page shows the new standings live; a spectator finds the match on the
Watch page and watches it in the spectator view, never seeing a concealed card."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.engine import HandState
from games.models import Hand
from tests.browser.conftest import PASSWORD, SCREENSHOTS, TablePlayer, off_the_event_loop, sign_in
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _player(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, email=f"{name}@example.com",
                                                password=PASSWORD)


def _concealed(match_id: int) -> set[str]:
    """The cards a spectator may not see now: the stock and both hands but for the
    cards taken from the discard pile."""
    hand = Hand.objects.filter(match_id=match_id).order_by("-number").first()
    state = HandState.from_dict(hand.state)
    hidden = {str(c) for c in state.stock}
    for seat in (0, 1):
        hidden |= {str(c) for c in state.hands[seat]} - {str(c) for c in state.known[seat]}
    return hidden


def test_two_players_play_an_arena_with_live_standings_and_a_spectator(
    site: Any, new_page: Any
) -> None:
    for name in ("alice", "bob", "sam"):
        _player(name)
    arena = off_the_event_loop(
        services.tournament_create, user=None, staff=True, name="Tuesday Arena",
        format="arena", starts_at=timezone.now() + timedelta(minutes=5), duration_minutes=30)
    pages = {}
    for name in ("alice", "bob", "sam"):
        page = new_page()
        sign_in(page, site.url, name)
        page.goto(f"{site.url}/tournaments/")
        page.click("text=Tuesday Arena")
        pages[name] = page
    for name in ("alice", "bob"):
        pages[name].click("#join-button")
        pages[name].locator("text=You are in").first.wait_for()
    for page in pages.values():
        page.evaluate("window.__noReload = true")  # gone if the page reloads
        page.locator("#t-socket[data-on='1']").wait_for()

    # The start (beat's tick in production) pairs the two: both prompts appear live.
    off_the_event_loop(services.tournament_progress, tournament_id=arena.pk,
                       now=timezone.now() + timedelta(minutes=5))
    tables = {}
    for name in ("alice", "bob"):
        prompt = pages[name].locator("#match-ready")
        prompt.wait_for(state="visible")
        href = pages[name].locator("#match-ready-link").get_attribute("href")
        table = new_page()
        sign_in(table, site.url, name)
        table.goto(f"{site.url}{href}")
        table.locator("[data-my-hand] .card").first.wait_for()
        tables[name] = table
    match_id = int(href.rstrip("/").rsplit("/", 1)[1])
    pages["sam"].locator(f"#live-matches a[href='/match/{match_id}/']").wait_for()

    # The spectator finds the match on the Watch page and opens the spectator view.
    watcher = new_page()
    sign_in(watcher, site.url, "sam")
    watcher.goto(f"{site.url}/watch/")
    watcher.screenshot(path=str(SCREENSHOTS / "tournament-watch.png"))
    watcher.click(f"a[href='/match/{match_id}/']")
    watcher.wait_for_url(f"**/match/{match_id}/")
    watcher.locator("#table-app").wait_for()

    # A few moves each, then Alice resigns: Bob wins 2 points.
    players = [TablePlayer(tables["alice"]), TablePlayer(tables["bob"])]
    moves = 0
    for _ in range(200):
        if moves >= 4:
            break
        moves += sum(1 for p in players if p.act() not in (None, "showdown"))
    assert moves >= 2
    shown = set(watcher.locator("[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"))
    assert shown and not shown & _concealed(match_id)
    tables["alice"].click("[data-resign]")
    tables["alice"].click("#resign-dialog button[value=resign]")
    tables["bob"].locator("#showdown [data-match-over]:not([hidden])").wait_for()

    for name, page in pages.items():
        top = page.locator("#standings-body tr").first
        top.locator("text=bob").wait_for()
        page.wait_for_function(
            "document.querySelector('#standings-body tr td:nth-child(3)').textContent === '2'")
        assert page.evaluate("window.__noReload === true"), f"{name}'s page reloaded"
    pages["sam"].screenshot(path=str(SCREENSHOTS / "tournament-standings.png"), full_page=True)
    for page in [*pages.values(), *tables.values(), watcher]:
        assert page.js_errors == []
