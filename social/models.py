"""The tables of the social side of the site: who follows whom (two players who follow
each other are friends), each player's social settings (online status private, which
e-mails they want), their notifications, and the e-mails sent (at most one per kind per
hour per player)."""

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """``follower`` follows ``followee``; with the follow back, they are friends. A block
    between the two (games.chat's ``UserBlock``) makes it count for nothing."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_made"
    )
    followee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followee")), name="no_self_follow"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


class SocialSettings(models.Model):
    """A player's social settings (one row per user, created on first change): whether
    friends see them online, and which kinds of e-mail they get while away."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
        related_name="social_settings",
    )
    online_private = models.BooleanField(default=False)
    email_challenge = models.BooleanField(default=True)
    email_turn = models.BooleanField(default=True)
    email_tournament = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"Social settings of {self.user_id}"


class Notification(models.Model):
    """Something that happened for a player: what (``kind``), who or what it is about
    (``params``, values only: the text is written in the reader's language when shown),
    where it leads (``url``) and when it was read (null: unread)."""

    class Kind(models.TextChoices):
        CHALLENGE = "challenge", "Challenge"
        FRIEND = "friend", "New friend"
        FOLLOW = "follow", "New follower"
        TOURNAMENT = "tournament", "Tournament starting"
        TURN = "turn", "Your turn"
        MODERATION = "moderation", "Moderation"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"]),
            models.Index(
                fields=["user"], name="notification_unread", condition=models.Q(read_at=None)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class EmailSent(models.Model):
    """An e-mail of one kind to one player: the hourly limit reads the last one."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "kind", "-sent_at"])]
