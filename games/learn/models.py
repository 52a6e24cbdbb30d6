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


class Puzzle(models.Model):
    """One decision cut from a finished hand (games/learn/core/puzzles.py): the view
    its player had (the engine's ``player_view``, nothing else), its legal actions, the
    clearly best action and the expected points of each legal action; a Glicko-2
    rating of its own. A retired puzzle (its answer found doubtful: by staff in the
    admin, or by ``manage.py puzzles_rejudge``) is given to nobody any more and its
    answers count for nothing; it stays, with its attempts, and can be restored."""

    class Source(models.TextChoices):
        MATCH = "match", "a rated match"
        SELF_PLAY = "self_play", "the computer's self-play"

    source = models.CharField(max_length=10, choices=Source.choices)
    hand = models.ForeignKey("games.Hand", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="puzzles")
    ply = models.PositiveIntegerField()
    view = models.JSONField()
    legal_actions = models.JSONField()
    best = models.JSONField()
    values = models.JSONField()  # [{"action", "value"}], best first
    themes = models.JSONField(default=list)
    key = models.JSONField()  # games.learn.core.puzzles.position_key: near copies
    worlds = models.PositiveIntegerField()
    rating = models.FloatField()
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    retired_because = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["rating"], name="puzzle_by_rating")]
        constraints = [
            models.UniqueConstraint(fields=["hand", "ply"], name="one_puzzle_per_decision"),
        ]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.rating:.0f})"


class PuzzlePlayer(models.Model):
    """An account's puzzle rating (Glicko-2) and streak of right answers."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="puzzle_rating")
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f}"


class PuzzleAttempt(models.Model):
    """An account's one counted answer to a puzzle (a second answer changes nothing)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="puzzle_attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts_made")
    action = models.JSONField()
    correct = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle"),
        ]


class MinedHand(models.Model):
    """A finished hand of a rated match already looked through for puzzles."""

    hand = models.OneToOneField("games.Hand", on_delete=models.CASCADE, related_name="+")
    kept = models.PositiveIntegerField(default=0)
    mined_at = models.DateTimeField(auto_now_add=True)
