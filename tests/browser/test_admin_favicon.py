"""The admin's pages carry the site's icon in the browser tab, as every other page
does (templates/admin/base_site.html), from the sign-in page to a change form."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page

from tests.browser.conftest import PASSWORD, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_icon(page: Page) -> dict[str, Any]:
    """The icon the tab shows: the page's <link rel=icon>, fetched as the browser does."""
    return page.evaluate(
        """async () => {
            const link = document.querySelector("link[rel~=icon]");
            if (!link) return {href: null, status: null, type: null};
            const response = await fetch(link.href);
            return {href: link.getAttribute("href"), status: response.status,
                    type: response.headers.get("content-type")};
        }"""
    )


def test_the_admin_pages_show_the_sites_icon(site: Any, new_page: Any) -> None:
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    page = new_page()
    page.goto(f"{site.url}/")
    site_icon = tab_icon(page)
    assert site_icon["status"] == 200

    page.goto(f"{site.url}/admin/login/")
    assert tab_icon(page) == site_icon
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{site.url}/admin/")
    for path in ("/admin/", "/admin/accounts/user/", "/admin/accounts/user/add/"):
        page.goto(site.url + path)
        assert tab_icon(page) == site_icon, path
    page.goto(f"{site.url}/admin/")
    page.screenshot(path=SCREENSHOTS / "admin-favicon-desktop.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=SCREENSHOTS / "admin-favicon-phone.png")
    assert page.js_errors == []
