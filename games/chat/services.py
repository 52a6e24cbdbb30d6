"""Chat writes: post a message (permission, mute, length, rate limit, word filter),
report a message, block and unblock a user. Every refusal is a ``ChatError`` with a
protocol code and a sentence for the player; a refused call changes nothing."""

import re
import unicodedata
from datetime import timedelta
from typing import ClassVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from accounts.selectors import active_mute
from ginsite.errors import AppError
from ginsite.ratelimit import wait_for

from . import broadcast
from .models import ChatMessage, ChatReport, UserBlock, WordFilter
from .selectors import (
    blocked_user_ids,
    chat_can_read,
    message_to_dict,
    seat_of,
    tournament_chat_writer,
)


class ChatError(AppError):
    """A refused chat request: ``ChatError(code, message)``, an instance of the class
    of this family that declares ``code`` (ginsite/errors.py), with its status: 400 a
    message or report that cannot be taken, 403 someone who may not chat there, 404
    nothing by that name, 429 too fast."""

    code_arg = 0
    status = 400
    codes: ClassVar[tuple[str, ...]] = (
        "bad_message", "bad_json", "chat_empty", "chat_too_long", "bad_reason",
        "comment_too_long", "own_message", "already_reported", "block_self",
    )
    default_message = gettext_lazy("That chat request cannot be done.")


class ChatForbidden(ChatError):
    status = 403
    codes = ("chat_not_allowed", "not_a_player", "muted")


class ChatNotFound(ChatError):
    status = 404
    codes = ("no_such_message", "no_such_player")


class ChatTooFast(ChatError):
    status = 429
    codes = ("rate_limited",)


def mute_message(*, until: object, reason: str) -> str:
    """What a muted player reads, in the active language (the chat socket's, or the
    player's own when a moderator's action tells them: accounts/services.py)."""
    return _("You are muted until %(until)s UTC. Reason: %(reason)s") % {
        "until": f"{until:%Y-%m-%d %H:%M}", "reason": reason,
    }


def _may_chat(user: User) -> None:
    if not user.is_authenticated or not user.is_active:
        raise ChatError("chat_not_allowed", _("Sign in to chat."))
    if user.is_guest:
        raise ChatError("chat_not_allowed", _("Guests cannot chat: sign up to chat."))


def _clean_text(text: object) -> str:
    if not isinstance(text, str):
        raise ChatError("bad_message", _("A chat message needs a text."))
    # One line of printable text: control characters (newlines, escapes) become spaces.
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    return " ".join(text.split())


def word_filter_apply(text: str) -> str:
    """Mask every listed word (whole words, any case) with asterisks of the same length."""
    words = sorted(WordFilter.objects.values_list("word", flat=True), key=len, reverse=True)
    words = [w.strip() for w in words if w.strip()]
    if not words:
        return text
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.IGNORECASE
    )
    return pattern.sub(lambda m: "*" * len(m.group(0)), text)


def _check_rate(user: User) -> None:
    """At most CHAT_RATE_COUNT messages per CHAT_RATE_SECONDS: the player's own recent
    messages are the count (ginsite/ratelimit.py ``wait_for``)."""
    count, seconds = settings.CHAT_RATE_COUNT, settings.CHAT_RATE_SECONDS
    now = timezone.now()
    recent = (
        ChatMessage.objects.filter(author=user, created_at__gt=now - timedelta(seconds=seconds))
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:count]
    )
    wait = wait_for(recent, (count, seconds), now)
    if wait:
        raise ChatError(
            "rate_limited",
            _(
                "You are sending messages too fast: at most %(messages)s every %(seconds)s."
                " Wait %(wait)s s and try again."
            ) % {
                "messages": ngettext("%(n)d message", "%(n)d messages", count) % {"n": count},
                "seconds": ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds},
                "wait": wait,
            },
            headers={"Retry-After": str(wait)},
        )


def chat_post(
    *, user: User, text: object, match_id: int | None = None, tournament_id: int | None = None
) -> ChatMessage:
    """Post ``text`` to a match's table (players only), a tournament's room (its players)
    or the lobby (both ids None) and broadcast it to the room after commit."""
    _may_chat(user)
    seat = None
    if match_id is not None:
        seat = seat_of(user=user, match_id=match_id)
        if seat is None:
            raise ChatError("not_a_player", _("Only the players at this table can chat here."))
    elif tournament_id is not None and not tournament_chat_writer(
        user=user, tournament_id=tournament_id
    ):
        raise ChatError("not_a_player", _("Only the players of this tournament can chat here."))
    mute = active_mute(user=user)
    if mute is not None:
        raise ChatError("muted", mute_message(until=mute.until, reason=mute.reason))
    clean = _clean_text(text)
    if not clean:
        raise ChatError("chat_empty", _("Type a message first."))
    if len(clean) > settings.CHAT_MAX_LENGTH:
        raise ChatError(
            "chat_too_long",
            _("Messages are limited to %(most)s characters (yours has %(length)s).")
            % {"most": settings.CHAT_MAX_LENGTH, "length": len(clean)},
        )
    with transaction.atomic():
        # One post at a time per user, so the rate limit holds across processes.
        User.objects.select_for_update().filter(pk=user.pk).first()
        _check_rate(user)
        message = ChatMessage.objects.create(
            match_id=match_id,
            tournament_id=None if match_id is not None else tournament_id,
            author=user,
            seat=seat,
            text=word_filter_apply(clean),
            original_text=clean,
        )
        message.author = user
        broadcast.chat_message_sent(
            match_id=message.match_id,
            tournament_id=message.tournament_id,
            author_id=user.pk,
            message=message_to_dict(message),
        )
    return message


def chat_report(*, reporter: User, message_id: int, reason: str, comment: str = "") -> ChatReport:
    """Report a message the reporter can read (not their own), once per message."""
    _may_chat(reporter)
    if reason not in ChatReport.Reason.values:
        choices = ", ".join(ChatReport.Reason.values)
        raise ChatError(
            "bad_reason", _("Choose a reason: one of %(choices)s.") % {"choices": choices}
        )
    comment = _clean_text(comment)
    if len(comment) > 500:
        raise ChatError("comment_too_long", _("Keep the comment under 500 characters."))
    message = ChatMessage.objects.filter(pk=message_id).select_related("author").first()
    if message is None or not chat_can_read(
        user=reporter, match_id=message.match_id, tournament_id=message.tournament_id
    ):
        raise ChatError("no_such_message", _("That message does not exist."))
    if message.author_id == reporter.pk:
        raise ChatError("own_message", _("You cannot report your own message."))
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message, reporter=reporter, reason=reason, comment=comment
            )
    except IntegrityError:
        raise ChatError("already_reported", _("You already reported this message.")) from None


def user_block(*, blocker: User, blocked: User) -> UserBlock:
    """``blocker`` stops seeing ``blocked``'s messages; they are never paired again.
    Blocking twice is harmless."""
    _may_chat(blocker)
    if blocked.pk == blocker.pk:
        raise ChatError("block_self", _("You cannot block yourself."))
    with transaction.atomic():
        block, _created = UserBlock.objects.get_or_create(blocker=blocker, blocked=blocked)
        broadcast.user_blocks_changed(
            user_id=blocker.pk, blocked_ids=sorted(blocked_user_ids(user=blocker))
        )
    return block


def user_unblock(*, blocker: User, blocked: User) -> None:
    with transaction.atomic():
        UserBlock.objects.filter(blocker=blocker, blocked=blocked).delete()
        broadcast.user_blocks_changed(
            user_id=blocker.pk, blocked_ids=sorted(blocked_user_ids(user=blocker))
        )
