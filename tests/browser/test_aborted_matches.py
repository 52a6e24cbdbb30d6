"""What two people see of a rated friend match resigned at once: both tables say the
match was aborted (not rated, on no leaderboard), their lists of matches mark
it "Aborted", and the boards' page writes the rules that keep the
boards from being farmed."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match
from leaderboards.models import RatingChange
from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS, friend_match, resign, sign_in
from tests.factories import create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def match_id(url: str) -> int:
    return int(url.rstrip("/").rsplit("/", 1)[1])


def test_a_friend_match_resigned_at_once_reads_aborted_and_the_boards_say_why(
    site: Any, new_page: Any
) -> None:
    create_user("erin", PASSWORD)
    create_user("farid", PASSWORD)
    erin, farid = new_page(), new_page(PHONE)
    sign_in(erin, site.url, "erin")
    sign_in(farid, site.url, "farid")
    friend_match(erin, farid, variant="time_freedom")
    for page in (erin, farid):
        page.locator("[data-my-hand] .card").first.wait_for()

    resign(erin, farid)
    for page in (erin, farid):
        headline = page.locator("#showdown [data-showdown-headline]").inner_text()
        assert headline == "Match aborted"
        reason = page.locator("#showdown [data-match-over] [data-end-reason]").inner_text()
        assert reason == (
            "Ended by resignation. Aborted: it ended before each player had made two moves,"
            " so it is not rated and counts on no leaderboard."
        )
    erin.screenshot(path=SCREENSHOTS / "aborted-table-desktop.png")
    farid.screenshot(path=SCREENSHOTS / "aborted-table-phone.png")
    match = Match.objects.get(pk=match_id(erin.url))
    assert match.aborted and not RatingChange.objects.filter(match=match).exists()

    for page, size in ((erin, "desktop"), (farid, "phone")):
        page.goto(f"{site.url}/matches/")
        row = page.locator("[aria-label='Finished matches'] .match-row").first
        assert "aborted" in row.inner_text().lower().split()
        page.screenshot(path=SCREENSHOTS / f"aborted-my-matches-{size}.png", full_page=True)

        page.goto(f"{site.url}/leaderboards/")
        rule = page.locator("#board-rule")
        assert rule.is_visible()
        text = " ".join(rule.inner_text().split())
        assert "Only the first 3 matches between the same two players in a week count" in text
        assert "before each player has made two moves" in text and "aborted" in text
        page.screenshot(path=SCREENSHOTS / f"boards-rule-{size}.png", full_page=True)
        page.goto(f"{site.url}/leaderboards/month/")
        assert "in a month count" in " ".join(page.locator("#board-rule").inner_text().split())
    assert erin.js_errors == [] and farid.js_errors == []
