"""The refusals of the games app (services and selectors raise them).

Each is a ``ginsite.errors.AppError``: ``code`` (the machine-readable code of
docs/protocol.md, sent to WebSocket clients as is) and ``message`` (a sentence for a
person); ginsite/errors.py maps them to replies. Code that raises one has changed
nothing.
"""

from ginsite.errors import AppError


class ServiceError(AppError):
    """Base of every refusal by the games app."""


class MalformedActionError(ServiceError):
    code = "malformed_action"
    default_message = "That is not a well-formed action."


class IllegalActionError(ServiceError):
    code = "illegal_action"
    default_message = "The rules do not allow that action now."


class NotYourTurnError(ServiceError):
    code = "not_your_turn"
    default_message = "It is not your turn."


class NotAPlayerError(ServiceError):
    code = "not_a_player"
    default_message = "Only the two players of this match can do that."


class StaleVersionError(ServiceError):
    code = "stale_version"
    default_message = "The match has moved on since that; here is the current state."


class MatchOverError(ServiceError):
    code = "match_over"
    default_message = "This match is over; nothing can change it."


class MatchNotStartedError(ServiceError):
    code = "match_not_started"
    default_message = "This match has not started: it is waiting for an opponent."


class MatchNotOverError(ServiceError):
    code = "match_not_over"
    default_message = "A rematch can only be asked for once the match is over."


class InvalidSettingsError(ServiceError):
    code = "invalid_settings"
    default_message = "Those match settings are not valid."


class GuestNotAllowedError(ServiceError):
    code = "guest_not_allowed"
    default_message = "Guests can play the computer; sign up to play other people."


class BotNotAllowedError(ServiceError):
    code = "bot_not_allowed"
    default_message = (
        "BOT accounts play through the bot API: challenges and the computer, never "
        "invitations or quick match."
    )


class InviteNotFoundError(ServiceError):
    code = "invite_not_found"
    default_message = "This invitation does not exist or has already been used."


class InviteClosedError(ServiceError):
    code = "invite_closed"
    default_message = "Only an invitation still waiting for an opponent can be cancelled."


class RatedPlayBannedError(ServiceError):
    code = "rated_play_banned"
    default_message = "Rated play is closed to you for a while: you left too many rated matches."


class HandNotOverError(ServiceError):
    code = "hand_not_over"
    default_message = "A hand can be replayed once it is over."


class OfflineMatchRefusedError(ServiceError):
    code = "offline_match_refused"
    default_message = "This offline match does not replay by the rules and was not saved."
