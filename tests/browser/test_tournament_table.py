"""A tournament player who stays at the table after their match (real Chromium, daphne,
the Celery worker): in an arena two players are paired again as soon as their match
ends; each stays on the finished match's table, whose result dialog says what comes
next and links to the tournament, and each is taken to the next match's table by
itself (the tab's title changes and the "turn" sound plays first), touching nothing.
A player who paused is not paired again, and the dialog says so; the result dialog of
an arena match is looked at on a desktop and on a 390 px phone.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.tournaments import services
from games.tournaments.models import Pairing
from tests.browser.conftest import (
    PASSWORD,
    SCREENSHOTS,
    make_two_moves_each,
    off_the_event_loop,
    resign,
    sign_in,
    wait_until,
)
from tests.factories import create_tournament, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Kept in the tab's sessionStorage when a table page goes away: its title and the
#: sounds it played (the table takes its player to the next match by itself).
REMEMBER_LEAVING_TABLE = """
addEventListener("pagehide", () => {
  if (!location.pathname.startsWith("/match/")) return;
  sessionStorage.setItem("left-table", JSON.stringify({
    from: location.pathname, title: document.title,
    played: window.ginSound ? [...window.ginSound.played] : [],
  }));
});
"""


def _match_ids(tournament_id: int) -> list[int]:
    return list(
        Pairing.objects.filter(tournament_id=tournament_id, match__isnull=False)
        .order_by("pk")
        .values_list("match_id", flat=True)
    )


def test_players_who_stay_at_the_table_are_taken_to_their_next_arena_match(
    site: Any, new_page: Any
) -> None:
    users = {name: create_user(name, PASSWORD) for name in ("alice", "bob")}
    arena = off_the_event_loop(
        create_tournament,
        "arena",
        list(users.values()),
        name="Table Arena",
        starts_at=timezone.now() + timedelta(minutes=5),
        duration_minutes=30,
    )
    off_the_event_loop(
        services.tournament_progress,
        tournament_id=arena.pk,
        now=timezone.now() + timedelta(minutes=5),
    )
    [first] = _match_ids(arena.pk)

    tables = {}
    for name in ("alice", "bob"):
        page = new_page()
        page.add_init_script(REMEMBER_LEAVING_TABLE)
        sign_in(page, site.url, name)
        page.goto(f"{site.url}/match/{first}/")
        page.locator("[data-my-hand] .card").first.wait_for()
        tables[name] = page
    alice, bob = tables["alice"], tables["bob"]

    # Two moves each (a match ended sooner is aborted), then Alice resigns; nobody
    # touches anything afterwards.
    make_two_moves_each(alice, bob)
    resign(alice, bob)

    # Each table takes its player to the next match, which the arena paired at once.
    for page in (alice, bob):
        page.wait_for_url(lambda url: "/match/" in url and f"/match/{first}/" not in url)
        page.locator("[data-my-hand] .card").first.wait_for()
        left = json.loads(page.evaluate("sessionStorage.getItem('left-table')"))
        assert left["from"] == f"/match/{first}/", left
        assert left["title"] == "▶ Your match is ready", left
        assert left["played"][-1:] == ["turn"], left
        assert page.js_errors == []
    second = _match_ids(arena.pk)[-1]
    assert second != first
    for page in (alice, bob):
        assert page.url.endswith(f"/match/{second}/")

    # Bob pauses (from his tournament page, say) before their second match ends: nobody
    # is left to pair Alice with, and her result dialog says what comes next.
    make_two_moves_each(alice, bob)
    off_the_event_loop(services.tournament_pause, tournament=arena, user=users["bob"])
    resign(bob, alice)
    for page, says in (
        (alice, "you are paired again as soon as an opponent is free"),
        (bob, "You paused in Table Arena"),
    ):
        wait_until(
            page,
            "says => document.querySelector('#showdown[open] [data-tournament-next]:not([hidden])')"
            "?.textContent.includes(says)",
            arg=says,
        )
        link = page.locator("#showdown [data-tournament-next] a")
        assert link.text_content() == "Table Arena"
        assert link.get_attribute("href") == f"/tournaments/{arena.pk}/"
        assert page.locator("#showdown [data-rematch]").is_hidden()
    alice.screenshot(path=str(SCREENSHOTS / "tournament-table-result.png"))
    alice.set_viewport_size({"width": 390, "height": 844})
    alice.locator("#showdown [data-tournament-next]").scroll_into_view_if_needed()
    alice.screenshot(path=str(SCREENSHOTS / "tournament-table-result-phone.png"))
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390

    # Bob comes back to the tournament's page and joins again: his page takes him to
    # the new match, and so does Alice's table, where she stayed.
    bob.click("#showdown [data-tournament-next] a")
    bob.wait_for_url(f"**/tournaments/{arena.pk}/")
    bob.click("#join-button")
    for page in (alice, bob):
        page.wait_for_url(lambda url: "/match/" in url and f"/match/{second}/" not in url)
        page.locator("[data-my-hand] .card").first.wait_for()
    assert _match_ids(arena.pk)[-1] not in (first, second)
