"""Tournaments: recurring schedules (staff), tournaments (arena or Swiss), their
entrants, pairings (each one match, or a bye), Swiss rounds and the audit trail.

The database holds the guarantees that make the tasks idempotent: one entrant per
player (``one_entrant_per_player``), one round row per number (``one_round_number``,
so a round is never started twice), one pairing per player and Swiss round
(``one_pairing_per_round_seat0/1``), one pairing per match, one tournament per
schedule and start time (``one_instance_per_schedule_slot``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.functional import lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.rules import TURN_SECONDS
from games.tournaments.core.scoring import ARENA_STREAK_FROM


class Format(models.TextChoices):
    ARENA = "arena", _("Arena")
    SWISS = "swiss", _("Swiss")


# "50 points", in the language of the page that shows it.
_points = lazy(lambda points: gettext("%(points)s points") % {"points": points}, str)
TARGET_CHOICES = [(50, _points(50)), (100, _points(100)), (150, _points(150))]
TURN_CHOICES = [(s, f"{s} s") for s in TURN_SECONDS]
VARIANT_CHOICES = [("default", pgettext_lazy("variant", "Default")),
                   ("straight", _("Straight Gin")), ("oklahoma", _("Oklahoma Gin"))]


class TournamentSchedule(models.Model):
    """A recurring event staff set up in the admin; beat creates each instance ahead of
    time (``games.tournaments.services.schedules_create_due``)."""

    class Kind(models.TextChoices):
        DAILY = "daily", "Every day"
        WEEKLY = "weekly", "Every week"
        MONTHLY = "monthly", "Every month (nth weekday)"

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=8, choices=Format.choices)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.WEEKLY)
    weekday = models.PositiveSmallIntegerField(default=6, help_text="0 = Monday ... 6 = Sunday")
    nth = models.PositiveSmallIntegerField(default=1, help_text="Monthly: 1st to 4th weekday")
    hour = models.PositiveSmallIntegerField(default=18, help_text="UTC")
    minute = models.PositiveSmallIntegerField(default=0)
    duration_minutes = models.PositiveIntegerField(default=60, help_text="Arena length")
    rounds = models.PositiveSmallIntegerField(default=5, help_text="Swiss rounds")
    round_minutes = models.PositiveIntegerField(default=30, help_text="Swiss round deadline")
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, default="default")
    target_score = models.PositiveSmallIntegerField(choices=TARGET_CHOICES, default=50)
    turn_seconds = models.PositiveSmallIntegerField(choices=TURN_CHOICES, default=30)
    max_players = models.PositiveIntegerField(default=500)
    create_ahead_hours = models.PositiveIntegerField(default=168)
    active = models.BooleanField(default=True)

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """One arena or Swiss event."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", pgettext_lazy("tournament", "Upcoming")
        LIVE = "live", pgettext_lazy("tournament", "Live")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament", "Cancelled")

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=8, choices=Format.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED,
                              db_index=True)
    variant = models.CharField(max_length=32, default="default")
    target_score = models.PositiveSmallIntegerField(default=50)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True, default=30)
    starts_at = models.DateTimeField(db_index=True)
    duration_minutes = models.PositiveIntegerField(default=60)  # arena
    rounds = models.PositiveSmallIntegerField(default=5)  # Swiss
    round_minutes = models.PositiveIntegerField(default=30)  # Swiss round deadline
    max_players = models.PositiveIntegerField(default=100)
    public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=32, unique=True, null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    schedule = models.ForeignKey(TournamentSchedule, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="instances")
    current_round = models.PositiveSmallIntegerField(default=0)  # Swiss
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)  # arena: no pairing after this
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped with every result; the standings broadcast sends each version once.
    standings_version = models.PositiveIntegerField(default=0)
    published_version = models.PositiveIntegerField(default=0)
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"],
                                    name="one_instance_per_schedule_slot"),
        ]
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()}, {self.starts_at:%Y-%m-%d %H:%M} UTC)"


class Entrant(models.Model):
    """A player in a tournament, with the running totals the standings show."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        PAUSED = "paused", "Paused"
        WITHDRAWN = "withdrawn", "Withdrawn"
        REMOVED = "removed", "Removed by staff"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="tournament_entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    rating = models.FloatField(default=1500.0)  # at entry; pairing uses it
    points = models.FloatField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)  # arena: wins in a row
    missed = models.PositiveSmallIntegerField(default=0)  # arena: pairings missed in a row
    # Arena pool: since when the player waits for a pairing (null: playing or away).
    waiting_since = models.DateTimeField(null=True, blank=True)
    last_opponent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")
    tiebreak1 = models.FloatField(default=0)  # Swiss: Buchholz; arena: losses
    tiebreak2 = models.FloatField(default=0)  # Swiss: Sonneborn-Berger
    rank = models.PositiveIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entrant_per_player"),
        ]
        indexes = [models.Index(fields=["tournament", "-points"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"

    @property
    def on_fire(self) -> bool:
        return self.streak >= ARENA_STREAK_FROM


class Round(models.Model):
    """A Swiss round; its unique number makes starting it twice impossible."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number"),
        ]
        ordering = ["tournament", "number"]


class Pairing(models.Model):
    """Two entrants and their match, or one entrant's bye (``seat1`` null)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField(null=True, blank=True)  # null in an arena
    seat0 = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    seat1 = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    match = models.OneToOneField("games.Match", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="tournament_pairing")
    winner = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    points0 = models.FloatField(default=0)  # points each seat scored for this pairing
    points1 = models.FloatField(default=0)
    finished = models.BooleanField(default=False, db_index=True)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "seat0"],
                                    name="one_pairing_per_round_seat0"),
            models.UniqueConstraint(fields=["tournament", "round", "seat1"],
                                    name="one_pairing_per_round_seat1"),
        ]
        indexes = [models.Index(fields=["tournament", "finished"])]
        ordering = ["tournament", "round", "pk"]


class TournamentEvent(models.Model):
    """The audit trail: who did what to a tournament, and when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=32)
    detail = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.kind} {self.detail}"
