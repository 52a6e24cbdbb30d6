"""The analysis off the path of play: a real Celery worker on the "analysis"
queue analyses every hand of a match as it finishes, and the embedded mode
analyses on a background thread without holding up the move that ended the hand."""

from __future__ import annotations

import random
import threading
import time

import pytest

from games.analysis import services as analysis
from games.analysis.models import HandAnalysis
from games.engine import RuleSet
from games.models import Hand, Match
from ginsite import runtime
from tests.factories import create_match, create_user
from tests.games.helpers import play_out, play_until_hand

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE_SECONDS = 120.0


def wait_for_analyses(match: Match) -> float:
    """Seconds until every finished hand of the match is analysed (fails at the deadline)."""
    started = time.monotonic()
    while True:
        hands = Hand.objects.filter(match=match, result__isnull=False).count()
        done = HandAnalysis.objects.filter(match=match, done=True).count()
        if hands and done == hands:
            return time.monotonic() - started
        if time.monotonic() - started > DEADLINE_SECONDS:
            raise AssertionError(f"{done} of {hands} hands analysed")
        time.sleep(0.1)


@pytest.mark.celery_worker
def test_a_real_worker_analyses_every_hand_of_a_match_soon_after_it_ends(
    analysis_worker, client
):
    alice = create_user("alice")
    match = create_match(alice, "medium", rules=RuleSet.default().replace(target_score=50))
    match = play_out(match, random.Random(11))
    assert match.status == Match.Status.FINISHED
    waited = wait_for_analyses(match)
    print(f"analysis complete {waited:.1f} s after the match's last hand")
    body = client.get(f"/api/match/{match.pk}/analysis").json()
    numbers = list(
        Hand.objects.filter(match=match, result__isnull=False)
        .order_by("number").values_list("number", flat=True)
    )
    assert [h["number"] for h in body["hands"]] == numbers
    assert all(h["decisions"] for h in body["hands"])
    assert analysis_worker.alive()


def test_the_embedded_mode_analyses_on_a_background_thread(
    settings, monkeypatch
):
    settings.ANALYSIS_MAX_WORLDS = 16
    alice = create_user("alice")
    match = create_match(alice, "easy", rules=RuleSet.default().replace(target_score=250))
    hand_finished = analysis.hand_finished
    monkeypatch.setattr(analysis, "hand_finished", lambda hand_id: None)  # not queued now
    play_until_hand(match, 2, random.Random(12))
    hand = Hand.objects.get(match=match, number=1)
    release = threading.Event()
    real = analysis.hand_analyse

    def held(**kwargs: object) -> bool:
        release.wait(30)
        return real(**kwargs)

    monkeypatch.setattr(analysis, "hand_analyse", held)
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded mode from here on
    hand_finished(hand.pk)  # returns while the analysis is held
    assert not HandAnalysis.objects.filter(hand=hand).exists()
    release.set()
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not HandAnalysis.objects.filter(hand=hand, done=True).exists():
        assert time.monotonic() < deadline, "the embedded analysis never finished"
        time.sleep(0.05)
    scheduler = runtime.scheduler()
    assert isinstance(scheduler, runtime.TimerScheduler) and scheduler.pending() == 0
