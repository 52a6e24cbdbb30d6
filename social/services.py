"""Writes of the social side: follows (two players who follow each other are friends;
a block between them refuses a follow), the player's social settings, notifications
(stored, sent live to the player's open pages after commit, and e-mailed off the
request path when the player is away) and the signed one-click unsubscribe, and the
online mark the notification socket keeps.

Sending: every notification goes to the group ``notify.<user id>`` (each open page's
notification socket, social/consumers.py) after the transaction commits, through the
site's one publisher (ginsite/runtime.py). An e-mail-able kind (``EMAIL_KINDS``) is
handed to the ``social.email_send`` task, which sends it if the player is still away,
still wants that kind, and had none of that kind in the last hour (``EMAIL_EVERY``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import User
from games.chat.selectors import blocked_between
from ginsite import runtime
from ginsite.errors import AppError

from . import selectors, texts
from .models import EmailSent, Follow, Notification, SocialSettings

#: The kinds of notification also e-mailed to a player who is away, and the setting
#: that switches each.
EMAIL_KINDS: dict[str, str] = {
    "challenge": "email_challenge",
    "turn": "email_turn",
    "tournament": "email_tournament",
}
#: At most one e-mail of each kind per player in this time.
EMAIL_EVERY = timedelta(hours=1)
UNSUBSCRIBE_SALT = "social.unsubscribe"


class SocialError(AppError):
    """A follow or setting refused; nothing changed."""

    status = 400
    codes: ClassVar[tuple[str, ...]] = ("follow_refused",)


def notify_group(user_id: int) -> str:
    return f"notify.{user_id}"


# --- follows ---------------------------------------------------------------------------


def follow_create(*, user: User, followee: User) -> Follow:
    """``user`` follows ``followee``: refused for guests, oneself, a guest or closed
    account, and between two players one of whom blocked the other. The followee is
    told (``follow``, or ``friend`` when it makes them friends)."""
    if user.is_guest or not user.is_active:
        raise SocialError("follow_refused", gettext("Sign up to follow players."))
    if followee.pk == user.pk:
        raise SocialError("follow_refused", gettext("You cannot follow yourself."))
    if not followee.is_active or followee.is_guest:
        raise SocialError("follow_refused", gettext("There is no such player."))
    if blocked_between(user, followee):
        raise SocialError("follow_refused", gettext("You cannot follow this player."))
    with transaction.atomic():
        follow, created = Follow.objects.get_or_create(follower=user, followee=followee)
        if created:
            mutual = Follow.objects.filter(follower=followee, followee=user).exists()
            notification_create(
                user=followee, kind="friend" if mutual else "follow",
                params={"name": user.display_name},
                url=reverse("accounts:profile", args=[user.username]),
            )
    return follow


def follow_delete(*, user: User, followee: User) -> int:
    """``user`` stops following ``followee`` (nothing if they did not)."""
    deleted, _ = Follow.objects.filter(follower=user, followee=followee).delete()
    return deleted


# --- settings ---------------------------------------------------------------------------


def settings_update(*, user: User, **values: bool) -> SocialSettings:
    """Change the player's social settings (``online_private``, ``email_challenge``,
    ``email_turn``, ``email_tournament``)."""
    if user.is_guest:
        raise SocialError("follow_refused", gettext("Sign up to change these settings."))
    known = {"online_private", *EMAIL_KINDS.values()}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"unknown settings {sorted(unknown)}")
    row, _ = SocialSettings.objects.update_or_create(user=user, defaults=values)
    return row


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the e-mails of one kind for the player a signed link names (no sign-in
    needed: the signature is the proof). Refuses a link whose signature is wrong."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        user_id, kind = int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError) as error:
        raise AppError(gettext("This unsubscribe link is not valid."), code="not_found") from error
    user = User.objects.filter(pk=user_id).first()
    if user is None or kind not in EMAIL_KINDS:
        raise AppError(gettext("This unsubscribe link is not valid."), code="not_found")
    SocialSettings.objects.update_or_create(user=user, defaults={EMAIL_KINDS[kind]: False})
    return user, kind


# --- notifications -----------------------------------------------------------------------


def notification_frame(notification: Notification) -> dict[str, Any]:
    """A notification as the socket sends it (its text written in the page's language
    by the consumer: ``texts.notification_text``)."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "params": notification.params,
        "url": reverse("social:notification_open", args=[notification.pk]),
        "created_at": notification.created_at.isoformat(),
    }


def notification_create(
    *, user: User, kind: str, params: dict[str, Any], url: str
) -> Notification | None:
    """Tell ``user`` something: stored, sent to their open pages after commit, and for
    an e-mail-able kind handed to the e-mail task. Guests, BOT and closed accounts get
    none (None)."""
    if user.is_guest or user.is_bot or not user.is_active:
        return None
    with transaction.atomic():
        notification = Notification.objects.create(user=user, kind=kind, params=params, url=url)
        unread = selectors.unread_count(user=user)
        frame = {"type": "notify.new", "notification": notification_frame(notification),
                 "unread": unread}
        _send_on_commit(user.pk, frame)
        if kind in EMAIL_KINDS:
            transaction.on_commit(
                lambda: runtime.scheduler().run_in_background(
                    "social.email_send", {"notification_id": notification.pk}
                ),
                robust=True,
            )
    return notification


def notification_open(*, user: User, notification_id: int) -> Notification:
    """The player opens one of their notifications: marked read (once); the open pages'
    bells count one fewer."""
    notification = selectors.notification_get(user=user, notification_id=notification_id)
    if notification is None:
        raise AppError(gettext("There is no such notification."), code="not_found")
    if notification.read_at is None:
        with transaction.atomic():
            marked = Notification.objects.filter(
                pk=notification.pk, read_at__isnull=True
            ).update(read_at=timezone.now())
            if marked:
                _send_on_commit(user.pk, {"type": "notify.unread",
                                          "unread": selectors.unread_count(user=user)})
    return notification


def notifications_read_all(*, user: User) -> int:
    with transaction.atomic():
        marked = Notification.objects.filter(user=user, read_at__isnull=True).update(
            read_at=timezone.now()
        )
        _send_on_commit(user.pk, {"type": "notify.unread", "unread": 0})
    return marked


def _send_on_commit(user_id: int, event: dict[str, Any]) -> None:
    group = notify_group(user_id)
    transaction.on_commit(lambda: runtime.publisher().send([(group, event)]), robust=True)


# --- e-mail ---------------------------------------------------------------------------------


def email_send(*, notification_id: int) -> bool:
    """Send the e-mail of a notification (the ``social.email_send`` task), if the player
    is away, wants that kind, has an address, and had no e-mail of that kind in the last
    ``EMAIL_EVERY``. Returns whether it was sent."""
    notification = (
        Notification.objects.select_related("user").filter(pk=notification_id).first()
    )
    if notification is None or notification.kind not in EMAIL_KINDS:
        return False
    user, kind = notification.user, notification.kind
    wants = getattr(selectors.settings_get(user=user), EMAIL_KINDS[kind])
    if not wants or not user.email or not user.is_active or notification.read_at is not None:
        return False
    if selectors.is_online(user_id=user.pk):
        return False
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        now = timezone.now()
        if EmailSent.objects.filter(user=user, kind=kind, sent_at__gt=now - EMAIL_EVERY).exists():
            return False
        EmailSent.objects.create(user=user, kind=kind, sent_at=now)
        link = settings.SITE_URL + reverse(
            "social:unsubscribe", args=[unsubscribe_token(user_id=user.pk, kind=kind)]
        )
        with translation.override(getattr(user, "language", "") or settings.LANGUAGE_CODE):
            text = texts.notification_text(kind, notification.params)
            body = "\n\n".join([
                text,
                gettext("Open it: %(url)s") % {"url": settings.SITE_URL + notification.url},
                gettext("You get this e-mail because you were away. "
                        "Stop e-mails about %(what)s with one click: %(link)s")
                % {"what": texts.email_kind_label(kind), "link": link},
            ])
            message = EmailMessage(
                subject=text, body=body, to=[user.email],
                headers={"List-Unsubscribe": f"<{link}>",
                         "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
            )
        transaction.on_commit(message.send)
    return True


# --- presence ---------------------------------------------------------------------------------


def presence_open(*, user_id: int) -> None:
    """A page's notification socket opened: the player counts as online (one more open
    page) for ``SOCIAL_ONLINE_SECONDS`` unless renewed."""
    key = selectors.online_key(user_id)
    cache.add(key, 0, selectors.online_seconds())
    try:
        cache.incr(key)
    except ValueError:  # expired in between
        cache.set(key, 1, selectors.online_seconds())
    cache.touch(key, selectors.online_seconds())


def presence_renew(*, user_id: int) -> None:
    key = selectors.online_key(user_id)
    if not cache.touch(key, selectors.online_seconds()):
        cache.set(key, 1, selectors.online_seconds())


def presence_close(*, user_id: int) -> None:
    """A page's notification socket closed: one open page fewer; none left, offline."""
    key = selectors.online_key(user_id)
    try:
        left = cache.decr(key)
    except ValueError:
        return
    if left <= 0:
        cache.delete(key)


# --- tournaments about to start -------------------------------------------------------------

#: Entrants are told this long before their tournament starts.
TOURNAMENT_NOTICE = timedelta(minutes=5)


def tournament_reminders_send(*, now: datetime | None = None) -> int:
    """The ``social.tournament_reminders`` beat job (every minute): each active entrant of
    a tournament that starts within ``TOURNAMENT_NOTICE`` is told once. Returns how many
    were told."""
    now = now or timezone.now()
    told = 0
    for tournament_id, name, user in selectors.tournament_entrants_to_remind(
        now=now, within=TOURNAMENT_NOTICE
    ):
        created = notification_create(
            user=user, kind="tournament", params={"name": name, "tournament_id": tournament_id},
            url=reverse("tournaments:detail", args=[tournament_id]),
        )
        told += created is not None
    return told


# --- keeping the tables small -----------------------------------------------------------------

#: Read notifications are kept this long; e-mail records as long as the hourly limit needs.
NOTIFICATIONS_KEPT = timedelta(days=90)


def notifications_prune(*, now: datetime | None = None) -> int:
    """Part of beat's ``social.tournament_reminders`` run, once an hour at most: delete
    the notifications read more than ``NOTIFICATIONS_KEPT`` ago and the records of
    e-mails older than ``EMAIL_EVERY``. Returns how many notifications went."""
    now = now or timezone.now()
    deleted, _ = Notification.objects.filter(read_at__lt=now - NOTIFICATIONS_KEPT).delete()
    EmailSent.objects.filter(sent_at__lt=now - EMAIL_EVERY).delete()
    return deleted
