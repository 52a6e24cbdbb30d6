"""A person in a browser against examples/bot_client.py: the person challenges the BOT
from its profile page, the bot (its own process, on the bot API) accepts, and the two
play a whole match; the table names the bot "BOT robo" and the match downloads as a
verified export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.engine.verify import verify_export
from games.models import Match
from tests.browser.conftest import PASSWORD, SCREENSHOTS, TablePlayer, sign_in
from tests.factories import create_api_token, create_user

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_plays_the_example_bot_to_the_end(site: Any, new_page: Any) -> None:
    token, _ = create_api_token(create_user("robo", bot=True))
    create_user("ann", PASSWORD)
    bot = subprocess.Popen(
        [sys.executable, "examples/bot_client.py", "--url", site.url, "--token", token,
         "--matches", "1", "--accept-from", "ann"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        page = new_page()
        sign_in(page, site.url, "ann")
        page.goto(f"{site.url}/players/robo/")
        assert page.locator("h1").inner_text() == "BOT robo"
        form = page.locator("form[data-challenge-form]")
        form.locator("select[name=variant]").select_option("time_freedom")
        form.locator("select[name=target]").select_option("50")
        form.locator("button[type=submit]").click()
        try:
            page.wait_for_url("**/match/*/", timeout=30_000)  # the bot accepted
        except PlaywrightTimeoutError:
            bot.kill()
            raise AssertionError(f"the bot did not accept; it printed:\n{bot.communicate()[0]}"
                                 f"\nthe page says: {page.locator('main').inner_text()}") from None
        player = TablePlayer(page)
        page.locator("[data-my-hand] .card").first.wait_for()
        assert "BOT robo" in page.locator("[data-seat-bar=top] [data-name]").inner_text()
        page.screenshot(path=SCREENSHOTS / "bot-api-table.png")
        hands = 0
        while True:
            player.play_until_showdown(timeout=120)
            hands += 1
            if player.match_over():
                break
            assert hands < 40, "the match should have ended long ago"
            player.next_hand()
        page.screenshot(path=SCREENSHOTS / "bot-api-match-over.png")
        output, _ = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(10)
    assert bot.returncode == 0, output
    match = Match.objects.get(seats__user__username="ann")
    assert match.status == Match.Status.FINISHED and match.end_reason == "target"
    assert f"match {match.pk}: over" in output
    assert not match.rated
    page.goto(f"{site.url}/match/{match.pk}/export.json")
    document = json.loads(page.locator("body").inner_text())
    verify_export(document)
    assert [p["bot"] for p in document["players"]].count(True) == 1
