"""Tournaments in real Chromium against the running site (daphne, the Celery worker):

- two players wait on an arena's page as it tells them to: when the arena starts, each
  page changes the tab's title, plays the "turn" sound and takes its player to the
  table by itself (both seats connected: nobody counted absent); a spectator's open
  page counts the arena's time down; the two play and finish their match, the open
  page shows the new standings live, and a player who comes back to the page while
  their next match is in play is taken to it; a spectator finds the match on the
  Watch page and watches it in the spectator view, never seeing a concealed card;
- from the admin schedule: staff add a daily arena in the admin, and a real
  ``celery beat`` (the settings' schedule, as django-celery-beat keeps it) creates the
  instance, starts it and pairs its two players (their pages take them to the table),
  and pairs them again after their match, with nobody running a task by hand;
- from a player's creation: a player creates a Swiss of two rounds on the list page,
  two others join, beat's tick starts it, and an open page follows it live: round 1's
  pairing and bye appear (the paired players' pages take them to the table), the
  result at the table starts round 2 (round 1 moves to the earlier rounds), and round
  2's result finishes it;
- a finished arena's and Swiss's page fit a phone's 390 px.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.engine import HandState
from games.models import Hand, Seat
from games.services import match_resign
from games.tournaments import services
from games.tournaments.models import Entrant, Pairing, Tournament
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    SCREENSHOTS,
    TablePlayer,
    off_the_event_loop,
    resign,
    sign_in,
    wait_until,
)
from tests.factories import create_tournament, create_user
from tests.workers import CeleryBeat

#: A tournament created to start at the next whole minute at least this far ahead
#: (schedules and the creation form count in minutes) leaves the players time to join.
JOIN_LEAD = timedelta(seconds=40)
#: Beat's next tick (every 2 s) once the start time has come, on a busy machine.
START_TIMEOUT_MS = 60_000

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _concealed(match_id: int) -> set[str]:
    """The cards a spectator may not see now: the stock and both hands but for the
    cards taken from the discard pile."""
    hand = Hand.objects.filter(match_id=match_id).order_by("-number").first()
    state = HandState.from_dict(hand.state)
    hidden = {str(c) for c in state.stock}
    for seat in (0, 1):
        hidden |= {str(c) for c in state.hands[seat]} - {str(c) for c in state.known[seat]}
    return hidden


#: Kept in the tab's sessionStorage when a tournament page goes away: its title and the
#: sounds it played then (the page takes its player to the table by itself).
REMEMBER_LEAVING = """
addEventListener("pagehide", () => {
  if (!location.pathname.startsWith("/tournaments/")) return;
  sessionStorage.setItem("left-tournament", JSON.stringify({
    title: document.title, played: window.ginSound ? [...window.ginSound.played] : [],
  }));
});
"""


def _path(page: Any) -> str:
    return "/" + page.url.split("//", 1)[1].split("/", 1)[1]


def _both_seats_connected(match_id: int, timeout: float = 15.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while Seat.objects.filter(match_id=match_id, connected=True).count() < 2:
        assert time.monotonic() < deadline, "a player waiting as told counted as absent"
        time.sleep(0.1)


def test_players_waiting_on_an_arena_page_are_taken_to_their_table(
    site: Any, new_page: Any
) -> None:
    for name in ("alice", "bob", "sam"):
        create_user(name, PASSWORD)
    arena = off_the_event_loop(
        create_tournament, "arena", name="Tuesday Arena",
        starts_at=timezone.now() + timedelta(minutes=5), duration_minutes=30)
    pages = {}
    for name in ("alice", "bob", "sam"):
        page = new_page()
        page.add_init_script(REMEMBER_LEAVING)
        sign_in(page, site.url, name)
        page.goto(f"{site.url}/tournaments/")
        page.click("text=Tuesday Arena")
        pages[name] = page
    for name in ("alice", "bob"):
        pages[name].click("#join-button")
        pages[name].locator("text=it takes you to your match when it is ready").wait_for()
        # Joining posts a form: the page comes back and its scripts load after its text.
        # A click once they listen lets the page play sounds from then on.
        wait_until(pages[name], "window.ginSound !== undefined")
        pages[name].click("h1")
        wait_until(pages[name], "window.ginSound.state !== 'none'")
    for page in pages.values():
        page.evaluate("window.__noReload = true")  # gone if the page reloads
        page.locator("#t-socket[data-on='1']").wait_for()

    # The start (beat's tick in production) pairs the two: both pages take their player
    # to the table by themselves, with the tab's title changed and the sound played.
    off_the_event_loop(services.tournament_progress, tournament_id=arena.pk,
                       now=timezone.now() + timedelta(minutes=5))
    tables = {}
    for name in ("alice", "bob"):
        tables[name] = pages.pop(name)
        tables[name].wait_for_url("**/match/*/")
        tables[name].locator("[data-my-hand] .card").first.wait_for()
        left = json.loads(tables[name].evaluate("sessionStorage.getItem('left-tournament')"))
        assert left["title"] == "▶ Your match is ready" and "turn" in left["played"], left
    href = _path(tables["alice"])
    assert _path(tables["bob"]) == href
    match_id = int(href.rstrip("/").rsplit("/", 1)[1])
    _both_seats_connected(match_id)
    sam = pages["sam"]
    sam.locator(f"#live-matches a[href='/match/{match_id}/']").wait_for()
    # The spectator's page, open since before the start, counts the time left down.
    wait_until(
        sam,
        "/^ends in \\d+ min \\d+ s/.test(document.getElementById('t-when').textContent)")

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
    resign(tables["alice"], tables["bob"])

    top = sam.locator("#standings-body tr").first
    top.locator("text=bob").wait_for()
    wait_until(
        sam,
        "document.querySelector('#standings-body tr td:nth-child(3)').textContent === '2'")
    assert sam.evaluate("window.__noReload === true"), "the spectator's page reloaded"
    sam.screenshot(path=str(SCREENSHOTS / "tournament-standings.png"), full_page=True)
    # The two were paired again at once (nobody else waits): each table, left alone,
    # takes its player to the new match (a page going back to the tournament meanwhile
    # would race that navigation; tests/browser/test_tournament_table.py covers both).
    for table in tables.values():
        table.wait_for_url(lambda url: "/match/" in url and f"/match/{match_id}/" not in url)
        table.locator("[data-my-hand] .card").first.wait_for()
    assert _path(tables["alice"]) == _path(tables["bob"])
    for page in [sam, *tables.values(), watcher]:
        assert page.js_errors == [], page.url


def _reload_until(page: Any, selector: str, timeout: float = 60.0) -> None:
    """Reload ``page`` until ``selector`` is on it (a list page that is not live)."""
    import time

    deadline = time.monotonic() + timeout
    while page.locator(selector).count() == 0:
        assert time.monotonic() < deadline, f"{selector} never appeared on {page.url}"
        page.wait_for_timeout(500)
        page.reload()


def _beat_due_for_schedules() -> None:
    """The state of a site that has run for a while: beat last created the schedules'
    instances ten minutes ago (its ``tournaments-schedules`` entry, every 600 s), so
    it runs that entry as soon as it starts, not ten minutes later."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every, _ = IntervalSchedule.objects.get_or_create(every=600,
                                                      period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.update_or_create(
        name="tournaments-schedules",
        defaults={"task": "tournaments.schedules", "interval": every,
                  "last_run_at": timezone.now() - timedelta(minutes=11)})


def _the_start_time_comes(tournament: Tournament) -> None:
    """The clock reaches ``tournament``'s start: its start time is moved to now, so the
    test need not wait up to a minute and a half for it (the time itself was checked)."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())


def _resign_at_the_table(page: Any, site: Any, href: str) -> None:
    page.goto(f"{site.url}{href}")
    page.locator("[data-my-hand] .card").first.wait_for()
    resign(page)


def test_beat_runs_an_arena_from_the_staff_schedule(site: Any, new_page: Any) -> None:
    create_user("staffer", PASSWORD, staff=True, is_superuser=True)
    for name in ("alice", "bob"):
        create_user(name, PASSWORD)
    start = (timezone.now() + JOIN_LEAD).replace(second=0, microsecond=0) \
        + timedelta(minutes=1)

    # Staff add the recurring event in the admin: every day at that time (UTC).
    admin = new_page()
    sign_in(admin, site.url, "staffer")
    admin.goto(f"{site.url}/admin/tournaments/tournamentschedule/add/")
    admin.fill("#id_name", "Daily Staff Arena")
    admin.select_option("#id_format", "arena")
    admin.select_option("#id_kind", "daily")
    admin.fill("#id_hour", str(start.hour))
    admin.fill("#id_minute", str(start.minute))
    admin.fill("#id_duration_minutes", "30")
    admin.fill("#id_create_ahead_hours", "1")
    admin.click("input[name=_save]")
    # The admin's answer: its success message, or the form again with what was wrong
    # (named in the failure). Saved on a busy machine, it can take longer than a click.
    admin.locator(".messagelist .success, .errornote").first.wait_for(timeout=60_000)
    assert admin.locator(".errornote").count() == 0, admin.locator("#content").inner_text()
    assert not Tournament.objects.exists()

    off_the_event_loop(_beat_due_for_schedules)
    with CeleryBeat():
        pages = {}
        for name in ("alice", "bob"):
            page = new_page()
            sign_in(page, site.url, name)
            page.goto(f"{site.url}/tournaments/")
            _reload_until(page, "text=Daily Staff Arena")  # beat created it
            page.click("text=Daily Staff Arena")
            page.click("#join-button")
            page.locator("text=You are in").first.wait_for()
            page.locator("#t-socket[data-on='1']").wait_for()
            pages[name] = page
        arena = Tournament.objects.get()
        assert (arena.schedule.name, arena.starts_at, arena.status) == (
            "Daily Staff Arena", start, "scheduled")
        off_the_event_loop(_the_start_time_comes, arena)

        # Beat's tick starts the arena at its time and pairs the two: their pages take
        # them to the table.
        hrefs = {}
        for name, page in pages.items():
            page.wait_for_url("**/match/*/", timeout=START_TIMEOUT_MS)
            page.locator("[data-my-hand] .card").first.wait_for()
            hrefs[name] = _path(page)
        assert hrefs["alice"] == hrefs["bob"]
        resign(pages["alice"], pages["bob"])
        arena_url = f"{site.url}/tournaments/{arena.pk}/"
        standings = new_page()
        standings.goto(arena_url)  # a visitor's view: bob leads with 2 points
        wait_until(
            standings,
            "document.querySelector('#standings-body tr td:nth-child(2)')"
            ".textContent.startsWith('bob')"
            " && document.querySelector('#standings-body tr td:nth-child(3)')"
            ".textContent === '2'")
        # Both are back in the pool and, with nobody else waiting, paired again (the
        # match's end queues the pairing task; beat's tick would otherwise): each one's
        # table takes them to the new match by itself (sending the page elsewhere now
        # would race that navigation).
        for page in pages.values():
            page.wait_for_url(lambda url: "/match/" in url and hrefs["alice"] not in url,
                              timeout=30_000)
    for page in [admin, *pages.values(), standings]:
        assert page.js_errors == []


def _round_pairings(tournament: Tournament, number: int) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=tournament, round=number)
                .select_related("seat0__user", "seat1__user").order_by("pk"))


def test_a_players_swiss_runs_from_creation_to_the_podium(site: Any, new_page: Any) -> None:
    for name in ("alice", "bob", "carol", "sam"):
        create_user(name, PASSWORD)
    with CeleryBeat():
        alice = new_page()
        sign_in(alice, site.url, "alice")
        alice.goto(f"{site.url}/tournaments/")
        alice.fill("#id_name", "Alice's Swiss")
        alice.select_option("#id_format", "swiss")
        alice.fill("#id_starts_in", "1")
        alice.fill("#id_rounds", "2")
        asked = timezone.now()
        alice.click("text=Create and join")
        alice.locator("text=You are in").first.wait_for()
        created = timezone.now()
        bob = new_page()
        sign_in(bob, site.url, "bob")
        bob.goto(f"{site.url}/tournaments/")
        bob.click("text=Alice's Swiss")
        bob.click("#join-button")
        bob.locator("text=You are in").first.wait_for()
        swiss = Tournament.objects.get(name="Alice's Swiss")
        off_the_event_loop(services.tournament_join, tournament=swiss,
                           user=get_user_model().objects.get(username="carol"))
        # Sam follows it on its page (the players' pages take them to their tables).
        sam = new_page()
        sign_in(sam, site.url, "sam")
        sam.goto(f"{site.url}/tournaments/")
        sam.click("text=Alice's Swiss")
        players = {"alice": alice, "bob": bob}
        for page in (alice, bob, sam):
            page.locator("#t-socket[data-on='1']").wait_for()
        sam.evaluate("window.__noReload = true")
        assert sam.locator("#t-rounds").is_hidden()  # no round yet
        minute = timedelta(minutes=1)
        assert asked + minute - timedelta(seconds=1) <= swiss.starts_at <= created + minute
        off_the_event_loop(_the_start_time_comes, swiss)

        # Beat's tick starts round 1 at the start time: one match and a bye appear on
        # the open page, the match with its table to watch.
        pairings = sam.locator("#current-pairings .t-pairings li")
        pairings.nth(1).wait_for(timeout=START_TIMEOUT_MS)
        assert sam.locator("#t-current-round").inner_text() == "Round 1"
        match, bye = sorted(_round_pairings(swiss, 1), key=lambda p: p.seat1 is None)
        assert bye.seat1 is None
        shown = [text.lower() for text in pairings.all_inner_texts()]  # badges: capitals
        assert f"{bye.seat0.user.username} bye" in shown
        names = {match.seat0.user.username, match.seat1.user.username}
        (line,) = [text for text in shown if "bye" not in text]
        assert set(line.replace("–", " ").replace("watch", " ").split()) == names
        href = f"/match/{match.match_id}/"
        assert sam.locator("#current-pairings a", has_text="watch").get_attribute(
            "href") == href
        for name in names & set(players):  # a paired player's page: to the table
            players[name].wait_for_url(f"**{href}")

        # The player of round 1's seat 1 resigns at the table; the worker starts round 2.
        table = new_page()
        sign_in(table, site.url, match.seat1.user.username)
        _resign_at_the_table(table, site, href)
        sam.locator("#t-current-round", has_text="Round 2").wait_for()
        # Round 1 moved to the earlier rounds, its pairings fetched when opened.
        sam.click("#earlier-rounds summary:has-text('Round 1')")
        earlier = sam.locator("#earlier-rounds .t-pairings")
        earlier.locator("li").nth(1).wait_for()
        assert "bye" in earlier.inner_text().lower()
        assert earlier.locator(".t-won").inner_text() == match.seat0.user.username
        (second,) = [p for p in _round_pairings(swiss, 2) if p.seat1 is not None]
        off_the_event_loop(match_resign, match=second.match, user=second.seat1.user)
        # The last match of the last round ended.
        sam.locator("#t-status", has_text="Finished").wait_for()
        # The result is in the pairing, still without a reload.
        sam.locator("#current-pairings .badge", has_text="–").wait_for()
        assert sam.locator("#current-pairings .t-won").inner_text() == (
            second.seat0.user.username)
        assert sam.evaluate("window.__noReload === true")
    sam.reload()
    champion = Entrant.objects.get(tournament=swiss, rank=1).user.username
    assert champion in sam.locator(".t-podium__place--1").inner_text()
    sam.screenshot(path=str(SCREENSHOTS / "tournament-swiss-podium.png"), full_page=True)
    for page in [alice, bob, sam, table]:
        assert page.js_errors == []


WIDE = {"width": 1280, "height": 800}


def _finished(fmt: str, names: list[str]) -> Tournament:
    """A tournament of ``fmt`` played to its end through the services, in each match
    the second seat resigning: a Swiss of two rounds, or an arena of one minute that
    started two minutes ago (its first matches count, none is paired after them)."""
    users = [create_user(name, PASSWORD) for name in names]
    start = timezone.now() - timedelta(minutes=2)
    t = create_tournament(fmt, users, name=f"Finished {fmt} of the week", rounds=2,
                          duration_minutes=1, start=True, now=start)
    for _ in range(3):
        for p in Pairing.objects.filter(tournament=t, finished=False, match__isnull=False):
            match_resign(match=p.match, user=p.seat1.user)
        services.tournament_progress(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == "finished"
    return t


@pytest.mark.parametrize("fmt", ["arena", "swiss"])
def test_a_finished_tournament_page_fits_a_phone(site: Any, new_page: Any, fmt: str) -> None:
    names = ["maximiliana", "bartholomew", "christabella", "dominique"]
    t = off_the_event_loop(_finished, fmt, names)
    for size, label in ((PHONE, "phone"), (WIDE, "desktop")):
        page = new_page(size)
        sign_in(page, site.url, "maximiliana")
        page.goto(f"{site.url}/tournaments/{t.pk}/")
        page.locator(".t-podium__place--1").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        for place in page.locator(".t-podium__place").all():  # the whole podium on screen
            box = place.bounding_box()
            assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= size["width"]
        page.screenshot(path=str(SCREENSHOTS / f"tournament-finished-{fmt}-{label}.png"),
                        full_page=True)
        assert page.js_errors == []
