"""Account writes: table settings, account deletion, and every moderation action
(dismiss a report, hide a message, warn, mute, ban and their reversals).

Every moderation action has one shape (``ModerationStep``): check that the actor
may moderate and that the action may be done, do it, resolve the report it came
from, record one ModerationAction row (who, what, when, why), and tell the affected
sockets after commit (games/chat/broadcast.py). A ban and an account's deletion take
the player out of play by publishing ``PlayerBanned`` or ``AccountClosed``
(games/events.py), which the games app hears; accounts imports none of its services."""

from datetime import timedelta
from typing import Any, Generic, TypeVar

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.models import Session
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import events
from games.chat import broadcast
from games.chat.models import ChatMessage, ChatReport, UserBlock
from games.chat.services import mute_message
from games.models import Match
from ginsite.errors import AppError

from . import display, selectors
from .models import Ban, ModerationAction, Mute, Profile, User, Warning

R = TypeVar("R")
MODERATE_PERMISSION = "accounts.moderate"
MODERATORS_GROUP = "Moderators"
MAX_MUTE = timedelta(days=365)

# What the Moderators group may do in the admin: act on reports and users through the
# moderation actions, edit the word filter, and read everything else (no raw edits of
# users, mutes or bans, so every change goes through the audited services).
MODERATOR_PERMISSIONS = [
    ("accounts", "moderate"),
    ("accounts", "view_user"),
    ("accounts", "view_mute"),
    ("accounts", "view_ban"),
    ("accounts", "view_warning"),
    ("accounts", "view_moderationaction"),
    ("chat", "view_chatmessage"),
    ("chat", "view_chatreport"),
    ("chat", "change_chatreport"),
    ("chat", "view_userblock"),
    ("chat", "view_wordfilter"),
    ("chat", "add_wordfilter"),
    ("chat", "change_wordfilter"),
    ("chat", "delete_wordfilter"),
]


class AccountError(AppError):
    """A refused account or moderation request, with a sentence for people; nothing
    changed."""

    status = 400
    code = "account_refused"


def moderators_group_ensure() -> Group:
    """Create or complete the Moderators group (idempotent; run after migrations)."""
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    wanted = Q()
    for app_label, codename in MODERATOR_PERMISSIONS:
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.add(*Permission.objects.filter(wanted))
    return group


def _require_moderator(staff: User) -> None:
    if not (staff.is_active and staff.is_staff and staff.has_perm(MODERATE_PERMISSION)):
        raise PermissionDenied(_("Only moderators may do this."))


def _require_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise AccountError(_("Give a reason: it is shown to the player and kept in the log."))
    if len(reason) > 300:
        raise AccountError(_("Keep the reason under 300 characters."))
    return reason


def _audit(
    *,
    actor: User | None,
    kind: str,
    target: User | None,
    reason: str,
    details: dict[str, Any] | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        actor=actor, kind=kind, target_user=target, reason=reason, details=details or {}
    )


def _resolve_reports(
    *, report: ChatReport | None, staff: User, status: str, resolution: str
) -> dict[str, Any]:
    """Close ``report`` and the other open reports on the same message."""
    if report is None:
        return {}
    ChatReport.objects.filter(message_id=report.message_id, status=ChatReport.Status.OPEN).update(
        status=status, resolved_by=staff, resolved_at=timezone.now(), resolution=resolution
    )
    return {"report": report.pk, "message": report.message_id}


def _delete_sessions(user: User) -> int:
    """Delete every database session logged in as ``user``; returns how many."""
    ids = [
        s.session_key
        for s in Session.objects.filter(expire_date__gt=timezone.now())
        if s.get_decoded().get("_auth_user_id") == str(user.pk)
    ]
    Session.objects.filter(session_key__in=ids).delete()
    return len(ids)


def _leave_play(user: User, event: events.PlayerBanned | events.AccountClosed) -> list[int]:
    """Publish ``event`` in this transaction: the games app takes the user out of play
    (games/hooks.py: out of the quick-match queue, every match in progress ended, the
    opponent winning: a forfeit for a banned account, a resignation for one its player
    deletes). Returns the ids of the matches so ended."""
    playing = selectors.matches_in_play(user=user)
    events.publish(event)
    banned = isinstance(event, events.PlayerBanned)
    reason = Match.EndReason.SUSPENDED if banned else Match.EndReason.RESIGN
    return selectors.matches_lost_for(user=user, among=playing, reason=reason)


# --- One shape for every moderation action ------------------------------------------


class ModerationStep(Generic[R]):
    """One moderation action, in one shape (as Wagtail's actions): ``check`` (may it
    be done: raises AccountError or PermissionDenied, nothing changed), then in one
    transaction ``do`` (the change), the report it came from resolved, one
    ModerationAction row recorded, and ``notify`` (the affected sockets, after commit).

    A subclass names its ``kind`` and ``resolution`` (how a report it settles reads)
    and writes ``do``; ``check`` and ``notify`` when it has them."""

    kind: str
    resolution = "{reason}"
    report_status = ChatReport.Status.ACTIONED
    moderator_only = True

    def __init__(
        self, *, staff: User, target: User, reason: str, report: ChatReport | None = None
    ) -> None:
        self.staff, self.target, self.reason, self.report = staff, target, reason, report

    def clean_reason(self, reason: str) -> str:
        return _require_reason(reason)

    def check(self) -> None:
        """Refuse before anything changes."""

    def do(self) -> tuple[R, dict[str, Any]]:
        """Make the change; returns the result and what the audit row adds to it."""
        raise NotImplementedError

    def resolution_text(self, result: R) -> str:
        return self.resolution.format(reason=self.reason)

    def notify(self, result: R) -> None:
        """Tell the affected player's sockets (after commit)."""

    def execute(self) -> R:
        if self.moderator_only:
            _require_moderator(self.staff)
        self.reason = self.clean_reason(self.reason)
        self.check()
        with transaction.atomic():
            result, details = self.do()
            resolved = _resolve_reports(
                report=self.report,
                staff=self.staff,
                status=self.report_status,
                resolution=self.resolution_text(result),
            )
            _audit(
                actor=self.staff,
                kind=self.kind,
                target=self.target,
                reason=self.reason,
                details={**resolved, **details},
            )
            self.notify(result)
        return result


# --- Reports and messages ------------------------------------------------------


class _Dismiss(ModerationStep[ChatReport]):
    kind = ModerationAction.Kind.DISMISS_REPORT
    report_status = ChatReport.Status.DISMISSED

    def clean_reason(self, reason: str) -> str:
        return " ".join((reason or "").split()) or "No breach of the etiquette."

    def do(self) -> tuple[ChatReport, dict[str, Any]]:
        assert self.report is not None
        return self.report, {}


def report_dismiss(*, staff: User, report: ChatReport, reason: str = "") -> ChatReport:
    """Close a report with no action against the author."""
    _Dismiss(staff=staff, target=report.message.author, reason=reason, report=report).execute()
    report.refresh_from_db()
    return report


class _Hide(ModerationStep[ChatMessage]):
    kind = ModerationAction.Kind.HIDE_MESSAGE
    resolution = "Message hidden: {reason}"

    def __init__(
        self, *, staff: User, message: ChatMessage, reason: str, report: ChatReport | None
    ) -> None:
        super().__init__(staff=staff, target=message.author, reason=reason, report=report)
        self.message = message

    def do(self) -> tuple[ChatMessage, dict[str, Any]]:
        ChatMessage.objects.filter(pk=self.message.pk).update(hidden=True)
        return self.message, {"message": self.message.pk, "text": self.message.original_text}

    def notify(self, result: ChatMessage) -> None:
        broadcast.chat_message_hidden(
            match_id=self.message.match_id, tournament_id=self.message.tournament_id,
            message_id=self.message.pk,
        )


def message_hide(
    *, staff: User, message: ChatMessage, reason: str, report: ChatReport | None = None
) -> ChatMessage:
    """Hide a message from everyone (it disappears from open chat panels at once)."""
    _Hide(staff=staff, message=message, reason=reason, report=report).execute()
    message.hidden = True
    return message


# --- Users -----------------------------------------------------------------------


class _Warn(ModerationStep[Warning]):
    kind = ModerationAction.Kind.WARN
    resolution = "Author warned: {reason}"

    def do(self) -> tuple[Warning, dict[str, Any]]:
        warning = Warning.objects.create(
            user=self.target, reason=self.reason, created_by=self.staff
        )
        events.publish(events.PlayerModerated(
            user_id=self.target.pk, action="warn", reason=self.reason
        ))
        return warning, {}

    def notify(self, result: Warning) -> None:
        with translation.override(self.target.language or settings.LANGUAGE_CODE):
            text = _("A moderator warned you. Reason: %(reason)s") % {"reason": self.reason}
        broadcast.user_notice(user_id=self.target.pk, code="warning", text=text)


def user_warn(*, staff: User, user: User, reason: str, report: ChatReport | None = None) -> Warning:
    return _Warn(staff=staff, target=user, reason=reason, report=report).execute()


class _Mute(ModerationStep[Mute]):
    kind = ModerationAction.Kind.MUTE

    def __init__(
        self, *, staff: User, target: User, duration: timedelta, reason: str,
        report: ChatReport | None,
    ) -> None:
        super().__init__(staff=staff, target=target, reason=reason, report=report)
        self.duration = duration

    def check(self) -> None:
        if not timedelta(0) < self.duration <= MAX_MUTE:
            raise AccountError(_("A mute lasts from a minute up to a year."))

    def do(self) -> tuple[Mute, dict[str, Any]]:
        until = timezone.now() + self.duration
        mute = Mute.objects.create(
            user=self.target, until=until, reason=self.reason, created_by=self.staff
        )
        events.publish(events.PlayerModerated(
            user_id=self.target.pk, action="mute", reason=self.reason, until=until
        ))
        return mute, {"until": until.isoformat(), "minutes": self.duration // timedelta(minutes=1)}

    def resolution_text(self, result: Mute) -> str:
        return f"Author muted until {result.until:%Y-%m-%d %H:%M} UTC: {self.reason}"

    def notify(self, result: Mute) -> None:
        with translation.override(self.target.language or settings.LANGUAGE_CODE):
            text = mute_message(until=result.until, reason=self.reason)
        broadcast.user_notice(user_id=self.target.pk, code="muted", text=text)


def user_mute(
    *,
    staff: User,
    user: User,
    duration: timedelta,
    reason: str,
    report: ChatReport | None = None,
) -> Mute:
    """Stop ``user`` chatting for ``duration`` (they can still play)."""
    return _Mute(
        staff=staff, target=user, duration=duration, reason=reason, report=report
    ).execute()


class _Unmute(ModerationStep[int]):
    kind = ModerationAction.Kind.UNMUTE

    def do(self) -> tuple[int, dict[str, Any]]:
        now = timezone.now()
        lifted = Mute.objects.filter(
            user=self.target, lifted_at__isnull=True, until__gt=now
        ).update(lifted_at=now)
        if not lifted:
            raise AccountError(f"{self.target.username} is not muted.")
        return lifted, {}

    def notify(self, result: int) -> None:
        with translation.override(self.target.language or settings.LANGUAGE_CODE):
            text = _("You can chat again.")
        broadcast.user_notice(user_id=self.target.pk, code="unmuted", text=text)


def user_unmute(*, staff: User, user: User, reason: str) -> int:
    """Lift every mute in force; returns how many were lifted."""
    return _Unmute(staff=staff, target=user, reason=reason).execute()


class _Ban(ModerationStep[Ban]):
    kind = ModerationAction.Kind.BAN
    resolution = "Author banned: {reason}"

    def check(self) -> None:
        if self.target.pk == self.staff.pk:
            raise AccountError(_("You cannot ban yourself."))
        if self.target.is_staff or self.target.is_superuser:
            raise AccountError(
                _("Remove the staff status first: staff accounts are not banned here.")
            )

    def do(self) -> tuple[Ban, dict[str, Any]]:
        locked = User.objects.select_for_update().get(pk=self.target.pk)
        if Ban.objects.filter(user=locked, lifted_at__isnull=True).exists():
            raise AccountError(f"{locked.username} is already banned.")
        locked.is_active = False
        locked.save(update_fields=["is_active"])
        ban = Ban.objects.create(user=locked, reason=self.reason, created_by=self.staff)
        forfeited = _leave_play(locked, events.PlayerBanned(
            user_id=locked.pk, reason=self.reason, banned_by_id=self.staff.pk,
        ))
        sessions = _delete_sessions(locked)
        return ban, {"forfeited_matches": forfeited, "sessions_ended": sessions}

    def notify(self, result: Ban) -> None:
        broadcast.user_logout(
            user_id=self.target.pk, reason=f"Your account has been suspended. Reason: {self.reason}"
        )


def user_ban(*, staff: User, user: User, reason: str, report: ChatReport | None = None) -> Ban:
    """Ban ``user``: they cannot log in or play, their open matches are resigned, their
    sessions are deleted and their open sockets closed at once."""
    ban = _Ban(staff=staff, target=user, reason=reason, report=report).execute()
    user.is_active = False
    return ban


class _Unban(ModerationStep[Ban]):
    kind = ModerationAction.Kind.UNBAN

    def do(self) -> tuple[Ban, dict[str, Any]]:
        ban = (
            Ban.objects.select_for_update()
            .filter(user=self.target, lifted_at__isnull=True)
            .first()
        )
        if ban is None:
            raise AccountError(f"{self.target.username} is not banned.")
        ban.lifted_at = timezone.now()
        ban.save(update_fields=["lifted_at"])
        User.objects.filter(pk=self.target.pk).update(is_active=True)
        return ban, {}


def user_unban(*, staff: User, user: User, reason: str) -> Ban:
    ban = _Unban(staff=staff, target=user, reason=reason).execute()
    user.is_active = True
    return ban


# --- The player's own account ------------------------------------------------------


def profile_update(*, user: User, **settings: Any) -> Profile:
    """Save the table settings given (Profile fields: accounts/display.py lists them);
    those not given keep their value. Refuses an unknown setting or value, saving none."""
    profile = selectors.profile_get(user=user)
    unknown = set(settings) - set(display.FIELDS)
    if unknown:
        raise AccountError(_("Unknown table setting: %(name)s.") % {"name": min(unknown)})
    for name, value in settings.items():
        setattr(profile, name, value)
    try:
        profile.full_clean(exclude=["user"], validate_unique=False)
    except ValidationError as error:
        raise AccountError(
            _("That is not a value of the table setting %(name)s.")
            % {"name": min(error.message_dict)}
        ) from error
    saved, _created = Profile.objects.update_or_create(
        user=user, defaults={name: getattr(profile, name) for name in display.FIELDS}
    )
    return saved


def profile_adopt_browser_settings(*, user: User, attributes: object) -> Profile | None:
    """A guest signing up keeps the table settings their browser kept (the <html>
    attributes of accounts/display.py, as games/static/games/prefs.js stored them);
    the invalid ones are dropped. None when the browser sent none."""
    if not isinstance(attributes, dict):
        return None
    fields = display.fields_from_attributes(attributes)
    return profile_update(user=user, **fields) if fields else None


def user_language_set(*, user: User, language: str) -> User:
    """Save the language the site speaks to ``user`` (a code of settings.LANGUAGES;
    blank: the browser's)."""
    if language and language not in dict(settings.LANGUAGES):
        raise AccountError(_("The site does not speak that language."))
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language
    return user


def account_delete(*, user: User) -> None:
    """Delete a player's account: personal data goes, the username becomes
    ``deleted-<id>`` (shown as "deleted player"), matches and their scores stay."""
    if user.is_staff or user.is_superuser:
        raise AccountError(_("Staff accounts are deleted by an administrator."))
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        resigned = _leave_play(locked, events.AccountClosed(user_id=locked.pk))
        _delete_sessions(locked)
        EmailAddress.objects.filter(user=locked).delete()
        Profile.objects.filter(user=locked).delete()
        UserBlock.objects.filter(blocker=locked).delete()
        UserBlock.objects.filter(blocked=locked).delete()
        locked.username = f"deleted-{locked.pk}"
        locked.email = ""
        locked.first_name = ""
        locked.last_name = ""
        locked.is_active = False
        locked.set_unusable_password()
        locked.save()
        _audit(
            actor=locked,
            kind=ModerationAction.Kind.DELETE_ACCOUNT,
            target=locked,
            reason="Deleted by the player.",
            details={"resigned_matches": resigned},
        )
        broadcast.user_logout(user_id=locked.pk, reason="This account has been deleted.")


# --- The report queue ---------------------------------------------------------------

MUTE_DURATIONS = {
    "15m": timedelta(minutes=15),
    "1h": timedelta(hours=1),
    "24h": timedelta(hours=24),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
}
REPORT_ACTIONS = ("dismiss", "hide", "warn", "mute", "ban")


def report_resolve(
    *,
    staff: User,
    report: ChatReport,
    action: str,
    reason: str,
    duration: str | None = None,
    also_hide: bool = False,
) -> str:
    """Resolve a report with one action on its message's author (optionally hiding the
    message too); returns a sentence saying what was done."""
    _require_moderator(staff)
    if action not in REPORT_ACTIONS:
        raise AccountError(f"Unknown action {action!r}.")
    if report.status != ChatReport.Status.OPEN:
        raise AccountError(f"Report {report.pk} is already resolved.")
    message = report.message
    author = message.author
    with transaction.atomic():
        if action == "dismiss":
            report_dismiss(staff=staff, report=report, reason=reason)
            return f"Report {report.pk} dismissed."
        if action == "hide":
            message_hide(staff=staff, message=message, reason=reason, report=report)
            return f"Message {message.pk} hidden."
        if action == "warn":
            user_warn(staff=staff, user=author, reason=reason, report=report)
            done = f"{author.username} warned"
        elif action == "mute":
            if duration not in MUTE_DURATIONS:
                raise AccountError(_("Choose how long the mute lasts."))
            mute = user_mute(
                staff=staff,
                user=author,
                duration=MUTE_DURATIONS[duration],
                reason=reason,
                report=report,
            )
            done = f"{author.username} muted until {mute.until:%Y-%m-%d %H:%M} UTC"
        else:
            user_ban(staff=staff, user=author, reason=reason, report=report)
            done = f"{author.username} banned"
        if also_hide and not message.hidden:
            message_hide(staff=staff, message=message, reason=reason, report=report)
            done += " and the message hidden"
    return done + "."
