"""What a new player (and a moderator) sees, in Chromium, on the pages the newcomer
review of the site found wrong: the waiting page of an invite and its cancellation,
a spectator's score sheet, a forfeit after a ban, the leaderboards' own line and
computer boards, the profile's variant names, a ban from rated play in the lobby,
and the admin's index. Each test takes screenshots of the pages it checks."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.utils import timezone

from accounts.services import user_ban
from games.models import Match, RatedPlayBan
from tests.browser.conftest import PASSWORD, SCREENSHOTS, friend_match, sign_in, start_from_lobby
from tests.factories import create_finished_match, create_moderator, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def main_text(page: Any) -> str:
    return " ".join(page.locator("main").inner_text().split())


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def seat_two(site: Any, player_page: Any, host: str, guest: str) -> tuple[Any, Any]:
    """New players ``host`` and ``guest`` at a friend table (to 100), their cards dealt."""
    a, b = player_page(site.url, host), player_page(site.url, guest)
    friend_match(a, b, variant="default", target="100")
    for page in (a, b):
        page.locator("[data-my-hand] .card").first.wait_for()
    return a, b


def test_the_waiting_page_of_an_invite_and_its_cancellation(site: Any, new_page: Any) -> None:
    create_user("hana", PASSWORD)
    create_user("fred", PASSWORD)
    hana = new_page()
    sign_in(hana, site.url, "hana")
    start_from_lobby(hana, "friend", variant="time_freedom")
    hana.locator("[data-invite-link]").wait_for()
    invite = hana.locator("[data-invite-link]").input_value()
    fair = hana.locator("section[aria-labelledby=fair-title]")
    fair.locator("[data-commitment-none]").wait_for()
    text = " ".join(fair.inner_text().split())
    assert "Commitment for ," not in text and "—" not in text
    assert "Each deal is committed here" in text
    assert "the link works for 24 hours" in main_text(hana)
    shot(hana, "invite-waiting-desktop")
    hana.set_viewport_size({"width": 390, "height": 844})
    hana.locator("[data-cancel-invite]").wait_for()
    shot(hana, "invite-waiting-phone")

    hana.click("[data-cancel-invite]")
    hana.wait_for_url("**/matches/")
    assert "Invitation cancelled: its link no longer works." in hana.locator("body").inner_text()
    assert "No match in progress." in main_text(hana)
    shot(hana, "invite-cancelled-my-matches")

    fred = new_page()
    sign_in(fred, site.url, "fred")
    fred.goto(invite)
    assert "This invitation was cancelled by the player who sent it." in main_text(fred)
    shot(fred, "invite-cancelled-link")
    assert hana.js_errors == [] and fred.js_errors == []


def test_a_spectators_score_sheet_and_a_forfeit_after_a_ban(
    site: Any, new_page: Any, player_page: Any
) -> None:
    alice, bob = seat_two(site, player_page, "alice", "bob")
    spectator = new_page()
    spectator.goto(alice.url)
    spectator.locator("[data-my-hand], [data-opp-hand]").first.wait_for()
    spectator.click("aside >> text=Score sheet")
    spectator.wait_for_url("**/sheet/")
    assert spectator.locator("h1").inner_text() == "Score sheet"
    assert "alice vs bob" in main_text(spectator)
    shot(spectator, "spectator-score-sheet")

    # As a moderator would, from another thread: Playwright's loop runs in this one.
    banning = threading.Thread(target=ban, args=("alice",))
    banning.start()
    banning.join(30)
    bob.locator("#showdown [data-match-over]:not([hidden])").wait_for()
    told = bob.locator("#showdown").inner_text()
    assert "Forfeit: alice's account was suspended by a moderator." in told
    assert "resignation" not in told
    assert bob.locator("#showdown [data-rematch]").is_hidden()
    shot(bob, "forfeit-suspended-table")
    match = Match.objects.get(seats__user__username="bob")
    assert match.end_reason == "suspended"
    bob.goto(f"{site.url}/matches/")
    assert "forfeit: account suspended" in main_text(bob).lower()
    bob.goto(f"{site.url}/players/bob/")
    assert "Forfeit: account suspended" in main_text(bob) and "Resigned" not in main_text(bob)
    bob.goto(f"{site.url}/match/{match.pk}/sheet/")
    assert "(forfeit: alice's account was suspended)" in main_text(bob)
    shot(bob, "forfeit-suspended-sheet")
    assert bob.js_errors == [] and spectator.js_errors == []


def ban(username: str) -> None:
    try:
        user_ban(staff=create_moderator(), user=get_user_model().objects.get(username=username),
                 reason="abuse in chat")
    finally:
        connections.close_all()


def test_a_newcomers_boards_profile_and_lobby(site: Any, new_page: Any) -> None:
    dan, eve = create_user("dan", PASSWORD), create_user("eve", PASSWORD)
    now = timezone.now()
    for variant in ("time_freedom", "straight"):
        create_finished_match(
            (dan, eve), variant=variant, rules={"target_score": 100, "turn_seconds": None},
            finished_at=now, scores=(130, 40), hands_won=(3, 0), gins=(0, 0),
        )
    page = new_page()
    sign_in(page, site.url, "dan")

    page.goto(f"{site.url}/leaderboards/")
    standing = " ".join(page.locator("#your-standing").inner_text().split())
    assert standing.startswith("You have 2 rated matches this week, finished since the board")
    assert "no rated match" not in main_text(page)
    shot(page, "leaderboard-not-computed-yet")

    page.goto(f"{site.url}/leaderboards/computer/")
    assert "Only the hard and expert computers have boards" in main_text(page)
    shot(page, "leaderboard-computer-levels")

    page.goto(f"{site.url}/players/dan/")
    profile = main_text(page)
    assert "favourite variant: Straight Gin" in profile  # a tie: the first by name
    assert "Time Freedom" in profile and "time_freedom" not in profile
    shot(page, "profile-variant-names")

    RatedPlayBan.objects.create(user=dan, offence=1, abandonments=3, starts_at=now,
                                until=now + timedelta(minutes=15))
    page.goto(f"{site.url}/")
    notice = page.locator("[data-rated-ban]").first
    assert re.search(r"rated play is closed to you for 1[45] minutes more", notice.inner_text())
    page.locator("#play-friend").scroll_into_view_if_needed()
    shot(page, "lobby-rated-play-ban")
    assert page.js_errors == []


def test_the_admin_index_names_each_section_once(site: Any, new_page: Any) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    page = new_page()
    page.goto(f"{site.url}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{site.url}/admin/")
    captions = [c.strip().lower() for c in page.locator("caption a.section").all_inner_texts()]
    assert len(captions) == len(set(captions)) and "players and moderation" in captions
    text = page.locator("#content-main").inner_text()
    assert "Matches" in text and "Board entries" in text and "Rated play bans" in text
    assert "Matchs" not in text and "entrys" not in text
    shot(page, "admin-index")
