"""The profile's "Accuracy over time" with a single analysed match shows that match's
accuracy as a visible point and says so, instead of an empty chart."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.analysis.models import HandAnalysis
from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS, sign_in
from tests.factories import create_finished_match, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def one_analysed_match(user: Any) -> None:
    now = timezone.now()
    match = create_finished_match(
        (user, None), bot_level="easy", rated=False, scores=(120, 30), hands=[(None, 0, "")],
        finished_at=now,
    )
    HandAnalysis.objects.create(
        hand=match.hands.get(),
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
