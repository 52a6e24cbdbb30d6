"""HTTP endpoints of the analysis: the public JSON API of a match's analysis, one
hand's review for the replay page and the result dialog, and the hint button.

Thin: parse, call one selector or service, reply with JSON. Refusals are
ginsite/errors.py's ``{"error": {"code", "message"}}`` with the protocol's codes
(docs/protocol.md).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from games import selectors as game_selectors
from games.api import schemas
from games.api.auth import api_endpoint
from games.api.openapi import documented
from ginsite.errors import AppError, error_response
from ginsite.http import ApiRequest, json_object

from . import selectors, services

MAX_HINT_BODY_BYTES = 1024


def _refusal(code: str, message: str) -> JsonResponse:
    """A refusal of the view's own, its status from ginsite/errors.py's table."""
    response: JsonResponse = error_response(AppError(message, code=code))
    return response


@api_endpoint("GET", token="optional")
@documented(
    "A match's analysis", tag="matches and exports", answer=schemas.MatchAnalysis,
    refusals=("no_such_match", "not_a_player"),
)
def match_analysis(request: ApiRequest, match_id: int) -> HttpResponse:
    """``GET /api/match/{id}/analysis`` (an API route: a session or an API token, no
    CSRF): for the match's players while it runs, for anyone once it is finished."""
    match = game_selectors.match_get(match_id=match_id)
    if match is None:
        return _refusal("no_such_match", "This match does not exist.")
    user = request.api_user or request.user
    if not selectors.can_read(match=match, user=user):
        return _refusal(
            "not_a_player", "Only the players can read the analysis of a match in progress."
        )
    return JsonResponse(selectors.match_analysis(match=match))


@require_GET
def hand_review(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """One finished hand's analysis for the replay page and the result dialog."""
    match = game_selectors.match_get(match_id=match_id)
    if match is None or not selectors.can_read(match=match, user=request.user):
        raise Http404("Only the players can see the record of a match in progress.")
    hand = game_selectors.hand_get(match=match, number=number, finished=True)
    if hand is None:
        raise Http404("That hand is not over.")
    return JsonResponse(selectors.hand_review(hand=hand))


async def hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """``POST /match/{id}/hint`` (optional JSON body ``{"version": n}``): the
    expert's suggestion for the caller's position, in unrated matches against
    the computer only."""
    if request.method != "POST":
        response = _refusal("method_not_allowed", "Ask for a hint with POST.")
        response["Allow"] = "POST"
        return response
    user = await request.auser()
    if not user.is_authenticated:
        return _refusal("not_a_player", "Sign in to ask for a hint.")
    try:
        raw = json_object(request, max_bytes=MAX_HINT_BODY_BYTES).get("version")
    except AppError as error:
        if error.code in ("bad_json", "bad_message"):
            return _refusal("malformed_request", 'Send {"version": <number>} or nothing.')
        return error_response(error)
    try:
        version = None if raw is None else int(raw)
    except (ValueError, TypeError):
        return _refusal("malformed_request", 'Send {"version": <number>} or nothing.')
    try:
        reply = await sync_to_async(services.hint_request_on_thread, thread_sensitive=False)(
            match_id=match_id, user=user, version=version
        )
    except AppError as error:
        return error_response(error)
    return JsonResponse(reply)
