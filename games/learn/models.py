"""The tables of learning: which lessons each account has finished."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LessonDone(models.Model):
    """A lesson of the course (``games/learn/core/lessons.py``, by slug) an account
    has finished; one row per account and lesson, the first time kept."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lessons_done"
    )
    lesson = models.CharField(max_length=40)
    finished_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson"], name="one_row_per_lesson_done"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.lesson}"
