"""The replay page in real Chromium, for a BOT account that played the computer: the
move list names each player as the rest of the site does (``seat_name``), and a hand
the match ended in the middle of (a resignation) is replayed without the browser
asking for an analysis that cannot exist (no 404, no console error), as is the result
dialog of that match's table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, Response, expect

from games import services
from games.analysis import services as analysis
from games.bots import choose_action
from games.engine import RuleSet
from games.models import Hand, Match, Seat
from tests.browser.conftest import (
    PHONE,
    SCREENSHOTS,
    key_events_on_the_document,
    off_the_event_loop,
    record_window_errors,
)
from tests.factories import create_match, create_user
from tests.games.helpers import current_state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def bot_match_resigned_mid_hand() -> Match:
    """BOT "alphabot" plays the easy computer (to 250) through the services: hand 1 to
    its end (then analysed), a few moves of a later hand, and the bot resigns in the
    middle of it (the hand in play: the next one is dealt as soon as one ends)."""
    bot = create_user("alphabot", bot=True)
    match = create_match(bot, "easy", rules=RuleSet.default().replace(target_score=250))
    rng = random.Random(7)
    for _ in range(3000):
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE, "the match ended before hand 2"
        # Moves counted in the hand in play, not since hand 2 began: a move that ends a
        # hand deals the next, which may have none yet.
        playing = match.hands.order_by("-number").first()
        assert playing is not None
        if playing.number >= 2 and playing.moves.count() >= 4:
            break
        seat = Seat.objects.get(match=match, index=match.current_seat)
        if seat.bot_level:
            # The Celery worker may have played it already: then this finds no move.
            services.bot_turn_play(match_id=match.pk, expected_version=match.version)
            continue
        state = current_state(match)
        view = state.player_view(seat.index)
        action = choose_action("easy", view, state.legal_actions(), rng)
        services.move_submit(match=match, user=bot, action=action, expected_version=match.version)
    match.refresh_from_db()
    services.match_resign(match=match, user=bot)
    first = Hand.objects.get(match=match, number=1)
    analysis.hand_analyse(hand_id=first.pk)  # False if the analysis worker took it first
    match.refresh_from_db()
    return match


def watch_requests(page: Page) -> list[str]:
    """The address of every request the page makes."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    return requested


def watch_for_failures(page: Page) -> list[str]:
    """Every 4xx/5xx response and console error the page meets, as text."""
    failures: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failures.append(f"{response.status} {response.url}")

    page.on("response", on_response)
    page.on(
        "console",
        lambda message: (
            failures.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    return failures


@pytest.fixture
def resigned_bot_match(site: Any) -> Match:
    return off_the_event_loop(bot_match_resigned_mid_hand)


def test_the_move_list_names_a_bot_account_by_its_name(
    site: Any, new_page: Any, resigned_bot_match: Match
) -> None:
    match = resigned_bot_match
    bot_seat = Seat.objects.get(match=match, user__username="alphabot").index
    for name, viewport in (("desktop", None), ("phone", PHONE)):
        page = new_page(viewport)
        failures = watch_for_failures(page)
        page.goto(f"{site.url}/match/{match.pk}/hand/1/replay/")
        page.locator("#replay-app[data-review=ready]").wait_for(timeout=120_000)
        moves = page.locator("[data-review-moves] button")
        texts = moves.all_inner_texts()
        plies = [int(p) for p in moves.evaluate_all("bs => bs.map(b => b.dataset.ply)")]
        seats = Hand.objects.get(match=match, number=1).moves.order_by("seq")
        movers = [m.seat for m in seats]
        assert len(texts) == len(movers) and texts
        for text, ply in zip(texts, plies, strict=True):
            who = "BOT alphabot" if movers[ply] == bot_seat else "Computer (easy)"
            assert text.startswith(f"{ply + 1}. {who} "), text
        page.screenshot(path=SCREENSHOTS / f"replay-bot-names-{name}.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= (viewport or {}).get(
            "width", 10_000
        )
        assert failures == [] and page.js_errors == []


def test_a_hand_ended_by_resignation_asks_for_no_analysis(
    site: Any, new_page: Any, resigned_bot_match: Match
) -> None:
    match = resigned_bot_match
    last = Hand.objects.filter(match=match).order_by("-number").first()
    assert last is not None and last.number >= 2 and last.result is None
    for name, viewport in (("desktop", None), ("phone", PHONE)):
        page = new_page(viewport)
        failures = watch_for_failures(page)
        requested = watch_requests(page)
        page.goto(f"{site.url}/match/{match.pk}/hand/{last.number}/replay/")
        status = page.locator("[data-review-status]")
        expect(status).to_have_text(
            "This hand did not finish: the match ended by resignation during it, so it"
            " has no analysis."
        )
        page.click("[data-step=last]")
        expect(page.locator("[data-position]")).not_to_have_text("0 / 0")
        page.screenshot(path=SCREENSHOTS / f"replay-resigned-hand-{name}.png", full_page=True)

        # The table of the finished match opens its result on that hand: no review
        # line is asked for it either.
        page.goto(f"{site.url}/match/{match.pk}/")
        page.locator("#showdown[open] [data-match-over]:not([hidden])").wait_for()
        expect(page.locator("#showdown [data-showdown-review]")).to_be_hidden()
        page.screenshot(path=SCREENSHOTS / f"table-resigned-result-{name}.png")
        assert not [u for u in requested if u.endswith(f"/hand/{last.number}/analysis.json")]
        assert failures == [] and page.js_errors == []


def test_a_key_event_on_the_document_itself_throws_nothing_on_the_replay(
    site: Any, new_page: Any, resigned_bot_match: Match
) -> None:
    page = new_page()
    record_window_errors(page)
    page.goto(f"{site.url}/match/{resigned_bot_match.pk}/hand/1/replay/")
    page.locator("#replay-app").wait_for()
    assert key_events_on_the_document(page) == []
    assert page.js_errors == []
