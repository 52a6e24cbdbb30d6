"""Writes of learning: recording finished lessons (an account's own, and those a
browser kept for a visitor who then signed up or in)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from .core.lessons import lesson_slugs
from .errors import LearnError
from .models import LessonDone
from .selectors import lessons_done

MAX_LESSONS = 50


def lessons_record(*, user: Any, lessons: Iterable[object]) -> list[str]:
    """Mark ``lessons`` (slugs) finished for ``user`` (already finished ones stay as
    they were) and return every lesson the account has finished. Refuses
    (``unknown_lesson``, nothing written) a slug that is not a lesson of the course."""
    wanted = list(lessons)[:MAX_LESSONS + 1]
    known = set(lesson_slugs())
    if len(wanted) > MAX_LESSONS or any(not isinstance(s, str) or s not in known for s in wanted):
        raise LearnError("That is not a lesson of the course.")
    with transaction.atomic():
        LessonDone.objects.bulk_create(
            [LessonDone(user=user, lesson=slug) for slug in dict.fromkeys(wanted)],
            ignore_conflicts=True,
        )
    return lessons_done(user=user)
