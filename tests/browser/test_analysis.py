"""The analysis in real Chromium: the replay page's annotations of a hand played
badly on purpose (marks, the better action on the cards, the graph, N to the next
mistake), the score sheet's and the profile's accuracy; and against the computer,
the hint key and the result dialog's review line from a real analysis worker."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from games.analysis import services as analysis
from games.analysis.models import HandAnalysis
from games.engine import RuleSet, deadwood
from games.models import Hand, Match, Seat
from tests.analysis.workers import analysis_worker  # noqa: F401 (a fixture)
from tests.browser.conftest import (
    PASSWORD,
    SCREENSHOTS,
    TablePlayer,
    play_as_guest,
    sign_in,
    start_from_lobby,
)
from tests.factories import create_user
from tests.games.helpers import current_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def worst_action(state: Any) -> dict:
    """Pass, draw from the stock, and throw the card whose loss hurts most: melds get
    broken, high cards kept, and a knock is never taken."""
    legal = state.legal_actions()
    if state.phase == "first_turn":
        return {"type": "pass"}
    if state.phase == "draw":
        return {"type": "draw", "source": "stock"}
    hand = state.hands[state.current_player]
    discards = [a for a in legal if a["type"] == "discard"]
    return max(discards, key=lambda a: deadwood([c for c in hand if str(c) != a["card"]]))


def badly_played_match(user: Any) -> Match:
    match = services.match_create_computer(
        user=user, level="easy", rules=RuleSet.default().replace(target_score=50)
    )
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        seat = Seat.objects.get(match=match, index=match.current_seat)
        if seat.bot_level:
            services.bot_turn_play(match_id=match.pk, expected_version=match.version)
        else:
            services.move_submit(
                match=match, user=user, action=worst_action(current_state(match)),
                expected_version=match.version,
            )
    raise AssertionError("the match did not end")


def test_the_replay_page_annotates_the_mistakes_of_a_hand(site: Any, new_page: Any) -> None:
    alice = create_user("alice", PASSWORD)
    # The deals and the computer's play are random: a short match may end before the
    # bad play costs enough to be called a mistake, so play another until one is.
    for _ in range(5):
        match = badly_played_match(alice)
        for hand in Hand.objects.filter(match=match, result__isnull=False):
            assert analysis.hand_analyse(hand_id=hand.pk)
        flagged = next((
            row for row in HandAnalysis.objects.filter(match=match).order_by("hand__number")
            if any(d["label"] in ("mistake", "blunder") for d in row.decisions)
        ), None)
        if flagged is not None:
            break
    assert flagged is not None, "no mistake flagged in 5 badly played matches"
    labelled = [d for d in flagged.decisions if d["label"]]
    first = labelled[0]

    page = new_page()
    sign_in(page, site.url, "alice")
    page.goto(f"{site.url}/match/{match.pk}/hand/{flagged.hand.number}/replay/")
    page.locator("#replay-app[data-review=ready]").wait_for()
    assert page.locator("[data-review-moves] .mark").count() == len(labelled)
    assert page.locator("[data-review-svg] circle[data-ply]").count() == len(labelled)
    assert page.locator("[data-review-svg] polyline").count() == 2
    page.keyboard.press("n")  # to the first labelled decision
    assert page.locator("[data-position]").inner_text().startswith(f"{first['ply'] + 1} /")
    note = page.locator("[data-review-note]")
    assert note.locator(f"[data-mark={first['label']}]").count() == 1
    better = note.locator("[data-better]").inner_text()
    assert re.fullmatch(r"Better: .+ \(−\d+\.\d\)", better), better
    assert f"−{first['loss']:.1f}" in better
    if first["best"]["type"] in ("discard", "knock"):
        ringed = page.locator(".card--better")
        assert ringed.count() == 1
        assert ringed.get_attribute("data-card") == first["best"]["card"]
    page.mouse.move(1, 1)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "replay-analysis.png", full_page=True)
    if len(labelled) > 1:
        page.keyboard.press("n")
        second = labelled[1]["ply"] + 1
        assert page.locator("[data-position]").inner_text().startswith(f"{second} /")
        page.keyboard.press("p")
        assert page.locator("[data-position]").inner_text().startswith(f"{first['ply'] + 1} /")

    page.goto(f"{site.url}/match/{match.pk}/sheet/")
    cell = page.locator(f"[data-hand-accuracy='{flagged.hand.number}']").inner_text()
    assert re.fullmatch(r"\d+ – \d+", cell), cell
    assert re.fullmatch(r"\d+", page.locator("[data-match-accuracy='0']").inner_text())
    page.goto(f"{site.url}/players/alice/")
    assert re.fullmatch(r"\d+", page.locator("[data-average-accuracy]").inner_text())
    assert page.js_errors == []


@pytest.mark.usefixtures("analysis_worker")
def test_a_hint_and_the_review_line_against_the_computer(site: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(site.url + "/")
    play_as_guest(page)
    start_from_lobby(page, "computer", variant="default", level="easy", target="250")
    player = TablePlayer(page)
    player.wait_for_my_turn()
    page.keyboard.press("h")
    hint = page.locator("[data-hint-note]")
    hint.filter(has_text="Hint:").wait_for()
    assert "1 hint used" in hint.inner_text()
    player.play_until_showdown()
    review = page.locator("#showdown [data-showdown-review] [data-review-link]")
    review.wait_for(timeout=60_000)
    line = page.locator("#showdown [data-showdown-review]").inner_text()
    assert re.search(r"(no mistakes|\d+ (mistake|blunder|inaccurac)).*: review", line), line
    assert "1 hint used" in line
    assert re.search(r"/match/\d+/hand/1/replay/$", review.get_attribute("href") or "")
    page.screenshot(path=SCREENSHOTS / "showdown-review.png")
    assert page.js_errors == []
