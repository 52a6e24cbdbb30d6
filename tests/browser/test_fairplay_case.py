"""A fair-play case from the queue to a decision, in real Chromium against a real daphne
server: two accounts farm the weekly board by resignations, the periodic detection
opens a case, a moderator reads it in the admin's queue (its reasons, the pair's
matches as a picture) and removes the pair from the boards; the board is corrected,
the rating the farming moved is corrected for the honest player who met the winner
afterwards, the winner is told on their next page, and the moderation log has the
rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from accounts.models import ModerationAction
from games.fairplay import services as fairplay
from games.fairplay.models import Case
from leaderboards.models import Rating
from leaderboards.periods import PeriodKind, period_containing
from leaderboards.services import board_recompute, rating_apply_match
from tests.browser.conftest import PASSWORD, SCREENSHOTS, sign_in
from tests.factories import create_finished_match, create_moderator, create_user
from tests.fairplay.test_services import farm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def board_names(page: Any, base: str) -> list[str]:
    page.goto(f"{base}/leaderboards/")
    return [name.strip() for name in page.locator("main table tbody tr td a").all_inner_texts()]


def test_a_moderator_removes_a_farming_pair_from_the_boards(
    live_asgi_server: Any, new_page: Any,
) -> None:
    base = live_asgi_server.url
    win = create_user("winner", PASSWORD)
    feed = create_user("feeder", PASSWORD)
    honest = create_user("honest", PASSWORD)
    create_moderator("mod", PASSWORD)
    others = [create_user(f"other{i}") for i in range(4)]
    farmed = [farm(win, feed) for _ in range(3)]
    # Afterwards the winner, rated up, beats the honest player and two others; the
    # honest player beats four others (five matches each: both on the board).
    for players in ([win, honest], [win, others[0]], [win, others[1]],
                    *([honest, other] for other in others)):
        assert rating_apply_match(match_id=create_finished_match(players, winner=0).pk)
    honest_rating = Rating.objects.get(user=honest).rating
    now = timezone.now()
    for kind in PeriodKind:
        board_recompute(period=period_containing(kind, now), now=now)
    # What beat runs every 10 minutes (the worker's check after each match may have
    # opened the case already): one case, for the pair.
    fairplay.detection_run()
    case = Case.objects.get()

    # Before: the farmer is on the weekly board.
    page = new_page()
    assert set(board_names(page, base)) == {"winner", "honest"}

    # The moderator reads the queue, then the case.
    mod = new_page()
    sign_in(mod, base, "mod")
    mod.goto(f"{base}/admin/fairplay/case/")
    row = mod.locator("#result_list tbody tr").first
    assert "winner and feeder: 3 matches" in row.inner_text()
    SCREENSHOTS.mkdir(exist_ok=True)
    mod.screenshot(path=str(SCREENSHOTS / "fairplay-queue.png"), full_page=True)
    row.locator("a").first.click()
    mod.locator("#case-title").wait_for()
    reasons = mod.locator("#case-reasons").inner_text()
    assert "3 ended by resignation, abandonment or running out of time" in reasons
    assert "new account" in reasons
    assert mod.locator("#pair-chart svg rect[stroke='#b00']").count() == 3  # quick, marked
    assert mod.locator("#case-matches tbody tr").count() == 3
    assert mod.locator("#case-accounts tbody tr").count() == 2
    mod.screenshot(path=str(SCREENSHOTS / "fairplay-case.png"), full_page=True)

    # The decision: off the boards, the farmed matches voided.
    mod.check("input[name=decision][value=remove]")
    assert mod.is_checked("input[name=revert]")
    mod.fill("input[name=reason]", "Farmed the weekly board with instant resignations")
    mod.click("input[name=decide]")
    mod.wait_for_url(f"{base}/admin/fairplay/case/")
    done = mod.locator(".messagelist").inner_text()
    assert "winner, feeder removed from the boards" in done and "3 matches voided" in done

    # The board is corrected: the pair is off it, the honest player's match stays.
    assert board_names(page, base) == ["honest"]
    page.screenshot(path=str(SCREENSHOTS / "fairplay-board.png"), full_page=True)
    assert Rating.objects.get(user=honest).rating != honest_rating
    case.refresh_from_db()
    assert case.status == "decided" and case.match_ids == [m.pk for m in farmed]

    # The player is told on their next page, until they say they understood.
    player = new_page()
    sign_in(player, base, "winner")
    notice = player.locator("[data-fairplay-notice]").first
    notice.wait_for()
    assert "removed you from the leaderboards" in notice.inner_text()
    assert "Farmed the weekly board with instant resignations" in notice.inner_text()
    player.screenshot(path=str(SCREENSHOTS / "fairplay-notice.png"), full_page=True)
    told = new_page()
    sign_in(told, base, "honest")
    assert "Your rating was corrected" in told.locator("[data-fairplay-notice]").inner_text()
    player.locator("[data-fairplay-notice] button").first.click()
    player.wait_for_load_state()
    player.locator("[data-fairplay-notice]").filter(
        has_text="removed you from the leaderboards").wait_for(state="detached")

    # What is kept about them, and for how long, is on the privacy page (the footer).
    player.click("footer a[href='/privacy/']")
    player.locator("#privacy-fairplay").wait_for()
    assert "Signals are deleted after 30 days" in player.locator("main").inner_text()
    player.screenshot(path=str(SCREENSHOTS / "fairplay-privacy.png"), full_page=True)

    # The moderation log has the decision, with the moderator and the reason.
    mod.goto(f"{base}/admin/accounts/moderationaction/")
    log = mod.locator("#result_list").inner_text()
    assert log.count("Removed from the boards") == 2 and "Voided farmed matches" in log
    assert "Farmed the weekly board with instant resignations" in log
    rows = ModerationAction.objects.filter(actor__username="mod", details__case=case.pk)
    assert rows.count() == 4
    mod.screenshot(path=str(SCREENSHOTS / "fairplay-log.png"), full_page=True)
    for p in (page, mod, player, told):
        assert p.js_errors == []
