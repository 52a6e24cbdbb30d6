"""Leaderboard and rating models.

- ``Board`` / ``BoardEntry``: the stored weekly or monthly board of a period, computed in
  the database from the match records; ``finalised_at`` freezes it once the period ended.
- ``ComputerBoardEntry``: the all-time boards of win rate against a computer level.
- ``Rating`` / ``RatingChange``: each player's Glicko-2 rating and its history, one
  change per player per rated match (which also makes applying a match idempotent).
- ``BoardExclusion`` / ``VoidedMatch``: what fair play's moderators took off the boards:
  a player, or a farmed match (no board, no rating).
"""

from django.conf import settings
from django.db import models

from leaderboards import glicko2
from leaderboards.periods import Period, PeriodKind


class Board(models.Model):
    """The board of one ISO week or calendar month (UTC)."""

    kind = models.CharField(max_length=8, choices=[(k.value, k.value) for k in PeriodKind])
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    # The minimum number of matches in force when the board was computed.
    min_matches = models.PositiveIntegerField()
    computed_at = models.DateTimeField()
    finalised_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "period_start"], name="one_board_per_period"),
        ]
        ordering = ["kind", "-period_start"]

    def __str__(self) -> str:
        return self.period.label

    @property
    def period(self) -> Period:
        return Period(PeriodKind(self.kind), self.period_start, self.period_end)

    @property
    def is_final(self) -> bool:
        return self.finalised_at is not None


class BoardEntry(models.Model):
    """One player's totals over a board's period. ``rank`` is null while the player has
    fewer matches than the board's minimum; ranks are unique (ties broken by more
    matches won, hands won, gins, then the earlier account)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_entries"
    )
    rank = models.PositiveIntegerField(null=True)
    points = models.IntegerField()
    matches_played = models.PositiveIntegerField()
    matches_won = models.PositiveIntegerField()
    hands_won = models.PositiveIntegerField()
    gins = models.PositiveIntegerField()

    class Meta:
        verbose_name_plural = "board entries"
        constraints = [
            models.UniqueConstraint(fields=["board", "user"], name="one_entry_per_player"),
        ]
        indexes = [models.Index(fields=["board", "rank"])]


class ComputerBoardEntry(models.Model):
    """One player's all-time record against one computer level."""

    level = models.CharField(max_length=16)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="computer_entries"
    )
    rank = models.PositiveIntegerField(null=True)
    matches_played = models.PositiveIntegerField()
    matches_won = models.PositiveIntegerField()

    class Meta:
        verbose_name_plural = "computer board entries"
        constraints = [
            models.UniqueConstraint(fields=["level", "user"], name="one_computer_entry_per_player"),
        ]
        indexes = [models.Index(fields=["level", "rank"])]


class Rating(models.Model):
    """A registered player's current Glicko-2 rating (absent until the first rated match)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    rated_matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The rating board's order, and the count of players ahead of one player
            # (an index-only scan: no table row is read).
            models.Index(
                fields=["-rating", "user"],
                condition=models.Q(rated_matches__gt=0),
                name="rated_board_order",
            )
        ]

    def as_glicko(self) -> glicko2.Glicko2Rating:
        return glicko2.Glicko2Rating(self.rating, self.deviation, self.volatility)


class RatingChange(models.Model):
    """A player's rating after one rated match (the rating history)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    rating_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="one_change_per_match"),
        ]
        indexes = [models.Index(fields=["user", "at"])]
        ordering = ["user", "at"]

    @property
    def delta(self) -> float:
        return self.rating - self.rating_before


class BoardExclusion(models.Model):
    """A player a moderator removed from the boards (games/fairplay): on no weekly,
    monthly, computer or rating board, past or future, while the row exists."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="board_exclusion",
    )
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField()


class VoidedMatch(models.Model):
    """A rated match a moderator found farmed (games/fairplay): it counts on no board
    and for no rating; the ratings of everyone it affected were replayed without it
    (``services.matches_void``)."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "voided matches"


class CorrespondenceRating(models.Model):
    """A player's Glicko-2 rating in correspondence matches (games/services/
    correspondence.py), their own, apart from live play's ``Rating``: every finished
    correspondence match between two registered people counts, unless aborted."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="correspondence_rating",
    )
    rating = models.FloatField(default=glicko2.DEFAULT_RATING)
    deviation = models.FloatField(default=glicko2.DEFAULT_DEVIATION)
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    rated_matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def as_glicko(self) -> glicko2.Glicko2Rating:
        return glicko2.Glicko2Rating(self.rating, self.deviation, self.volatility)


class CorrespondenceRatingChange(models.Model):
    """What one correspondence match did to one player's correspondence rating (once):
    the rating history of that rating, kept as ``RatingChange`` keeps live play's (a
    voided match's ratings are replayed from it: ``services.matches_void``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    rating_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_correspondence_change"),
        ]
