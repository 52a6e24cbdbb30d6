"""The refusals of the games app (services and selectors raise them).

Each is a ``ginsite.errors.AppError``: ``code`` (the machine-readable code of
docs/protocol.md, sent to WebSocket clients as is), ``message`` (a sentence for a
person) and, on its class, ``status`` (the HTTP status that answers it: 400 a request
the rules or settings refuse, 403 someone who may not, 404 nothing by that name, 409
the right request at the wrong moment); ginsite/errors.py turns them into replies.
Code that raises one has changed nothing.
"""

from django.utils.translation import gettext_lazy as _

from ginsite.errors import AppError


class ServiceError(AppError):
    """Base of every refusal by the games app."""


class MalformedActionError(ServiceError):
    status = 400
    code = "malformed_action"
    default_message = _("That is not a well-formed action.")


class IllegalActionError(ServiceError):
    status = 400
    code = "illegal_action"
    default_message = _("The rules do not allow that action now.")


class NotYourTurnError(ServiceError):
    status = 409
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class NotAPlayerError(ServiceError):
    status = 403
    code = "not_a_player"
    default_message = _("Only the two players of this match can do that.")


class StaleVersionError(ServiceError):
    status = 409
    code = "stale_version"
    default_message = _("The match has moved on since that; here is the current state.")


class MatchOverError(ServiceError):
    status = 409
    code = "match_over"
    default_message = _("This match is over; nothing can change it.")


class MatchNotStartedError(ServiceError):
    status = 409
    code = "match_not_started"
    default_message = _("This match has not started: it is waiting for an opponent.")


class MatchNotOverError(ServiceError):
    status = 409
    code = "match_not_over"
    default_message = _("A rematch can only be asked for once the match is over.")


class InvalidSettingsError(ServiceError):
    status = 400
    code = "invalid_settings"
    default_message = _("Those match settings are not valid.")


class GuestNotAllowedError(ServiceError):
    status = 403
    code = "guest_not_allowed"
    default_message = _("Guests can play the computer; sign up to play other people.")


class BotNotAllowedError(ServiceError):
    status = 403
    code = "bot_not_allowed"
    default_message = (
        "BOT accounts play through the bot API: challenges and the computer, never "
        "invitations or quick match."
    )


class NoSuchMatchError(ServiceError):
    status = 404
    code = "no_such_match"
    default_message = _("This match does not exist.")


class InviteNotFoundError(ServiceError):
    status = 404
    code = "invite_not_found"
    default_message = _("This invitation does not exist or has already been used.")


class InviteClosedError(ServiceError):
    status = 409
    code = "invite_closed"
    default_message = _("Only an invitation still waiting for an opponent can be cancelled.")


class RatedPlayBannedError(ServiceError):
    status = 403
    code = "rated_play_banned"
    default_message = _("Rated play is closed to you for a while: you left too many rated matches.")


class HandNotOverError(ServiceError):
    status = 409
    code = "hand_not_over"
    default_message = _("A hand can be replayed once it is over.")


class OfflineMatchRefusedError(ServiceError):
    status = 400
    code = "offline_match_refused"
    default_message = _("This offline match does not replay by the rules and was not saved.")


class CorrespondenceError(ServiceError):
    """A correspondence match or a vacation refused (too many matches at once, more
    vacation than a year allows)."""

    status = 400
    codes = ("too_many_correspondence", "vacation_refused")
    code_arg = 0
