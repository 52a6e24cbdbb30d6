"""A suspended player who signs in in a browser reads the reason and that the
suspension lasts until a moderator lifts it."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import user_ban
from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS
from tests.factories import create_moderator, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def test_a_banned_player_signing_in_reads_why_and_for_how_long(site: Any, new_page: Any) -> None:
    cheat = create_user("cheat", PASSWORD)
    user_ban(staff=create_moderator(), user=cheat, reason="Abusive chat after three warnings")
    for size, viewport in (("desktop", None), ("phone", PHONE)):
        page = new_page(viewport)
        page.goto(f"{site.url}/accounts/login/")
        page.fill("#id_login", "cheat")
        page.fill("#id_password", PASSWORD)
        page.click("form button[type=submit]")
        alert = page.get_by_role("alert")
        alert.wait_for()
        assert "Reason: Abusive chat after three warnings" in alert.inner_text()
        assert page.get_by_role("heading", level=1).inner_text() == "Account suspended"
        assert "The suspension is permanent: it ends only if a moderator lifts it." in (
            page.locator("main").inner_text()
        )
        page.screenshot(path=SCREENSHOTS / f"banned-sign-in-{size}.png", full_page=True)
        assert page.js_errors == []
