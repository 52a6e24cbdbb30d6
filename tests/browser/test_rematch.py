"""Two people in two browsers: a rematch offered by one and accepted by the other
takes both to the new match's table; the quick-match waiting page pairs two
players and both land on the same table."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match, Seat
from tests.browser.conftest import friend_match, resign, start_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def match_id(url: str) -> int:
    return int(url.rstrip("/").rsplit("/", 1)[1])


def assert_seated_against(page: Any, other: str) -> None:
    """My cards are dealt and the other player sits across, online."""
    page.locator("[data-my-hand] .card").first.wait_for()
    top = page.locator("[data-seat-bar=top]")
    assert other in top.locator("[data-name]").inner_text()
    top.locator(".conn[data-state=online]").wait_for()


def test_rematch_offered_by_one_and_accepted_by_the_other(site: Any, player_page: Any) -> None:
    erin, farid = player_page(site.url, "erin"), player_page(site.url, "farid")
    friend_match(erin, farid, variant="time_freedom")
    assert_seated_against(erin, "farid")
    assert_seated_against(farid, "erin")
    first = match_id(erin.url)

    resign(erin, farid)
    rematch = {p: p.locator("#showdown [data-rematch]") for p in (erin, farid)}
    for page in (erin, farid):
        assert rematch[page].inner_text() == "Rematch"

    rematch[erin].click()
    # Erin waits for an answer; Farid is asked; nobody has moved yet.
    erin.locator("#showdown [data-rematch]:disabled", has_text="Rematch offered").wait_for()
    farid.locator("#showdown [data-rematch]:enabled", has_text="Accept rematch").wait_for()
    assert erin.url == farid.url == f"{site.url}/match/{first}/"

    rematch[farid].click()
    for page in (erin, farid):
        page.wait_for_url(lambda url: match_id(url) != first)
    assert erin.url == farid.url
    assert_seated_against(erin, "farid")
    assert_seated_against(farid, "erin")
    new = Match.objects.get(pk=match_id(erin.url))
    assert new.rematch_of_id == first and new.status == Match.Status.ACTIVE
    assert sorted(Seat.objects.filter(match=new).values_list("user__username", flat=True)) == [
        "erin", "farid",
    ]
    assert erin.js_errors == [] and farid.js_errors == []


def test_quick_match_pairs_two_waiting_browsers_on_one_table(
    site: Any, player_page: Any
) -> None:
    gita, hugo = player_page(site.url, "gita"), player_page(site.url, "hugo")

    # Gita asks first and waits on the lobby page, which polls for a partner.
    form = gita.locator("form[data-form=quick]")
    form.locator("label:has(input[name='quick-variant'][value=default])").click()
    form.locator("summary").click()
    gita.select_option("#id_quick-target_score", "50")
    form.locator("button[type=submit]").click()
    gita.locator("[data-quick-waiting]").wait_for()
    assert gita.url == f"{site.url}/"

    # Hugo asks for the same rules: paired at once, and Gita's page follows him.
    start_from_lobby(hugo, "quick", variant="default", target="50")
    gita.wait_for_url(hugo.url)
    assert_seated_against(gita, "hugo")
    assert_seated_against(hugo, "gita")
    match = Match.objects.get(pk=match_id(hugo.url))
    assert match.kind == "quick" and match.rated
    for page in (gita, hugo):
        meta = page.locator("[data-meta]").inner_text()
        assert "Rated\nyes" in meta and "Target\n50" in meta, meta
    assert gita.js_errors == [] and hugo.js_errors == []
