"""A bot's challenge reaches a person's open lobby live: it appears under "Challenges
to you" without a reload, goes away when the bot withdraws it, and Accept opens the
table."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS, sign_in
from tests.factories import create_api_token, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def api_post(base: str, token: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path,
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def open_lobby(page: Any, base: str) -> None:
    """ann's lobby, its socket connected (the chat panel is live), marked so that a
    reload would show."""
    sign_in(page, base, "ann")
    page.locator("[data-chat][data-state=live]").wait_for()
    page.evaluate("window.notReloaded = true")


@pytest.mark.parametrize(("viewport", "name"), [(None, "desktop"), (PHONE, "phone")])
def test_a_bots_challenge_appears_in_the_open_lobby_without_a_reload(
    site: Any, new_page: Any, viewport: Any, name: str
) -> None:
    token, _ = create_api_token(create_user("robo", bot=True))
    create_user("ann", PASSWORD)
    page = new_page(viewport)
    open_lobby(page, site.url)
    assert page.locator("text=Challenges to you").count() == 0

    first = api_post(site.url, token, "/api/challenge/ann", {"variant": "straight", "target": 150})[
        "challenge"
    ]["id"]
    row = page.locator(f"[data-incoming-challenges] [data-challenge='{first}']")
    row.wait_for()
    assert page.get_by_role("heading", name="Challenges to you").is_visible()
    assert "BOT robo" in row.inner_text() and "150" in row.inner_text()
    assert page.evaluate("window.notReloaded === true")
    page.screenshot(path=SCREENSHOTS / f"lobby-live-challenge-{name}.png", full_page=False)

    # The bot withdraws it: it goes; another comes, and Accept opens the table.
    api_post(site.url, token, f"/api/challenge/{first}/cancel", {})
    row.wait_for(state="detached")
    page.locator("[data-incoming-challenges]").wait_for(state="hidden")
    second = api_post(site.url, token, "/api/challenge/ann", {"target": 50})["challenge"]["id"]
    again = page.locator(f"[data-incoming-challenges] [data-challenge='{second}']")
    again.wait_for()
    assert page.evaluate("window.notReloaded === true")
    again.get_by_role("button", name="Accept").click()
    page.wait_for_url("**/match/*/")
    page.locator("[data-my-hand] .card").first.wait_for()
    assert page.js_errors == []
