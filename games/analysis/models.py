"""The analysis of each finished hand, and the hints players asked for."""

from django.db import models


class HandAnalysis(models.Model):
    """The judged decisions of one finished hand (``games.bots.analysis``).

    The row is created when a worker claims the hand (``claimed_at``) and filled
    once (``done``); a claim older than ``services.CLAIM_SECONDS`` is taken over by
    the next task or sweep, so a worker lost mid-analysis never leaves a hand
    without analysis, and a redelivered task finds the work done.
    ``decisions`` holds ``Decision.to_dict()`` for each decision in play order;
    ``accuracy`` is ``[seat 0, seat 1]`` (0–100, null for a seat without decisions);
    ``counts`` is, per seat, ``{"inaccuracy": n, "mistake": n, "blunder": n}``.
    """

    hand = models.OneToOneField("games.Hand", on_delete=models.CASCADE, related_name="analysis")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analyses")
    done = models.BooleanField(default=False)
    claimed_at = models.DateTimeField()
    decisions = models.JSONField(default=list)
    accuracy = models.JSONField(default=list)
    counts = models.JSONField(default=list)
    setting = models.CharField(max_length=64, blank=True)  # worlds and target error used
    cpu_seconds = models.FloatField(default=0)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "hand analyses"
        indexes = [models.Index(fields=["match", "done"])]

    def __str__(self) -> str:
        return f"Analysis of hand {self.hand_id} ({'done' if self.done else 'pending'})"


class Hint(models.Model):
    """One hint given to a seat: the expert's suggested action for the position of
    ``version``. One per seat and version: asking again shows the same hint and
    counts once."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="hints")
    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="hints")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    action = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat", "version"], name="one_hint_per_position"
            ),
        ]

    def __str__(self) -> str:
        return f"Hint to seat {self.seat} of match {self.match_id} at version {self.version}"
