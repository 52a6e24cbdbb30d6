"""The site's User model (custom from the first migration), table settings, and
moderation state: mutes, bans, warnings and the audit log of every moderation action."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player. Guests are real rows flagged ``is_guest``: they can play the computer,
    are never rated, and can keep their history by signing up. BOT accounts
    (``is_bot``) are shown as "BOT name" wherever a name appears."""

    is_guest = models.BooleanField(default=False)
    # A BOT account: a program playing through the bot API (games/api), for good.
    is_bot = models.BooleanField(default=False)
    # The language the site speaks to this player (a code of settings.LANGUAGES), chosen
    # in the footer; blank: the browser's (ginsite/i18n.py).
    language = models.CharField(max_length=10, blank=True, default="")

    @property
    def display_name(self) -> str:
        if not self.is_active and self.username.startswith("deleted-"):
            return gettext("deleted player")
        return f"BOT {self.username}" if self.is_bot else self.username


class Profile(models.Model):
    """A player's table settings (one row per user, created on first use): how the
    cards and the table look, move and sound, how the hand is sorted, and how a discard
    is made. accounts/display.py turns them into the attributes of every page's <html>
    (and back, for a guest's browser settings carried over on sign-up)."""

    class CardStyle(models.TextChoices):
        CLASSIC = "classic", _("Classic")
        LARGE = "large", _("Large indices")
        MINIMAL = "minimal", _("Minimal")

    class CardSize(models.TextChoices):
        SMALL = "small", _("Small")
        MEDIUM = "medium", _("Medium")
        LARGE = "large", _("Large")
        HUGE = "huge", _("Extra large")

    class CardBack(models.TextChoices):
        RED = "red", _("Red lattice")
        BLUE = "blue", _("Blue lattice")
        GREEN = "green", _("Green plain")

    class Theme(models.TextChoices):
        GREEN = "green", _("Green felt")
        BLUE = "blue", _("Blue felt")
        WINE = "wine", _("Burgundy felt")
        CONTRAST = "contrast", _("High contrast")

    class Motion(models.TextChoices):
        AUTO = "auto", _("As my device asks")
        NORMAL = "normal", _("Normal")
        FAST = "fast", _("Fast")
        NONE = "none", _("None")

    class HandSort(models.TextChoices):
        MELDS = "melds", _("By melds")
        RANK = "rank", _("By rank")
        SUIT = "suit", _("By suit")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    card_style = models.CharField(
        max_length=16, choices=CardStyle.choices, default=CardStyle.CLASSIC
    )
    card_size = models.CharField(max_length=8, choices=CardSize.choices, default=CardSize.MEDIUM)
    four_colour_deck = models.BooleanField(default=True)
    card_back = models.CharField(max_length=8, choices=CardBack.choices, default=CardBack.RED)
    theme = models.CharField(max_length=8, choices=Theme.choices, default=Theme.GREEN)
    motion = models.CharField(max_length=8, choices=Motion.choices, default=Motion.AUTO)
    sound_on = models.BooleanField(default=True)
    volume = models.PositiveSmallIntegerField(
        default=70, validators=[MinValueValidator(0), MaxValueValidator(100)]
    )
    hand_sort = models.CharField(max_length=8, choices=HandSort.choices, default=HandSort.MELDS)
    left_handed = models.BooleanField(default=False)
    confirm_discard = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Profile of {self.user.username}"


class Mute(models.Model):
    """The user may play but not chat until ``until`` (unless lifted earlier)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    until = models.DateTimeField()
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "until"])]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Mute of {self.user.username} until {self.until:%Y-%m-%d %H:%M} UTC"

    @property
    def is_active(self) -> bool:
        return self.lifted_at is None and self.until > timezone.now()


class Ban(models.Model):
    """The user cannot log in or play (``User.is_active`` is off while a ban is in force)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bans"
    )
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        state = "lifted" if self.lifted_at else "in force"
        return f"Ban of {self.user.username} ({state})"


class Warning(models.Model):
    """A formal warning, shown to the user on their settings page and live in chat."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="warnings"
    )
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Warning to {self.user.username}: {self.reason}"


class ModerationAction(models.Model):
    """Audit log: who did what to whom, when and why. Written only by the services in
    accounts/services.py; read-only everywhere else."""

    class Kind(models.TextChoices):
        DISMISS_REPORT = "dismiss_report", "Dismissed a report"
        HIDE_MESSAGE = "hide_message", "Hid a chat message"
        WARN = "warn", "Warned"
        MUTE = "mute", "Muted"
        UNMUTE = "unmute", "Lifted a mute"
        BAN = "ban", "Banned"
        UNBAN = "unban", "Lifted a ban"
        DELETE_ACCOUNT = "delete_account", "Deleted the account"
        # Fair play's decisions on a case (games/fairplay/services.py); its warnings and
        # closed accounts are WARN and BAN.
        FAIRPLAY_DISMISS = "fairplay_dismiss", "Dismissed a fair-play case"
        BOARD_REMOVE = "board_remove", "Removed from the boards"
        MATCHES_VOID = "matches_void", "Voided farmed matches"

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions_done",
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_actions_received",
    )
    reason = models.CharField(max_length=300, blank=True)
    # Free-form facts: message id and text, report id, mute end...
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        # Rows are written by the services only: the admin may view, never add or edit.
        default_permissions = ("view",)
        permissions = [("moderate", "Can moderate chat and users")]

    def __str__(self) -> str:
        actor = self.actor.username if self.actor else "system"
        target = self.target_user.username if self.target_user else "-"
        return f"{self.created_at:%Y-%m-%d %H:%M} {actor}: {self.get_kind_display()} {target}"
