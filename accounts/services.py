"""Account writes: display preferences, account deletion, and every moderation action
(dismiss a report, hide a message, warn, mute, ban and their reversals).

Each moderation action checks that the actor may moderate, records one
ModerationAction row (who, what, when, why), resolves the report it came from, and
tells the affected sockets after commit (games/chat/broadcast.py)."""

from datetime import timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.models import Session
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.chat import broadcast
from games.chat.models import ChatMessage, ChatReport, UserBlock
from games.chat.services import mute_message
from games.models import Match
from games.services import ServiceError, match_forfeit, quickmatch_cancel

from .models import Ban, ModerationAction, Mute, Profile, User, Warning

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


class AccountError(Exception):
    """A refused account or moderation request, with a sentence for people; nothing
    changed."""


def moderators_group_ensure() -> Group:
    """Create or complete the Moderators group (idempotent; run after migrations)."""
    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    wanted = Q()
    for app_label, codename in MODERATOR_PERMISSIONS:
        wanted |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.add(*Permission.objects.filter(wanted))
    return group


def _require_moderator(staff: User) -> None:
    if not (staff.is_active and staff.is_staff and staff.has_perm(MODERATE_PERMISSION)):
        raise PermissionDenied("Only moderators may do this.")


def _require_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise AccountError("Give a reason: it is shown to the player and kept in the log.")
    if len(reason) > 300:
        raise AccountError("Keep the reason under 300 characters.")
    return reason


def _audit(
    *,
    actor: User | None,
    kind: str,
    target: User | None,
    reason: str,
    details: dict | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        actor=actor, kind=kind, target_user=target, reason=reason, details=details or {}
    )


def _resolve_reports(
    *, report: ChatReport | None, staff: User, status: str, resolution: str
) -> dict:
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


def _leave_play(user: User, *, suspended: bool = False) -> list[int]:
    """Take the user out of play: leave the quick-match queue and end every match in
    progress (the opponent wins): a forfeit for a suspended account, a resignation
    for one its player deletes. Returns the ids of the matches ended."""
    quickmatch_cancel(user=user)
    reason = Match.EndReason.SUSPENDED if suspended else Match.EndReason.RESIGN
    ended = []
    for match in Match.objects.filter(seats__user=user, status=Match.Status.ACTIVE).distinct():
        try:
            match_forfeit(match=match, user=user, reason=reason)
        except ServiceError:
            continue  # it ended meanwhile
        ended.append(match.pk)
    return ended


# --- Reports and messages ------------------------------------------------------


def report_dismiss(*, staff: User, report: ChatReport, reason: str = "") -> ChatReport:
    """Close a report with no action against the author."""
    _require_moderator(staff)
    reason = " ".join((reason or "").split()) or "No breach of the etiquette."
    with transaction.atomic():
        details = _resolve_reports(
            report=report, staff=staff, status=ChatReport.Status.DISMISSED, resolution=reason
        )
        _audit(
            actor=staff,
            kind=ModerationAction.Kind.DISMISS_REPORT,
            target=report.message.author,
            reason=reason,
            details=details,
        )
    report.refresh_from_db()
    return report


def message_hide(
    *, staff: User, message: ChatMessage, reason: str, report: ChatReport | None = None
) -> ChatMessage:
    """Hide a message from everyone (it disappears from open chat panels at once)."""
    _require_moderator(staff)
    reason = _require_reason(reason)
    with transaction.atomic():
        ChatMessage.objects.filter(pk=message.pk).update(hidden=True)
        details = _resolve_reports(
            report=report,
            staff=staff,
            status=ChatReport.Status.ACTIONED,
            resolution=f"Message hidden: {reason}",
        )
        _audit(
            actor=staff,
            kind=ModerationAction.Kind.HIDE_MESSAGE,
            target=message.author,
            reason=reason,
            details={**details, "message": message.pk, "text": message.original_text},
        )
        broadcast.chat_message_hidden(
            match_id=message.match_id, tournament_id=message.tournament_id, message_id=message.pk
        )
    message.hidden = True
    return message


# --- Users -----------------------------------------------------------------------


def user_warn(*, staff: User, user: User, reason: str, report: ChatReport | None = None) -> Warning:
    _require_moderator(staff)
    reason = _require_reason(reason)
    with transaction.atomic():
        warning = Warning.objects.create(user=user, reason=reason, created_by=staff)
        details = _resolve_reports(
            report=report,
            staff=staff,
            status=ChatReport.Status.ACTIONED,
            resolution=f"Author warned: {reason}",
        )
        _audit(
            actor=staff,
            kind=ModerationAction.Kind.WARN,
            target=user,
            reason=reason,
            details=details,
        )
        broadcast.user_notice(
            user_id=user.pk, code="warning", text=f"A moderator warned you. Reason: {reason}"
        )
    return warning


def user_mute(
    *,
    staff: User,
    user: User,
    duration: timedelta,
    reason: str,
    report: ChatReport | None = None,
) -> Mute:
    """Stop ``user`` chatting for ``duration`` (they can still play)."""
    _require_moderator(staff)
    reason = _require_reason(reason)
    if not timedelta(0) < duration <= MAX_MUTE:
        raise AccountError("A mute lasts from a minute up to a year.")
    until = timezone.now() + duration
    with transaction.atomic():
        mute = Mute.objects.create(user=user, until=until, reason=reason, created_by=staff)
        details = _resolve_reports(
            report=report,
            staff=staff,
            status=ChatReport.Status.ACTIONED,
            resolution=f"Author muted until {until:%Y-%m-%d %H:%M} UTC: {reason}",
        )
        _audit(
            actor=staff,
            kind=ModerationAction.Kind.MUTE,
            target=user,
            reason=reason,
            details={
                **details,
                "until": until.isoformat(),
                "minutes": duration // timedelta(minutes=1),
            },
        )
        broadcast.user_notice(
            user_id=user.pk, code="muted", text=mute_message(until=until, reason=reason)
        )
    return mute


def user_unmute(*, staff: User, user: User, reason: str) -> int:
    """Lift every mute in force; returns how many were lifted."""
    _require_moderator(staff)
    reason = _require_reason(reason)
    now = timezone.now()
    with transaction.atomic():
        lifted = Mute.objects.filter(user=user, lifted_at__isnull=True, until__gt=now).update(
            lifted_at=now
        )
        if not lifted:
            raise AccountError(f"{user.username} is not muted.")
        _audit(actor=staff, kind=ModerationAction.Kind.UNMUTE, target=user, reason=reason)
        broadcast.user_notice(user_id=user.pk, code="unmuted", text="You can chat again.")
    return lifted


def user_ban(*, staff: User, user: User, reason: str, report: ChatReport | None = None) -> Ban:
    """Ban ``user``: they cannot log in or play, their open matches are resigned, their
    sessions are deleted and their open sockets closed at once."""
    _require_moderator(staff)
    reason = _require_reason(reason)
    if user.pk == staff.pk:
        raise AccountError("You cannot ban yourself.")
    if user.is_staff or user.is_superuser:
        raise AccountError("Remove the staff status first: staff accounts are not banned here.")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if Ban.objects.filter(user=locked, lifted_at__isnull=True).exists():
            raise AccountError(f"{user.username} is already banned.")
        locked.is_active = False
        locked.save(update_fields=["is_active"])
        ban = Ban.objects.create(user=locked, reason=reason, created_by=staff)
        forfeited = _leave_play(locked, suspended=True)
        sessions = _delete_sessions(locked)
        details = _resolve_reports(
            report=report,
            staff=staff,
            status=ChatReport.Status.ACTIONED,
            resolution=f"Author banned: {reason}",
        )
        _audit(
            actor=staff,
            kind=ModerationAction.Kind.BAN,
            target=locked,
            reason=reason,
            details={**details, "forfeited_matches": forfeited, "sessions_ended": sessions},
        )
        broadcast.user_logout(
            user_id=locked.pk, reason=f"Your account has been suspended. Reason: {reason}"
        )
    user.is_active = False
    return ban


def user_unban(*, staff: User, user: User, reason: str) -> Ban:
    _require_moderator(staff)
    reason = _require_reason(reason)
    with transaction.atomic():
        ban = Ban.objects.select_for_update().filter(user=user, lifted_at__isnull=True).first()
        if ban is None:
            raise AccountError(f"{user.username} is not banned.")
        ban.lifted_at = timezone.now()
        ban.save(update_fields=["lifted_at"])
        User.objects.filter(pk=user.pk).update(is_active=True)
        _audit(actor=staff, kind=ModerationAction.Kind.UNBAN, target=user, reason=reason)
    user.is_active = True
    return ban


# --- The player's own account ------------------------------------------------------


def profile_update(
    *, user: User, card_style: str, sound_on: bool, four_colour_deck: bool
) -> Profile:
    if card_style not in Profile.CardStyle.values:
        raise AccountError(f"Unknown card style {card_style!r}.")
    profile, _ = Profile.objects.update_or_create(
        user=user,
        defaults={
            "card_style": card_style,
            "sound_on": sound_on,
            "four_colour_deck": four_colour_deck,
        },
    )
    return profile


def account_delete(*, user: User) -> None:
    """Delete a player's account: personal data goes, the username becomes
    ``deleted-<id>`` (shown as "deleted player"), matches and their scores stay."""
    if user.is_staff or user.is_superuser:
        raise AccountError("Staff accounts are deleted by an administrator.")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        resigned = _leave_play(locked)
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
                raise AccountError("Choose how long the mute lasts.")
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
