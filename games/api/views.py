"""HTTP views of the open platform (docs/bot-api.md, docs/export.md): the match
export, the bot API, the API tokens page and challenges from the site's pages.

Thin: authenticate (games/api/auth.py), parse the body, call one service or
selector, answer JSON. Refusals are ginsite/errors.py's ``{"error": {"code",
"message"}}`` with the status of its table; streams are NDJSON from async iterators
(games/api/streams.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeGuard

from asgiref.sync import sync_to_async
from django.conf import settings
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
from django.views.decorators.http import require_GET, require_POST

from accounts.selectors import user_by_username
from games import selectors
from games import services as game_services
from games.chat.services import chat_post
from games.db_threads import released
from games.engine.bundle import single_file_verifier
from games.models import Match
from games.ratelimits import hit
from ginsite.errors import AppError, error_response
from ginsite.http import ApiRequest, SignedInRequest, json_object

from . import export, services, signing, streams, tokens
from . import selectors as api_selectors
from .auth import api_endpoint, refusal
from .models import Challenge

MAX_BODY_BYTES = 4096
MAX_EXPORTS = 300


def refused(error: AppError) -> JsonResponse:
    """A refusal of a service, with its status from ginsite/errors.py."""
    response: JsonResponse = error_response(error)
    return response


def read_body(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    """The JSON object of the request body (an empty body is ``{}``; a body needs
    ``Content-Type: application/json``), or a refusal."""
    try:
        return json_object(request, max_bytes=MAX_BODY_BYTES)
    except AppError as error:
        return refused(error)


def ndjson(iterator: Any) -> StreamingHttpResponse:
    response = StreamingHttpResponse(iterator, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each line on at once
    return response


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# --- export ---------------------------------------------------------------------------


def export_response(match_id: int) -> JsonResponse:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return refusal("not_found", "There is no such match.")
    if match.status == Match.Status.WAITING:
        return refusal(
            "match_not_started", "This match has not started: there is nothing to export."
        )
    return JsonResponse(export.match_export(match=match))


@require_GET
def match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    """``GET /match/<id>/export.json``: anyone, no sign-in (docs/export.md)."""
    return export_response(match_id)


@api_endpoint("GET")
def api_match_export(request: HttpRequest, match_id: int) -> JsonResponse:
    return export_response(match_id)


@require_GET
def export_key(request: HttpRequest) -> JsonResponse:
    """``GET /export/key.json``: the public key that signs every export (docs/export.md)."""
    return JsonResponse({
        "algorithm": "Ed25519",
        "key": signing.public_key_hex(),
        "verifier": request.build_absolute_uri("/export/verify_gin.py"),
    })


@require_GET
def export_verifier(request: HttpRequest) -> HttpResponse:
    """``GET /export/verify_gin.py``: the single-file verifier, with the site's key."""
    text = single_file_verifier(
        site_key=signing.public_key_hex(), site=request.build_absolute_uri("/").rstrip("/")
    )
    response = HttpResponse(text, content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_gin.py"'
    return response


def _since(text: str) -> datetime | None:
    if text.isdigit():
        return datetime.fromtimestamp(int(text) / 1000, tz=UTC)
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


async def _exports(ids: list[int]) -> Any:
    for match_id in ids:
        document = await streams.db(export.match_export)(match=Match(pk=match_id))
        yield streams.line(document)


@api_endpoint("GET", token="optional")
async def user_matches(request: ApiRequest, username: str) -> HttpResponseBase:
    """``GET /api/user/<username>/matches``: finished matches, newest first, NDJSON."""
    user = await sync_to_async(user_by_username)(username=username)
    if user is None:
        return refusal("no_such_player", "There is no such player.")
    try:
        most = int(request.GET.get("max", "100"))
        since = _since(request.GET["since"]) if request.GET.get("since") else None
    except (ValueError, OverflowError, OSError):
        return refusal("bad_request", "max is a whole number; since is milliseconds or ISO 8601.")
    if not 1 <= most <= MAX_EXPORTS:
        return refusal("bad_request", f"max must be between 1 and {MAX_EXPORTS}.")
    ids = await sync_to_async(selectors.finished_match_ids)(user=user, since=since, most=most)
    return ndjson(_exports(ids))


# --- account and events -----------------------------------------------------------------


@api_endpoint("GET")
def account(request: ApiRequest) -> JsonResponse:
    user = request.api_user
    return JsonResponse({"id": user.pk, "username": user.username, "bot": user.is_bot})


@api_endpoint("POST")
def bot_upgrade(request: ApiRequest) -> JsonResponse:
    body = read_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        user = services.bot_account_upgrade(user=request.api_user)
    except services.ApiError as error:
        return refused(error)
    return JsonResponse({"ok": True, "username": user.username, "bot": True})


@api_endpoint("GET")
async def event_stream(request: ApiRequest) -> HttpResponseBase:
    return ndjson(streams.event_stream(request.api_user, request.api_token.pk))


# --- challenges ---------------------------------------------------------------------------


def _with_body(request: ApiRequest, call: Any) -> JsonResponse:
    body = read_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        return call(body)
    except AppError as error:
        return refused(error)


def _challenge_answer(challenge: Challenge) -> JsonResponse:
    from . import events

    return JsonResponse(
        {
            "challenge": {
                **events.challenge_json(challenge),
                "to": challenge.dest.username,
                "status": challenge.status,
            }
        }
    )


def _match_limit(request: ApiRequest) -> JsonResponse | None:
    """A request that would create a match counts against the account's limit of new
    matches, the same as the lobby's (games/ratelimits.py)."""
    wait = hit("match-user", str(request.api_user.pk), settings.MATCH_CREATE_LIMIT)
    if wait:
        return refusal(
            "rate_limited", f"Too many new matches: wait {wait} s.", Retry_After=str(wait)
        )
    return None


@api_endpoint("POST")
def challenge_create(request: ApiRequest, username: str) -> JsonResponse:
    refusal = _match_limit(request)
    if refusal is not None:
        return refusal
    dest = user_by_username(username=username)
    return _with_body(
        request,
        lambda body: _challenge_answer(
            services.challenge_create(user=request.api_user, dest=dest, body=body)
        ),
    )


@api_endpoint("POST")
def challenge_computer(request: ApiRequest) -> JsonResponse:
    refusal = _match_limit(request)
    if refusal is not None:
        return refusal
    return _with_body(
        request,
        lambda body: JsonResponse(
            {"match": {"id": services.computer_challenge(user=request.api_user, body=body).pk}}
        ),
    )


@api_endpoint("POST")
def challenge_accept(request: ApiRequest, challenge_id: int) -> JsonResponse:
    return _with_body(
        request,
        lambda body: JsonResponse(
            {
                "match": {
                    "id": services.challenge_accept(
                        user=request.api_user, challenge_id=challenge_id
                    ).pk
                }
            }
        ),
    )


@api_endpoint("POST")
def challenge_decline(request: ApiRequest, challenge_id: int) -> JsonResponse:
    return _with_body(
        request,
        lambda body: _challenge_answer(
            services.challenge_decline(user=request.api_user, challenge_id=challenge_id)
        ),
    )


@api_endpoint("POST")
def challenge_cancel(request: ApiRequest, challenge_id: int) -> JsonResponse:
    return _with_body(
        request,
        lambda body: _challenge_answer(
            services.challenge_cancel(user=request.api_user, challenge_id=challenge_id)
        ),
    )


# --- playing a match ------------------------------------------------------------------------


def _bot_seat(request: ApiRequest, match_id: int) -> int | JsonResponse:
    """The BOT account's seat in the match, or the refusal."""
    user = request.api_user
    if not user.is_bot:
        return refusal(
            "not_a_bot",
            "Only BOT accounts play through the bot API: POST /api/bot/account/upgrade.",
        )
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return refusal("not_found", "There is no such match.")
    seat = selectors.seat_for_user(match=match, user=user)
    if seat is None:
        return refusal("not_a_player", "You do not play in this match.")
    return seat


@api_endpoint("GET")
async def match_stream(request: ApiRequest, match_id: int) -> HttpResponseBase:
    seat = await sync_to_async(released(_bot_seat))(request, match_id)  # connection freed
    if isinstance(seat, JsonResponse):
        return seat
    return ndjson(streams.match_stream(request.api_user, match_id, seat, request.api_token.pk))


@api_endpoint("GET")
def match_state(request: ApiRequest, match_id: int) -> JsonResponse:
    """The full ``state`` of the BOT's seat now (the WebSocket's answer to ``sync``)."""
    seat = _bot_seat(request, match_id)
    if isinstance(seat, JsonResponse):
        return seat
    return JsonResponse(
        selectors.match_state_message(match=Match(pk=match_id), user=request.api_user)
    )


@api_endpoint("POST")
def match_action(request: ApiRequest, match_id: int) -> JsonResponse:
    seat = _bot_seat(request, match_id)
    if isinstance(seat, JsonResponse):
        return seat
    body = read_body(request)
    if isinstance(body, JsonResponse):
        return body
    version, action = body.get("version"), body.get("action")
    if not _is_int(version) or not isinstance(action, dict):
        return refusal("bad_message", 'The body needs "version" (integer) and "action" (object).')
    try:
        match = game_services.move_submit(
            match=Match(pk=match_id),
            user=request.api_user,
            action=action,
            expected_version=version,
        )
    except AppError as error:
        return refused(error)
    return JsonResponse({"version": match.version})


@api_endpoint("POST")
def match_resign(request: ApiRequest, match_id: int) -> JsonResponse:
    seat = _bot_seat(request, match_id)
    if isinstance(seat, JsonResponse):
        return seat
    body = read_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        match = game_services.match_resign(match=Match(pk=match_id), user=request.api_user)
    except AppError as error:
        return refused(error)
    return JsonResponse({"ok": True, "version": match.version})


@api_endpoint("POST")
def match_chat(request: ApiRequest, match_id: int) -> JsonResponse:
    seat = _bot_seat(request, match_id)
    if isinstance(seat, JsonResponse):
        return seat
    body = read_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        message = chat_post(user=request.api_user, text=body.get("text"), match_id=match_id)
    except AppError as error:
        return refused(error)
    return JsonResponse({"ok": True, "id": message.pk})


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
    body = {
        "variant": request.POST.get("variant", "default"),
        "target": int(target) if target.isdigit() else target,
        "rated": False,
    }
    try:
        challenge = services.challenge_create(user=request.user, dest=dest, body=body)
    except services.ApiError as error:
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


@login_required
@require_GET
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
    except services.ApiError as error:
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
    except services.ApiError:
        pass  # answered or expired meanwhile
    return redirect("games:home")


@login_required
@require_POST
def challenge_page_cancel(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    challenge = _own_challenge(request, challenge_id)
    try:
        services.challenge_cancel(user=request.user, challenge_id=challenge.pk)
    except services.ApiError:
        pass  # answered meanwhile: the page shows how
    return redirect("api:challenge_page", challenge_id=challenge.pk)
