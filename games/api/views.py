"""HTTP views of the open platform (docs/bot-api.md, docs/export.md): the match
export, the bot API, its OpenAPI document and reference page, the API tokens page and
challenges from the site's pages.

Thin: authenticate (games/api/auth.py), parse the body with its model
(games/api/schemas.py), call one service or selector, answer with the answer's model.
A refusal is an ``AppError`` raised anywhere below, answered by ginsite/errors.py's
``{"error": {"code", "message"}}`` with its status; streams are NDJSON from async
iterators (games/api/streams.py). ``documented`` puts a view in the OpenAPI document
(games/api/openapi.py).
"""

from __future__ import annotations

import re
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.selectors import user_by_username
from games import selectors
from games import services as game_services
from games.chat.services import chat_post
from games.db_threads import released
from games.engine.bundle import single_file_verifier
from games.models import Match
from games.ratelimits import match_creation_check
from ginsite.errors import AppError, json_route
from ginsite.http import ApiRequest, SignedInRequest, json_object, sign_in_required

from . import export, openapi, reference, schemas, services, signing, streams, tokens
from . import selectors as api_selectors
from .auth import api_endpoint
from .models import Challenge
from .openapi import documented

MAX_BODY_BYTES = 4096
MAX_EXPORTS = schemas.MAX_EXPORTS

USERNAME = re.compile(schemas.USERNAME_PATTERN)
USERNAME_PARAMETER = {
    "type": "string",
    "pattern": schemas.USERNAME_PATTERN,
    "maxLength": schemas.USERNAME_MAX_LENGTH,
}


def read_body(request: HttpRequest) -> dict[str, Any]:
    """The JSON object of the request body (an empty body is ``{}``; a body needs
    ``Content-Type: application/json``), or an ``AppError``."""
    return json_object(request, max_bytes=MAX_BODY_BYTES)


def answer(model: schemas.Answer) -> JsonResponse:
    return JsonResponse(schemas.answer_json(model))


def ndjson(iterator: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(iterator, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


def player(username: str) -> User | None:
    """The visible player of that name; None for a name no account can have."""
    if len(username) > schemas.USERNAME_MAX_LENGTH or not USERNAME.match(username):
        return None
    return user_by_username(username=username)


# --- the document ----------------------------------------------------------------------------


# Under /api/ as the API is, and like it refused for any method but GET (405), CSRF
# or not: nothing here reads a cookie.
@csrf_exempt
@require_GET
def openapi_document(request: HttpRequest) -> JsonResponse:
    """``GET /api/openapi.json``: the bot API's OpenAPI 3.1 document."""
    return JsonResponse(openapi.document(), json_dumps_params={"indent": 1})


@csrf_exempt
@require_GET
def api_reference(request: HttpRequest) -> HttpResponse:
    """``GET /api/docs/``: the same document, for people."""
    return render(request, "api/reference.html", reference.page(openapi.document()))


# --- export ---------------------------------------------------------------------------


def export_response(match_id: int) -> JsonResponse:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise AppError("There is no such match.", code="not_found")
    if match.status == Match.Status.WAITING:
        raise AppError(
            "This match has not started: there is nothing to export.", code="match_not_started"
        )
    return JsonResponse(export.match_export(match=match))


EXPORT: dict[str, Any] = {
    "tag": "matches and exports",
    "answer": {"$ref": openapi.REF + "GinMatch"},
    # method_not_allowed: a JSON route (json_route), as every route of the API
    "refusals": ("not_found", "match_not_started", "method_not_allowed"),
}


@require_GET
@json_route
@documented("A match's signed export (anyone)", **EXPORT)
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    """The match as a gin-match/2 document signed by the site (docs/export.md); a match
    in play exports its finished hands only. No token needed."""
    return export_response(match_id)


@api_endpoint("GET")
@documented("A match's signed export", **EXPORT)
def api_match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    """The same document as GET /match/{match_id}/export.json, with the token's rate
    limit."""
    return export_response(match_id)


@require_GET
@json_route
@documented("The key that signs every export", tag="matches and exports",
            answer=schemas.ExportKey, refusals=("method_not_allowed",))
def export_key(request: HttpRequest) -> JsonResponse:
    """The public Ed25519 key of the site's exports, and where the verifier is."""
    return answer(
        schemas.ExportKey(
            algorithm="Ed25519",
            key=signing.public_key_hex(),
            verifier=request.build_absolute_uri("/export/verify_gin.py"),
        )
    )


@require_GET
@documented("The single-file verifier", tag="matches and exports",
            answer_type="text/x-python", answer={"type": "string"})
def export_verifier(request: HttpRequest) -> HttpResponse:
    """verify_gin.py, with the site's key: checks an export against the rules and the
    signature with nothing but Python (docs/export.md)."""
    text = single_file_verifier(
        site_key=signing.public_key_hex(), site=request.build_absolute_uri("/").rstrip("/")
    )
    response = HttpResponse(text, content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_gin.py"'
    return response


async def _exports(ids: list[int]) -> Any:
    for match_id in ids:
        document = await streams.db(export.match_export)(match=Match(pk=match_id))
        yield streams.line(document)


@api_endpoint("GET", token="optional")
@documented(
    "A player's finished matches", tag="matches and exports",
    query=schemas.MatchListQuery, lines={"$ref": openapi.REF + "GinMatch"},
    path={"username": USERNAME_PARAMETER}, refusals=("no_such_player", "bad_request"),
)
async def user_matches(request: ApiRequest, username: str) -> HttpResponseBase:
    """Finished matches, newest first: one gin-match/2 document per line. A token is
    optional (it gives the token's rate limit)."""
    user = await sync_to_async(player)(username)
    if user is None:
        raise AppError("There is no such player.", code="no_such_player")
    query = schemas.parse_match_list_query(request.GET.dict())
    ids = await sync_to_async(selectors.finished_match_ids)(
        user=user, since=query.since, most=query.max
    )
    return ndjson(_exports(ids))


# --- account and events -----------------------------------------------------------------


@api_endpoint("GET")
@documented("The token's account", tag="account", answer=schemas.Account)
def account(request: ApiRequest) -> JsonResponse:
    """Who the token acts for."""
    user = request.api_user
    return answer(schemas.Account(id=user.pk, username=user.username, bot=user.is_bot))


@api_endpoint("POST")
@documented(
    "Make the account a BOT account", tag="account", body=schemas.EmptyBody,
    answer=schemas.Upgraded, refusals=("guest_not_allowed", "already_bot", "has_rated_matches"),
)
def bot_upgrade(request: ApiRequest) -> JsonResponse:
    """For good: only an account that has never played a rated match can."""
    schemas.parse(schemas.EmptyBody, read_body(request))
    user = services.bot_account_upgrade(user=request.api_user)
    return answer(schemas.Upgraded(ok=True, username=user.username, bot=True))


@api_endpoint("GET")
@documented("The account's events", tag="events", lines=schemas.AccountEvent)
async def event_stream(request: ApiRequest) -> HttpResponseBase:
    """The account's events as they happen, one per line; first a matchStart for every
    match in play and a challenge for every challenge waiting for its answer."""
    return ndjson(streams.event_stream(request.api_user, request.api_token.pk))


# --- challenges ---------------------------------------------------------------------------


def _challenge_answer(challenge: Challenge) -> JsonResponse:
    from . import events

    return answer(
        schemas.ChallengeAnswer(
            challenge=schemas.Challenge.model_validate(
                {
                    **events.challenge_json(challenge),
                    "to": challenge.dest.username,
                    "status": challenge.status,
                }
            )
        )
    )


def _match_limit(request: ApiRequest) -> None:
    """A request that would create a match counts against the account's limit of new
    matches, the same as the lobby's (games/ratelimits.py): ``RateLimited`` over it."""
    match_creation_check(user_id=request.api_user.pk)


ANSWERING = ("not_found", "not_allowed", "challenge_closed")


@api_endpoint("POST")
@documented(
    "Challenge a player", tag="challenges", body=schemas.ChallengeSettings,
    answer=schemas.ChallengeAnswer,
    path={"username": {**USERNAME_PARAMETER, "not": {"const": "computer"}}},
    refusals=("invalid_settings", "guest_not_allowed", "no_such_player", "challenge_self",
              "blocked", "too_many_challenges"),
)
def challenge_create(request: ApiRequest, username: str) -> JsonResponse:
    """The challenged account gets a challenge event; a challenge not answered within 10
    minutes expires."""
    _match_limit(request)
    dest = player(username)
    body = read_body(request)
    return _challenge_answer(services.challenge_create(user=request.api_user, dest=dest, body=body))


@api_endpoint("POST")
@documented(
    "Play the site's computer", tag="challenges", body=schemas.ComputerChallenge,
    body_required=True, answer=schemas.MatchAnswer,
    refusals=("invalid_settings", "guest_not_allowed", "rated_play_banned", "bot_not_allowed"),
)
def challenge_computer(request: ApiRequest) -> JsonResponse:
    """A match against the computer at that level, started at once (never rated)."""
    _match_limit(request)
    match = services.computer_challenge(user=request.api_user, body=read_body(request))
    return answer(schemas.MatchAnswer(match=schemas.MatchRef(id=match.pk)))


@api_endpoint("POST")
@documented("Accept a challenge", tag="challenges", body=schemas.EmptyBody,
            answer=schemas.MatchAnswer, refusals=ANSWERING)
def challenge_accept(request: ApiRequest, challenge_id: int) -> JsonResponse:
    """Only the challenged account. The match starts at once; both accounts get
    matchStart."""
    schemas.parse(schemas.EmptyBody, read_body(request))
    match = services.challenge_accept(user=request.api_user, challenge_id=challenge_id)
    return answer(schemas.MatchAnswer(match=schemas.MatchRef(id=match.pk)))


@api_endpoint("POST")
@documented("Decline a challenge", tag="challenges", body=schemas.EmptyBody,
            answer=schemas.ChallengeAnswer, refusals=ANSWERING)
def challenge_decline(request: ApiRequest, challenge_id: int) -> JsonResponse:
    """Only the challenged account; the challenger gets challengeDeclined."""
    schemas.parse(schemas.EmptyBody, read_body(request))
    return _challenge_answer(
        services.challenge_decline(user=request.api_user, challenge_id=challenge_id)
    )


@api_endpoint("POST")
@documented("Withdraw a challenge", tag="challenges", body=schemas.EmptyBody,
            answer=schemas.ChallengeAnswer, refusals=ANSWERING)
def challenge_cancel(request: ApiRequest, challenge_id: int) -> JsonResponse:
    """Only the challenger; the challenged account gets challengeCanceled."""
    schemas.parse(schemas.EmptyBody, read_body(request))
    return _challenge_answer(
        services.challenge_cancel(user=request.api_user, challenge_id=challenge_id)
    )


# --- playing a match ------------------------------------------------------------------------

SEATED = ("not_a_bot", "not_found", "not_a_player")


def _bot_seat(request: ApiRequest, match_id: int) -> int:
    """The BOT account's seat in the match, or an ``AppError``."""
    user = request.api_user
    if not user.is_bot:
        raise AppError(
            "Only BOT accounts play through the bot API: POST /api/bot/account/upgrade.",
            code="not_a_bot",
        )
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise AppError("There is no such match.", code="not_found")
    seat = selectors.seat_for_user(match=match, user=user)
    if seat is None:
        raise AppError("You do not play in this match.", code="not_a_player")
    return seat


@api_endpoint("GET")
@documented("The match, as the bot's seat sees it", tag="play", lines=schemas.MatchLine,
            refusals=SEATED)
async def match_stream(request: ApiRequest, match_id: int) -> HttpResponseBase:
    """Exactly the messages the WebSocket of the bot's seat gets (docs/protocol.md), the
    full state first, until the match is over. While it is open the bot is present at
    the table."""
    seat = await sync_to_async(released(_bot_seat))(request, match_id)  # connection freed
    return ndjson(streams.match_stream(request.api_user, match_id, seat, request.api_token.pk))


@api_endpoint("GET")
@documented("The full state of the bot's seat now", tag="play", answer=schemas.MatchState,
            refusals=SEATED)
def match_state(request: ApiRequest, match_id: int) -> JsonResponse:
    """The WebSocket's answer to sync: hold it instead of what you had."""
    _bot_seat(request, match_id)
    return JsonResponse(
        selectors.match_state_message(match=Match(pk=match_id), user=request.api_user)
    )


@api_endpoint("POST")
@documented(
    "Play a move", tag="play", body=schemas.ActionBody, body_required=True,
    answer=schemas.Moved,
    refusals=(*SEATED, "match_over", "match_not_started", "stale_version", "not_your_turn",
              "malformed_action", "illegal_action"),
)
def match_action(request: ApiRequest, match_id: int) -> JsonResponse:
    """Refusals are checked in this order: not_a_player, match_over or
    match_not_started, stale_version, not_your_turn, malformed_action, illegal_action. A
    refused action changes nothing."""
    _bot_seat(request, match_id)
    body = schemas.parse(schemas.ActionBody, read_body(request))
    match = game_services.move_submit(
        match=Match(pk=match_id),
        user=request.api_user,
        action=body.action,
        expected_version=body.version,
    )
    return answer(schemas.Moved(version=match.version))


@api_endpoint("POST")
@documented("Resign the match", tag="play", body=schemas.EmptyBody, answer=schemas.Resigned,
            refusals=(*SEATED, "match_over", "match_not_started"))
def match_resign(request: ApiRequest, match_id: int) -> JsonResponse:
    """The bot loses the match; scores stand and the opponent gets the game bonus."""
    _bot_seat(request, match_id)
    schemas.parse(schemas.EmptyBody, read_body(request))
    match = game_services.match_resign(match=Match(pk=match_id), user=request.api_user)
    return answer(schemas.Resigned(ok=True, version=match.version))


@api_endpoint("POST")
@documented(
    "Say something at the table", tag="play", body=schemas.ChatBody, body_required=True,
    answer=schemas.ChatPosted,
    refusals=(*SEATED, "muted", "chat_not_allowed", "chat_empty", "chat_too_long",
              "rate_limited"),
)
def match_chat(request: ApiRequest, match_id: int) -> JsonResponse:
    """Under the chat rules of people: at most 300 characters, 5 lines per 10 s, the
    word filter; muted accounts cannot write."""
    _bot_seat(request, match_id)
    body = schemas.parse(schemas.ChatBody, read_body(request))
    message = chat_post(user=request.api_user, text=body.text, match_id=match_id)
    return answer(schemas.ChatPosted(ok=True, id=message.pk))


# --- pages: API tokens, challenges from a profile ---------------------------------------------


def _tokens_page(
    request: SignedInRequest, *, new_token: str | None = None, error: str = "", status: int = 200
) -> HttpResponse:
    return render(
        request,
        "api/tokens.html",
        {
            "tokens": tokens.tokens_for_user(user=request.user),
            "new_token": new_token,
            "error": error,
        },
        status=status,
    )


@login_required
def tokens_page(request: SignedInRequest) -> HttpResponse:
    """The account's API tokens; POST creates one and shows it, this once."""
    if request.method != "POST":
        return _tokens_page(request)
    try:
        _token, raw = tokens.api_token_create(user=request.user, name=request.POST.get("name", ""))
    except tokens.TokenError as error:
        return _tokens_page(request, error=error.message, status=400)
    return _tokens_page(request, new_token=raw)


@login_required
@require_POST
def token_revoke(request: SignedInRequest, token_id: int) -> HttpResponse:
    try:
        tokens.api_token_revoke(user=request.user, token_id=token_id)
    except tokens.TokenError as error:
        raise Http404(error.message) from error
    return redirect("api:tokens")


@login_required
@require_POST
def profile_challenge(request: SignedInRequest, username: str) -> HttpResponse:
    """A person challenges a player (a BOT, typically) from their profile page."""
    dest = user_by_username(username=username)
    target = request.POST.get("target", "100")
    days = request.POST.get("days", "")
    body = {
        "variant": request.POST.get("variant", "default"),
        "target": int(target) if target.isdigit() else target,
        "rated": False,
        # A correspondence match from the friends list: days per move, blank for live.
        "days": int(days) if days.isdigit() else None,
    }
    try:
        challenge = services.challenge_create(user=request.user, dest=dest, body=body)
    except AppError as error:
        if error.status == 404:
            raise Http404(error.message) from error
        from django.contrib import messages

        messages.error(request, error.message)
        return redirect("accounts:profile", username=username)
    return redirect("api:challenge_page", challenge_id=challenge.pk)


def _own_challenge(request: SignedInRequest, challenge_id: int) -> Challenge:
    challenge = api_selectors.challenge_get(challenge_id=challenge_id)
    if challenge is None or request.user.pk not in (challenge.challenger_id, challenge.dest_id):
        raise Http404("No such challenge.")
    return challenge


@login_required
@require_GET
def challenge_page(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    if challenge.match_id is not None:
        return redirect("games:table", match_id=challenge.match_id)
    status = api_selectors.challenge_status(challenge=challenge)
    return render(request, "api/challenge.html", {"challenge": challenge, "status": status})


@sign_in_required
@require_GET
@json_route
def challenge_status(request: SignedInRequest, challenge_id: int) -> JsonResponse:
    challenge = _own_challenge(request, challenge_id)
    status = api_selectors.challenge_status(challenge=challenge)
    return JsonResponse({"status": status, "match_id": challenge.match_id})


@login_required
@require_POST
def challenge_page_accept(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    """A person accepts a challenge (from a bot, typically) from the lobby."""
    challenge = _own_challenge(request, challenge_id)
    try:
        match = services.challenge_accept(user=request.user, challenge_id=challenge.pk)
    except AppError as error:
        from django.contrib import messages

        messages.error(request, error.message)
        return redirect("api:challenge_page", challenge_id=challenge.pk)
    return redirect("games:table", match_id=match.pk)


@login_required
@require_POST
def challenge_page_decline(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    try:
        services.challenge_decline(user=request.user, challenge_id=challenge.pk)
    except AppError:
        pass  # answered or expired meanwhile
    return redirect("games:home")


@login_required
@require_POST
def challenge_page_cancel(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    try:
        services.challenge_cancel(user=request.user, challenge_id=challenge.pk)
    except AppError:
        pass  # answered meanwhile: the page shows how
    return redirect("api:challenge_page", challenge_id=challenge.pk)
