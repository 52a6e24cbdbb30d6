"""HTTP endpoints of the analysis: the public JSON API of a match's analysis, one
hand's review for the replay page and the result dialog, and the hint button.

Thin: parse, call one selector or service, reply with JSON. A refusal is raised
(an ``AppError`` with the protocol's code, docs/protocol.md) and answered by
ginsite/errors.py: ``{"error": {"code", "message"}}`` with its class's status.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import selectors as game_selectors
from games.api import schemas
from games.api.auth import api_endpoint
from games.api.openapi import documented
from games.errors import NoSuchMatchError, NotAPlayerError
from ginsite.errors import BadRequest, MethodNotAllowed, json_route
from ginsite.http import ApiRequest, json_object

from . import selectors, services

MAX_HINT_BODY_BYTES = 1024
HINT_BODY = 'Send {"version": <number>} or nothing.'


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
        raise NoSuchMatchError()
    user = request.api_user or request.user
    if not selectors.can_read(match=match, user=user):
        raise NotAPlayerError(_("Only the players can read the analysis of a match in progress."))
    return JsonResponse(selectors.match_analysis(match=match))


@require_GET
@json_route
def hand_review(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    """One finished hand's analysis for the replay page and the result dialog."""
    match = game_selectors.match_get(match_id=match_id)
    if match is None or not selectors.can_read(match=match, user=request.user):
        raise Http404(_("Only the players can see the record of a match in progress."))
    hand = game_selectors.hand_get(match=match, number=number, finished=True)
    if hand is None:
        raise Http404(_("That hand is not over."))
    return JsonResponse(selectors.hand_review(hand=hand))


@json_route
async def hint(request: HttpRequest, match_id: int) -> HttpResponse:
    """``POST /match/{id}/hint`` (optional JSON body ``{"version": n}``): the
    expert's suggestion for the caller's position, in unrated matches against
    the computer only."""
    if request.method != "POST":
        raise MethodNotAllowed(_("Ask for a hint with POST."), methods=("POST",))
    user = await request.auser()
    if not user.is_authenticated:
        raise NotAPlayerError(_("Sign in to ask for a hint."))
    try:
        raw = json_object(request, max_bytes=MAX_HINT_BODY_BYTES).get("version")
    except BadRequest:  # bad_json, bad_message: this route says what it takes
        raise BadRequest(HINT_BODY, code="malformed_request") from None
    try:
        version = None if raw is None else int(raw)
    except (ValueError, TypeError):
        raise BadRequest(HINT_BODY, code="malformed_request") from None
    reply = await sync_to_async(services.hint_request_on_thread, thread_sensitive=False)(
        match_id=match_id, user=user, version=version
    )
    return JsonResponse(reply)
