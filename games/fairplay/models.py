"""The tables of fair play: the sign-up and session signals (hashed, kept
``FAIRPLAY_SIGNAL_DAYS``), each account's judged decisions per rated match, the runs of
the detection, the cases it opens for the moderators, and the notices that tell a
player what was decided."""

from django.conf import settings
from django.db import models


class AccountSignal(models.Model):
    """Where an account signed up or signed in from, hashed: ``network`` is a keyed
    hash (HMAC-SHA256 with the site's secret key) of the client address's network (an
    IPv4 /24, an IPv6 /48), ``device`` one of the browser's user agent. Neither can be
    turned back into the address or the agent; two accounts with the same hash came
    from the same network or the same kind of browser. Deleted after
    ``FAIRPLAY_SIGNAL_DAYS`` (the detection's periodic job)."""

    class Kind(models.TextChoices):
        SIGNUP = "signup", "Sign-up"
        SESSION = "session", "Sign-in"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_signals"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    network = models.CharField(max_length=64, db_index=True)
    device = models.CharField(max_length=64)
    at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user_id} at {self.at:%Y-%m-%d %H:%M}"


class MatchAccuracy(models.Model):
    """One account's judged decisions in one rated match (games/fairplay/signals.py
    ``match_accuracy``): written once every hand of the match is analysed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    #: The account's rating before the match (its RatingChange, or the default).
    rating = models.FloatField()
    decisions = models.PositiveIntegerField()
    loss_sum = models.FloatField()
    loss_squares = models.FloatField()
    agreements = models.PositiveIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "match accuracies"
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="one_accuracy_per_match"),
        ]
        indexes = [models.Index(fields=["user", "finished_at"])]


class DetectionRun(models.Model):
    """One run of the detection (the periodic job): what it looked at and what it cost."""

    started_at = models.DateTimeField(db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0)
    matches_summarised = models.PositiveIntegerField(default=0)
    accounts_checked = models.PositiveIntegerField(default=0)
    pairs_checked = models.PositiveIntegerField(default=0)
    cases_opened = models.PositiveIntegerField(default=0)
    cases_updated = models.PositiveIntegerField(default=0)
    signals_deleted = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Detection run of {self.started_at:%Y-%m-%d %H:%M:%S}"


class Case(models.Model):
    """What the detection found about one account (assistance) or a pair (farming), for
    a moderator to decide: ``strength`` orders the queue (``-log10`` of the chance of
    the evidence between honest players), ``evidence`` holds the numbers and the
    reasons as last computed, ``match_ids`` the matches it names. A flag never acts:
    it opens (or strengthens) a case."""

    class Kind(models.TextChoices):
        ASSISTANCE = "assistance", "Assistance"
        FARMING = "farming", "Collusion or farming"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DECIDED = "decided", "Decided"

    class Decision(models.TextChoices):
        DISMISS = "dismiss", "Dismissed"
        WARN = "warn", "Warned"
        REMOVE = "remove", "Removed from the boards"
        CLOSE = "close", "Account closed"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    #: The kind and the accounts' ids in order ("farming:12-40"): one open case each.
    key = models.CharField(max_length=64, db_index=True)
    users = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="fairplay_cases")
    strength = models.FloatField()
    summary = models.CharField(max_length=300)
    evidence = models.JSONField(default=dict)
    match_ids = models.JSONField(default=list)
    opened_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    reverted = models.BooleanField(default=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-strength"]
        indexes = [models.Index(fields=["status", "-strength"], name="fairplay_queue")]
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=models.Q(status="open"), name="one_open_case_per_key"
            ),
        ]
        # Cases are decided through games/fairplay/services.py only.
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"{self.get_kind_display()} case {self.pk}: {self.summary}"


class Notice(models.Model):
    """What a moderator decided, told to the player on their next page until they
    dismiss it (templates/fairplay/_notices.html)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_notices"
    )
    text = models.CharField(max_length=500)
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField()
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [
            models.Index(
                fields=["user"], condition=models.Q(seen_at__isnull=True), name="notice_unseen"
            )
        ]

    def __str__(self) -> str:
        return f"Notice to {self.user_id}: {self.text[:40]}"
