"""Thin HTTP endpoints of the chat panel: report a message, block or unblock its author
(or a player by username). JSON in and out for the panel's fetch calls; a plain form
post (the settings and profile pages) is redirected back with a flash message."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from ginsite.errors import AppError, error_response
from ginsite.http import SignedInRequest

from .selectors import chat_can_read, message_get, player_by_username
from .services import ChatError, chat_report, user_block, user_unblock


def _payload(request: HttpRequest) -> dict:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            raise ChatError("bad_json", "Send a JSON object.") from None
        if not isinstance(data, dict):
            raise ChatError("bad_json", "Send a JSON object.")
        return data
    return request.POST.dict()


def _reply(request: HttpRequest, status: int, body: dict) -> HttpResponse:
    if request.content_type == "application/json":
        return JsonResponse(body, status=status)
    level = messages.SUCCESS if status == 200 else messages.ERROR
    messages.add_message(request, level, body.get("message", ""))
    target = request.POST.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//") else "/")


def _error(request: HttpRequest, error: AppError) -> HttpResponse:
    """A refusal: ginsite/errors.py's JSON reply to the panel, a flash message to a
    form post."""
    if request.content_type == "application/json":
        response: HttpResponse = error_response(error)
        return response
    return _reply(request, error.status, {"message": error.message})


def _target(request: SignedInRequest, data: dict) -> User:
    """The player named by ``message`` (its author) or ``username``."""
    if data.get("message") not in (None, ""):
        try:
            message_id = int(data["message"])
        except (TypeError, ValueError):
            raise ChatError("no_such_message", "That message does not exist.") from None
        message = message_get(message_id=message_id)
        if message is None or not chat_can_read(
            user=request.user, match_id=message.match_id, tournament_id=message.tournament_id
        ):
            raise ChatError("no_such_message", "That message does not exist.")
        return message.author
    user = player_by_username(username=str(data.get("username", "")))
    if user is None:
        raise ChatError("no_such_player", "There is no such player.")
    return user


@login_required
@require_POST
def report(request: SignedInRequest, message_id: int) -> HttpResponse:
    try:
        data = _payload(request)
        chat_report(
            reporter=request.user,
            message_id=message_id,
            reason=str(data.get("reason", "")),
            comment=str(data.get("comment", "")),
        )
    except ChatError as error:
        return _error(request, error)
    return _reply(request, 200, {"ok": True, "message": "Thank you: a moderator will look at it."})


@login_required
@require_POST
def block(request: SignedInRequest) -> HttpResponse:
    try:
        target = _target(request, _payload(request))
        user_block(blocker=request.user, blocked=target)
    except ChatError as error:
        return _error(request, error)
    return _reply(
        request,
        200,
        {
            "ok": True,
            "author": target.display_name,
            "message": f"You will no longer see {target.display_name}'s messages "
            "or be paired with them.",
        },
    )


@login_required
@require_POST
def unblock(request: SignedInRequest) -> HttpResponse:
    try:
        target = _target(request, _payload(request))
        user_unblock(blocker=request.user, blocked=target)
    except ChatError as error:
        return _error(request, error)
    return _reply(request, 200, {"ok": True, "message": f"{target.display_name} is unblocked."})
