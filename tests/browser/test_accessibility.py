"""Every page of the site passes axe-core (from the npm registry, tests/browser/axe,
at the locked release) with no serious or critical violation: signed out, as a guest
at a table, and as a registered player on every page of theirs, at desktop and phone
sizes; and the live table has its level-one heading."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services
from games.models import Match
from social import services as social_services
from tests.browser.conftest import (
    PASSWORD,
    PHONE,
    axe_violations,
    off_the_event_loop,
    play_as_guest,
    sign_in,
    start_from_lobby,
)
from tests.factories import create_user
from tests.games.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def check(page: Any, axe_source: str, found: dict[str, Any], label: str) -> None:
    violations = axe_violations(page, axe_source)
    if violations:
        found[label] = violations


def test_every_page_passes_axe(site: Any, new_page: Any, axe_source: str) -> None:
    ann = create_user("ann", PASSWORD)
    ben_user = create_user("ben", PASSWORD)
    finished = off_the_event_loop(
        lambda: play_out(
            services.match_create_computer(
                user=ann, level="easy", rules={"target_score": 50, "turn_seconds": None},
                variant="time_freedom",
            ),
            random.Random(7),
        )
    )
    invite = off_the_event_loop(services.match_create_invite, user=ann, variant="default")
    # Friends and notifications: ann follows ben, who follows her back (she is told).
    off_the_event_loop(social_services.follow_create, user=ann, followee=ben_user)
    off_the_event_loop(social_services.follow_create, user=ben_user, followee=ann)
    found: dict[str, Any] = {}

    # Signed out.
    page = new_page()
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
                 "/fairness/", "/leaderboards/", "/leaderboards/month/",
                 "/leaderboards/rating/", "/leaderboards/computer/", "/players/ann/",
                 f"/match/{finished.pk}/sheet/"):
        page.goto(site.url + path)
        check(page, axe_source, found, f"signed out {path}")

    # A registered player's pages, the waiting table of an invite and a finished match.
    sign_in(page, site.url, "ann")
    for path in ("/", "/matches/", "/players/settings/", "/players/etiquette/",
                 "/players/ann/", f"/match/{invite.pk}/", f"/match/{finished.pk}/",
                 f"/match/{finished.pk}/sheet/", f"/match/{finished.pk}/hand/1/replay/",
                 "/accounts/email/", "/accounts/password/change/", "/accounts/logout/",
                 "/friends/", "/notifications/", "/players/ben/"):
        page.goto(site.url + path)
        if path == f"/match/{finished.pk}/":
            page.locator("#showdown[open]").wait_for()  # the result and the rematch
        check(page, axe_source, found, f"ann {path}")
    # The lobby while ann waits in the quick-match queue.
    assert off_the_event_loop(services.quickmatch_enqueue, user=ann) is None
    page.goto(site.url + "/")
    check(page, axe_source, found, "ann / waiting for a quick match")
    ben = new_page(PHONE)
    sign_in(ben, site.url, "ben")
    ben.goto(f"{site.url}/join/{invite.invite_token}/")
    check(ben, axe_source, found, "ben join (phone)")

    # A guest at a computer table in play, at both sizes, and the showdown.
    for size in (None, PHONE):
        guest = new_page(size)
        guest.goto(site.url + "/")
        play_as_guest(guest)
        check(guest, axe_source, found, f"guest home {size}")
        start_from_lobby(guest, "computer", variant="default", level="easy", target="250")
        guest.locator("[data-my-hand] .card").first.wait_for()
        guest.locator("[data-chat]").wait_for()
        check(guest, axe_source, found, f"guest table {size}")
        # The live table has one level-one heading, saying whose table it is.
        heading = guest.get_by_role("heading", level=1)
        assert heading.count() == 1, size
        assert heading.text_content() == "Gin rummy against Computer (easy)", size
    match_id = int(guest.url.rstrip("/").rsplit("/", 1)[1])
    assert Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).exists()
    assert found == {}, "\n".join(f"{page}: {v}" for page, v in found.items())
