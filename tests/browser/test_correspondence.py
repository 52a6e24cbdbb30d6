"""A correspondence match in the browser, over simulated days: a challenge with three
days per move from the friends list reaches the other player's open page live and is
accepted; each turn that passes over the next days tells the player to move on their
open page, and the lobby lists the match waiting for their move first; another match
runs out of time and is lost; a vacation taken in the settings stops a clock that
would otherwise have run out."""

from __future__ import annotations

import re
from datetime import UTC, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, Seat
from games.services.correspondence import correspondence_clock_run
from social import services as social
from tests.browser.conftest import (
    PASSWORD,
    SCREENSHOTS,
    TablePlayer,
    off_the_event_loop,
    sign_in,
    wait_until,
)
from tests.factories import create_challenge, create_user, play_to_turn_of, seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DAY = timedelta(days=1)


def days_pass(match: Match, days: int) -> None:
    """The match's clock as if ``days`` days went by since its turn started."""
    match.refresh_from_db()
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=match.turn_started_at - days * DAY,
        move_deadline=match.move_deadline - days * DAY,
    )


def test_a_correspondence_match_over_days_a_timeout_and_a_vacation(
    site: Any, new_page: Any
) -> None:
    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    carol = create_user("carol")
    social.follow_create(user=alice, followee=bob)
    social.follow_create(user=bob, followee=alice)
    ann, bea = new_page(), new_page()
    sign_in(ann, site.url, "alice")
    sign_in(bea, site.url, "bob")
    bea.locator("[data-bell][data-live=on]").wait_for()

    # Alice challenges Bob to three days per move; his open page hears it; he accepts.
    ann.goto(f"{site.url}/friends/")
    row = ann.locator("[data-friend=bob] [data-challenge-friend]")
    row.locator("[data-days]").select_option("3")
    row.locator("button").click()
    ann.wait_for_url(re.compile(r".*/challenge/\d+/$"))
    toast = bea.locator("[data-notify-toast] a", has_text="alice challenges you")
    toast.click()
    bea.wait_for_url(re.compile(r".*/challenge/\d+/$"))
    assert "3 days per move" in bea.locator("[data-challenge-days]").inner_text()
    bea.click("button:has-text('Accept')")
    bea.wait_for_url(re.compile(r".*/match/\d+/$"))
    match = Match.objects.get(days_per_move=3)
    assert match.turn_deadline is None and match.move_deadline is not None
    # The same table as live play, without a turn clock.
    bea.locator("#table-app[data-conn=online]").wait_for()
    bea.locator("[data-resign]").wait_for()
    TablePlayer(bea).settle()
    # Its side panel says the days per move and the turn's deadline, in the browser's zone.
    facts = bea.locator("[data-meta]").inner_text()
    assert "3 days per move" in facts and "Clock\tnone" not in facts, facts
    assert "Move by" in facts and str(match.move_deadline.year) in facts, facts
    bea.screenshot(path=SCREENSHOTS / "correspondence-table.png")

    # Days go by, a turn a day: each time the player to move is told on their open page
    # (Bob waits in the lobby, which lists the match as his move).
    bea.goto(site.url + "/")
    bea.locator("[data-bell][data-live=on]").wait_for()
    for day in range(1, 5):
        match.refresh_from_db()
        mover = seated(match)[match.current_seat]
        other = alice if mover == bob else bob
        days_pass(match, 2)
        assert off_the_event_loop(correspondence_clock_run)["timed_out"] == 0
        off_the_event_loop(play_to_turn_of, match, other)
        if other == bob:
            bea.locator("[data-notify-toast] a", has_text="Your move against alice").wait_for()
            bea.reload()
            first = bea.locator("[data-correspondence] li").first
            assert first.locator("[data-my-move]").count() == 1, f"day {day}"
    bea.screenshot(path=SCREENSHOTS / "correspondence-lobby.png")
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE

    # Another match, one day per move: Alice lets it run out, and loses it.
    late = create_challenge(alice, carol, variant="default", target=100, days=1)
    from games.api.services import challenge_accept

    late_match = off_the_event_loop(challenge_accept, user=carol, challenge_id=late.pk)
    loser = seated(late_match)[Match.objects.get(pk=late_match.pk).current_seat]
    off_the_event_loop(correspondence_clock_run, now=timezone.now() + 2 * DAY)
    late_match.refresh_from_db()
    assert late_match.status == Match.Status.FINISHED
    assert late_match.end_reason == Match.EndReason.TIMEOUT
    assert seated(late_match)[late_match.winner_seat] != loser

    # Bob, to move, goes on vacation from his settings: four days later his three days
    # have not run out.
    off_the_event_loop(play_to_turn_of, match, bob)
    bea.goto(f"{site.url}/players/settings/")
    vacation = bea.locator("[data-vacation]")
    vacation.locator("input[name=days]").fill("3")
    vacation.locator("button[type=submit]").click()
    bea.locator("[data-vacation] [data-on-vacation]").wait_for()
    bea.screenshot(path=SCREENSHOTS / "correspondence-vacation.png")
    assert off_the_event_loop(correspondence_clock_run, now=timezone.now() + 4 * DAY) == {
        "timed_out": 0, "moved": 0}
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert Seat.objects.get(match=match, index=match.current_seat).user == bob
    assert match.move_deadline - match.turn_started_at > 6 * DAY - timedelta(minutes=5)
    # Once the vacation and his three days are over, he loses.
    assert off_the_event_loop(correspondence_clock_run, now=timezone.now() + 7 * DAY) == {
        "timed_out": 1, "moved": 0}


def test_a_vacation_moves_the_deadline_on_the_open_tables_live(site: Any, new_page: Any) -> None:
    """The player to move goes on vacation from another tab: their open table and their
    opponent's say the new deadline at once, without a reload."""
    from games.api.services import challenge_accept
    from games.services import correspondence

    alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
    challenge = create_challenge(alice, bob, variant="default", target=100, days=3)
    match = off_the_event_loop(challenge_accept, user=bob, challenge_id=challenge.pk)
    match.refresh_from_db()
    mover = seated(match)[match.current_seat]
    pages = {}
    for user in (alice, bob):
        page = new_page()
        sign_in(page, site.url, user.username)
        page.goto(f"{site.url}/match/{match.pk}/")
        page.locator("#table-app[data-conn=online]").wait_for()
        page.locator("[data-meta]", has_text="Move by").wait_for()
        pages[user.username] = page
    before = {name: page.locator("[data-meta]").inner_text() for name, page in pages.items()}

    off_the_event_loop(correspondence.vacation_take, user=mover, days=5)
    match.refresh_from_db()
    deadline = match.move_deadline.astimezone(UTC).isoformat()
    for name, page in pages.items():
        wait_until(page, "(old) => document.querySelector('[data-meta]').innerText !== old",
                   arg=before[name])
        facts = page.locator("[data-meta]").inner_text()
        # The new deadline, as the side panel writes a deadline (in the browser's zone).
        shown = page.evaluate(
            """(iso) => new Date(iso).toLocaleString(document.documentElement.lang, {
                year: "numeric", month: "short", day: "numeric", hour: "2-digit",
                minute: "2-digit", timeZoneName: "short"})""", deadline)
        assert f"Move by\n{shown}" in facts, (facts, shown)
    pages[mover.username].screenshot(path=SCREENSHOTS / "correspondence-vacation-deadline.png")
    assert all(not page.js_errors for page in pages.values())
