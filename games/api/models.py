"""Rows of the open platform: personal API tokens (stored hashed) and challenges
between accounts (docs/bot-api.md)."""

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored: the token itself is shown
    once, when it is created. A revoked token stays listed (revoked_at) and never
    works again."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)  # the first characters, to tell tokens apart
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"


class Challenge(models.Model):
    """One account challenges another to a match; accepting starts it."""

    class Status(models.TextChoices):
        CREATED = "created", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELED = "canceled", "Canceled"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    dest = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    variant = models.CharField(max_length=32)
    rules = models.JSONField()  # RuleSet.to_dict()
    rated = models.BooleanField(default=False)
    # A correspondence match (1, 3 or 7 days per move), null for live play.
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.CREATED, db_index=True
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} -> {self.dest} ({self.status})"
