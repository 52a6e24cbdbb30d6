"""Reads of learning: an account's finished lessons, in the course's order."""

from __future__ import annotations

from typing import Any

from .core.lessons import lesson_slugs
from .models import LessonDone


def lessons_done(*, user: Any) -> list[str]:
    """The slugs of the lessons ``user`` has finished, in the course's order."""
    done = set(LessonDone.objects.filter(user=user).values_list("lesson", flat=True))
    return [slug for slug in lesson_slugs() if slug in done]
