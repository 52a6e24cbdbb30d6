"""The course (games/learn/core/lessons.py): eight lessons in the issue's order, two to
four exercises each, every position a legal one of the engine, every right answer a
legal action (or one right option), every named wrong answer legal and explained."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.engine.state import HandState
from games.learn.core.lessons import LEARNER, course, lesson_slugs
from games.learn.models import LessonDone
from tests.factories import create_user

ORDER = ["melds", "deadwood", "draw", "discard", "knock", "gin", "layoffs", "scoring"]


def test_eight_lessons_in_order_with_two_to_four_exercises() -> None:
    lessons = course()
    assert lesson_slugs() == ORDER
    for lesson in lessons:
        assert 2 <= len(lesson.exercises) <= 4, lesson.slug
        assert lesson.text and lesson.title
    assert [lesson.final_match for lesson in lessons] == [False] * 7 + [True]
    ids = [e.id for lesson in lessons for e in lesson.exercises]
    assert len(ids) == len(set(ids))


ACTIONS = [e for lesson in course() for e in lesson.exercises if e.kind == "action"]


@pytest.mark.parametrize("exercise", ACTIONS, ids=lambda e: e.id)
def test_an_action_exercise_has_legal_right_answers_and_explained_wrong_ones(exercise) -> None:
    state = exercise.state
    assert state.current_player == LEARNER
    # The state survives the trip through JSON the page makes (engine.js reads it).
    assert HandState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    legal = state.legal_actions()
    assert exercise.correct, "an exercise needs a right answer"
    for action in exercise.correct:
        assert action in legal
        after, _events = state.apply(action)  # the engine plays it
        assert after != state
    wrong = [a for a in legal if a not in exercise.correct]
    assert wrong, "an exercise needs a wrong answer to explain"
    named = [a for a, _why in exercise.wrong]
    for action in named:
        assert action in legal and action not in exercise.correct
    if any(a not in named for a in wrong):
        assert exercise.otherwise, "every other wrong action needs its sentence"


def test_the_discard_checks_are_the_engines() -> None:
    by_id = {e.id: e for lesson in course() for e in lesson.exercises}
    assert by_id["deadwood-high"].correct == ({"type": "discard", "card": "KC"},)
    assert by_id["knock-oklahoma"].state.knock_limit == 4
    assert by_id["knock-oklahoma"].correct == ({"type": "knock", "card": "QH"},)
    assert by_id["gin-go"].correct == ({"type": "knock", "card": "9H"},)
    assert by_id["draw-first-turn"].state.phase == "first_turn"


def test_the_choices_have_one_right_answer_and_the_hands_are_the_engines() -> None:
    by_id = {e.id: e for lesson in course() for e in lesson.exercises}
    for exercise in by_id.values():
        if exercise.kind == "choice":
            assert sum(right for _l, right, _w in exercise.options) == 1, exercise.id
            assert all(why for _l, _r, why in exercise.options)
    undercut = by_id["layoffs-undercut"].state.result
    assert undercut is not None and undercut.kind == "undercut" and undercut.winner == LEARNER
    laid = by_id["layoffs-which"].state.result
    assert laid is not None and sorted(map(str, laid.layoffs)) == ["9H", "TH"]
    # The shown hands are from the engine, not from the learner's view mid-hand: the
    # page shows them only once the hand is over, as the showdown does.
    assert by_id["layoffs-which"].state.is_over


@pytest.mark.django_db
def test_the_page_carries_the_course_and_nothing_of_the_account() -> None:
    client = Client()
    page = client.get("/learn/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "learn-course" in body and "Cards and melds" in body
    player = create_user("reader")
    client.force_login(player)
    assert "reader" not in client.get("/learn/").content.decode()


def send(client: Client, body: str) -> Any:
    return client.post("/learn/progress/", data=body, content_type="application/json")


@pytest.mark.django_db
def test_progress_is_kept_for_an_account_and_merged_from_the_browser() -> None:
    client = Client()
    assert client.get("/learn/progress/").json() == {
        "signed_in": False, "guest": False, "lessons": [], "language": "en"}
    refused = send(client, '{"lessons": ["melds"]}')
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "not_signed_in"
    player = create_user("learner")
    client.force_login(player)
    answer = send(client, '{"lessons": ["draw", "melds", "melds"]}')
    assert answer.status_code == 200 and answer.json()["lessons"] == ["melds", "draw"]
    again = send(client, '{"lessons": ["melds"]}')
    assert again.json()["lessons"] == ["melds", "draw"]
    assert LessonDone.objects.filter(user=player).count() == 2
    unknown = send(client, '{"lessons": ["nope"]}')
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_lesson"
    bad = send(client, '{"lessons": "melds"}')
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed_request"
    assert client.get("/learn/progress/").json() == {
        "signed_in": True, "guest": False, "lessons": ["melds", "draw"], "language": "en"}


@pytest.mark.django_db
def test_the_last_lesson_starts_a_match_against_the_easy_computer_with_hints() -> None:
    """The form at the end of the course, as the page sends it (its CSRF field is filled
    by the script from the cookie): an easy computer match in which hints are allowed."""
    import re

    from games.analysis.selectors import hint_allowed
    from games.models import Match, Seat

    client = Client()
    page = client.get("/learn/").content.decode()
    start = page.index("data-final-match")
    form = page[start:page.index("</form>", start)]
    fields = dict(re.findall(r'<input type="hidden" name="([\w-]+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken")
    action = re.search(r'<form method="post" action="([^"]+)"[^>]*data-final-match', page)
    assert action is not None
    answer = client.post(action.group(1), fields)
    assert answer.status_code == 302 and "/match/" in answer["Location"]
    match = Match.objects.get()
    assert Seat.objects.get(match=match, user__isnull=True).bot_level == "easy"
    assert hint_allowed(match) and not match.rated
