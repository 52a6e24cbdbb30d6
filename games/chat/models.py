"""Chat messages (at a match's table, in a tournament or in the lobby), reports on them,
the word filter moderators edit in the admin, and blocks between users."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class ChatMessage(models.Model):
    """One message in one room: a match's table (``match``), a tournament
    (``tournament``) or, with both null, the lobby. ``text`` is what readers see (word
    filter applied); ``original_text`` is what the author typed, for moderators."""

    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="chat"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE,
        related_name="chat",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # author's seat at the table
    text = models.CharField(max_length=1000)
    original_text = models.CharField(max_length=1000)
    hidden = models.BooleanField(default=False)  # hidden by a moderator
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["match", "created_at"]),
            models.Index(fields=["tournament", "created_at"]),
            models.Index(fields=["author", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=True) | models.Q(tournament__isnull=True),
                name="chat_message_one_room",
            ),
        ]
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.author.display_name} in {self.room_name}: {self.text[:60]}"

    @property
    def room_name(self) -> str:
        if self.match_id:
            return f"match {self.match_id}"
        return f"tournament {self.tournament_id}" if self.tournament_id else "lobby"


class ChatReport(models.Model):
    """A player's report of a message; staff resolve it from the admin's report queue."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abuse or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating or collusion")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DISMISSED = "dismissed", "Dismissed"
        ACTIONED = "actioned", "Action taken"

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports_made"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    comment = models.CharField(max_length=500, blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_reports_resolved",
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=300, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reader"),
        ]
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"Report {self.pk} on message {self.message_id} ({self.get_status_display()})"


class WordFilter(models.Model):
    """A word (or phrase) masked with asterisks in every new chat message."""

    word = models.CharField(max_length=100, help_text="Matched as a whole word, any case.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("word"), name="word_filter_unique_word")]
        ordering = ["word"]

    def __str__(self) -> str:
        return self.word


class UserBlock(models.Model):
    """``blocker`` no longer sees ``blocked``'s messages; the two are never paired."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker.username} blocks {self.blocked.username}"
