"""The profile's "Accuracy over time" with a single analysed match shows that match's
accuracy as a visible point and says so, instead of an empty chart."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.analysis.models import HandAnalysis
from games.models import Hand, Match, Seat
from tests.browser.conftest import PASSWORD, SCREENSHOTS, sign_in
from tests.factories import create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def one_analysed_match(user: Any) -> None:
    now = timezone.now()
    match = Match.objects.create(
        kind=Match.Kind.COMPUTER,
        rules={},
        status=Match.Status.FINISHED,
        winner_seat=0,
        end_reason=Match.EndReason.TARGET,
        started_at=now,
        finished_at=now,
    )
    Seat.objects.create(match=match, index=0, user=user, score=120)
    Seat.objects.create(match=match, index=1, bot_level="easy", score=30)
    hand = Hand.objects.create(
        match=match,
        number=1,
        dealer=0,
        seed=b"s" * 32,
        seed_hash="0" * 64,
        state={},
        finished_at=now,
    )
    HandAnalysis.objects.create(
        hand=hand,
        match=match,
        done=True,
        claimed_at=now,
        completed_at=now,
        decisions=[{"seat": 0, "loss": 0.0}, {"seat": 0, "loss": 0.0}, {"seat": 1, "loss": 5}],
    )


def test_one_analysed_match_shows_one_point_on_the_accuracy_chart(site: Any, new_page: Any) -> None:
    one_analysed_match(create_user("solo", PASSWORD))
    for size, viewport in (("desktop", None), ("phone", PHONE)):
        page = new_page(viewport)
        sign_in(page, site.url, "solo")
        page.goto(f"{site.url}/players/solo/")
        chart = page.locator("#accuracy-chart")
        chart.scroll_into_view_if_needed()
        point = chart.locator("svg [data-accuracy-point]")
        assert point.count() == 1
        box = point.bounding_box()
        assert box is not None and box["width"] >= 6 and box["height"] >= 6  # seen, not a dot
        caption = " ".join(chart.locator("figcaption").inner_text().split())
        assert "Accuracy 100 in the one analysed match so far" in caption
        chart.screenshot(path=SCREENSHOTS / f"accuracy-chart-one-match-{size}.png")
        page.screenshot(path=SCREENSHOTS / f"accuracy-profile-{size}.png", full_page=True)
        assert page.js_errors == []
