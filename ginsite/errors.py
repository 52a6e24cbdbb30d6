"""The one base of every refusal the site's code raises, and the one place that turns
a refusal into a reply (an HTTP status and JSON body for the views and the API, an
``error`` frame for the sockets).

An ``AppError`` carries ``code`` (machine-readable: the codes of docs/protocol.md and
docs/bot-api.md) and ``message`` (a sentence for a person). Over HTTP every refusal
is ``{"error": {"code", "message"}}`` (``error_response``), on a socket an ``error``
frame (``error_frame``). Code that raises one has
changed nothing. Each app subclasses it (games.errors, games.chat.services,
accounts.services, leaderboards.services, games.api); no app imports another's
errors to answer them.
"""

from __future__ import annotations

from typing import Any

#: The HTTP status of each code; a code not listed is a 400 (bad request).
HTTP_STATUS: dict[str, int] = {
    # who are you? (no token, a bad token, not signed in): 401
    "unauthorized": 401,
    "invalid_token": 401,
    "not_signed_in": 401,
    # someone who may not: 403
    "not_a_bot": 403,
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
    "no_such_match": 404,
    # the request's form: 405 method, 413 body size, 415 body type (JSON routes)
    "method_not_allowed": 405,
    "body_too_large": 413,
    "unsupported_media_type": 415,
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
    # the database is out of connections (ginsite/overload.py): 503, with Retry-After
    "overloaded": 503,
    # tournaments (games/tournaments/errors.py): the bad_* codes of a creation are 400s
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
    """The JSON body of every refusal over HTTP (the site's JSON routes and the API):
    ``{"error": {"code", "message"}}``."""
    return {"error": {"code": error.code, "message": error.message}}


def error_response(error: AppError, **headers: str) -> Any:
    """The JSON reply to a refusal, with its status; ``headers`` adds response headers
    (``Retry_After="30"`` is ``Retry-After: 30``)."""
    from django.http import JsonResponse

    response = JsonResponse(error_body(error), status=error.status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def error_frame(error: AppError, **extra: Any) -> dict[str, Any]:
    """The socket frame of a refusal (docs/protocol.md ``error``): ``{"type": "error",
    "code", "message"}``; ``extra`` adds fields such as the match ``version``."""
    return {"type": "error", **extra, "code": error.code, "message": error.message}
