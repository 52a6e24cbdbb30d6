"""Retired puzzles (games/learn): ``manage.py puzzles_rejudge`` retires the knock
puzzles kept before the generator asked hard (a knock hard would not make is no clear
answer) and keeps the others; a retired puzzle is given to nobody, its answers count
for nothing, its attempts stay; staff retire and restore puzzles in the admin."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.learn import selectors, services
from games.learn.core import puzzles as core
from games.learn.models import Puzzle, PuzzleAttempt, PuzzlePlayer
from tests.factories import create_api_token, create_user
from tests.learn.test_puzzles import QUICK, view_at


def store_knock_puzzle(seed: int, ply: int) -> Puzzle:
    """The knock puzzle of a self-play position, judged as before the knock check."""
    view = view_at(seed, ply)
    verdict = core.judge(view, seed=f"self:{seed}:{ply}", knock_check=False, **QUICK)
    assert verdict is not None and verdict[0]["type"] == "knock"
    best, values, worlds = verdict
    found = core.Puzzle(
        view=view, legal_actions=list(view["legal_actions"]), best=dict(best), values=values,
        themes=core.themes(view, best, values), rating=1500.0, key=core.position_key(view, best),
        source_ply=ply, worlds=worlds,
    )
    services.puzzles_store(puzzles=[found], source=Puzzle.Source.SELF_PLAY)
    return Puzzle.objects.latest("pk")


@pytest.fixture
def two_knocks(db: Any) -> tuple[Puzzle, Puzzle]:
    """(a knock where hard waits, a knock hard makes too), both in play."""
    return store_knock_puzzle(9600000, 39), store_knock_puzzle(9600010, 9)


def rejudge(*options: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("puzzles_rejudge", *options, stdout=out)
    return dict(json.loads(out.getvalue()))


@pytest.mark.django_db
def test_rejudge_retires_the_knocks_hard_would_not_make(two_knocks: tuple[Puzzle, Puzzle]) -> None:
    waits, knocks = two_knocks
    dry = rejudge("--dry-run")
    assert (dry["asked"], dry["hard_waits"], dry["retired"]) == (2, 1, 0)
    assert not Puzzle.objects.filter(retired_at__isnull=False).exists()
    tally = rejudge()
    assert (tally["asked"], tally["hard_waits"], tally["retired"]) == (2, 1, 1)
    waits.refresh_from_db()
    knocks.refresh_from_db()
    assert waits.retired_at is not None and waits.retired_because == services.HARD_WAITS
    assert knocks.retired_at is None
    # Asked again, only the knock in play is asked, and it stays.
    again = rejudge()
    assert (again["asked"], again["hard_waits"], again["retired"]) == (1, 0, 0)
    assert Puzzle.objects.filter(retired_at__isnull=True).get() == knocks


@pytest.mark.django_db
def test_a_retired_puzzle_is_given_to_nobody_and_its_answers_count_for_nothing(
    two_knocks: tuple[Puzzle, Puzzle],
) -> None:
    waits, knocks = two_knocks
    player = create_user("solver")
    # Answered before it was retired: that attempt stays, as it was.
    counted = services.puzzle_answer(user=player, puzzle_id=waits.pk, action=waits.best)
    rated = Puzzle.objects.get(pk=waits.pk).rating
    services.puzzles_retire(puzzles=Puzzle.objects.filter(pk=waits.pk), because="doubtful")
    # Nobody is given it: not as the next puzzle, not as the daily one (every day).
    visitor = selectors.puzzle_next(user=None)
    assert visitor == knocks
    assert selectors.puzzle_next(user=player) == knocks
    today = timezone.now().date()
    assert {selectors.puzzle_daily(day=today + timedelta(days=d)) for d in range(8)} == {knocks}
    api = Client()
    program = create_user("program")
    token, _row = create_api_token(program)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert api.get("/api/puzzle/next", **headers).json()["id"] == knocks.pk
    # Answered where it was still open: the verdict and the values, and nothing moves.
    answer = api.post(f"/api/puzzle/{waits.pk}/answer", data=json.dumps({"action": waits.best}),
                      content_type="application/json", **headers)
    assert answer.status_code == 200
    verdict = answer.json()
    assert verdict["correct"] and verdict["values"] == waits.values and verdict["retired"]
    assert verdict["rating"]["before"] == verdict["rating"]["after"] == 1500
    wrong = next(a for a in waits.legal_actions if not core.same_action(a, waits.best))
    late = create_user("late")
    again = services.puzzle_answer(user=late, puzzle_id=waits.pk, action=wrong)
    assert not again["correct"] and again["rating"] == {"before": 1500, "after": 1500}
    assert not PuzzlePlayer.objects.filter(user__in=[program, late]).exists()
    after = Puzzle.objects.get(pk=waits.pk)
    assert after.rating == rated != waits.rating and after.attempts == 1
    # The attempt made before: still there, and its verdict is still the one shown.
    assert PuzzleAttempt.objects.filter(puzzle=waits).count() == 1
    assert services.puzzle_answer(user=player, puzzle_id=waits.pk, action=wrong) == {
        **counted, "retired": True}
    assert counted["retired"] is False


@pytest.mark.django_db
def test_staff_retire_and_restore_puzzles_in_the_admin(
    client: Client, two_knocks: tuple[Puzzle, Puzzle]
) -> None:
    waits, knocks = two_knocks
    staff = create_user("curator", staff=True, is_superuser=True)
    client.force_login(staff)
    changelist = reverse("admin:learn_puzzle_changelist")
    page = client.get(changelist).content.decode()
    assert "2 puzzles" in page and f"knock {waits.best['card']}" in page
    detail = client.get(reverse("admin:learn_puzzle_change", args=[waits.pk])).content.decode()
    assert f"top of the pile {waits.view['discard_pile'][-1]}" in detail
    client.post(changelist, {"action": "retire", "_selected_action": [waits.pk]})
    waits.refresh_from_db()
    assert waits.retired_at is not None and waits.retired_because == "retired by curator"
    retired = client.get(changelist, {"in_play": "no"}).content.decode()
    assert "retired by curator" in retired
    assert selectors.puzzle_next(user=None) == knocks
    client.post(changelist, {"action": "restore", "_selected_action": [waits.pk]})
    waits.refresh_from_db()
    assert waits.retired_at is None and waits.retired_because == ""
    # Never deleted from the admin: what was answered is kept.
    assert client.get(reverse("admin:learn_puzzle_delete", args=[waits.pk])).status_code == 403
