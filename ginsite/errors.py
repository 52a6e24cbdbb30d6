"""The one base of every refusal the site's code raises, and the one place that turns
a refusal into a reply (an HTTP status and JSON body for the views and the API, an
``error`` frame for the sockets).

An ``AppError`` carries ``code`` (machine-readable: the codes of docs/protocol.md and
docs/bot-api.md) and ``message`` (a sentence for a person). Code that raises one has
changed nothing. Each app subclasses it (games.errors, games.chat.services,
accounts.services, leaderboards.services, games.api); no app imports another's
errors to answer them.
"""

from __future__ import annotations

from typing import Any

#: The HTTP status of each code; a code not listed is a 400 (bad request).
HTTP_STATUS: dict[str, int] = {
    # someone who may not: 403
    "not_a_player": 403,
    "guest_not_allowed": 403,
    "bot_not_allowed": 403,
    "hint_not_allowed": 403,
    "chat_not_allowed": 403,
    "muted": 403,
    "rated_play_banned": 403,
    "not_allowed": 403,
    "blocked": 403,
    # nothing by that name: 404
    "not_found": 404,
    "no_such_message": 404,
    "no_such_player": 404,
    "invite_not_found": 404,
    # right request, wrong moment: 409
    "stale_version": 409,
    "not_your_turn": 409,
    "match_over": 409,
    "match_not_started": 409,
    "match_not_over": 409,
    "hand_not_over": 409,
    "invite_closed": 409,
    "already_bot": 409,
    "has_rated_matches": 409,
    "challenge_closed": 409,
    # too often: 429
    "rate_limited": 429,
    "too_many_challenges": 429,
    # tournaments (tournaments/errors.py): the bad_* codes of a creation are 400s
    "private": 403,
    "removed": 403,
    "no_such_tournament": 404,
    "tournament_over": 409,
    "too_late": 409,
    "full": 409,
    "not_entered": 409,
    "not_arena": 409,
}


class AppError(Exception):
    """A refusal: ``code`` for programs, ``message`` for people. Subclasses set
    ``code`` and ``default_message``; ``AppError(message, code=..., status=...)`` sets
    them per instance (``status`` overrides ``HTTP_STATUS``)."""

    code = "server_error"
    default_message = "The server could not do that."

    def __init__(
        self, message: str | None = None, *, code: str | None = None, status: int | None = None
    ) -> None:
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        self._status = status
        super().__init__(self.message)

    @property
    def status(self) -> int:
        """The HTTP status that answers this refusal."""
        return self._status or HTTP_STATUS.get(self.code, 400)


def error_body(error: AppError) -> dict[str, Any]:
    """The JSON body of a refusal (views, the API): ``{"code", "message"}``."""
    return {"code": error.code, "message": error.message}


def error_response(error: AppError) -> Any:
    """The JSON reply to a refusal, with its status."""
    from django.http import JsonResponse

    return JsonResponse(error_body(error), status=error.status)


def error_frame(error: AppError, **extra: Any) -> dict[str, Any]:
    """The socket frame of a refusal (docs/protocol.md ``error``); ``extra`` adds
    fields such as the match ``version``."""
    return {"type": "error", **extra, **error_body(error)}
