"""Thin HTTP endpoints of the chat panel: report a message, block or unblock its author
(or a player by username). JSON in and out for the panel's fetch calls: a refusal is
raised and answered by ginsite/errors.py (``{"error": {"code", "message"}}``, its
status; not signed in: 401 ``not_signed_in``). A plain form post (the settings and
profile pages) is redirected back with a flash message, a refusal's sentence too: the
page the player came from is where they read it."""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from ginsite.errors import wants_json
from ginsite.http import SignedInRequest, sign_in_required

from .selectors import chat_can_read, message_get, player_by_username
from .services import ChatError, chat_report, user_block, user_unblock


def _payload(request: HttpRequest) -> dict:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            raise ChatError("bad_json", _("Send a JSON object.")) from None
        if not isinstance(data, dict):
            raise ChatError("bad_json", _("Send a JSON object."))
        return data
    return request.POST.dict()


def _back(request: HttpRequest, level: int, text: str) -> HttpResponse:
    """A form post's answer: a flash message, and back to the page it came from."""
    messages.add_message(request, level, text)
    target = request.POST.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//") else "/")


def _reply(request: HttpRequest, body: dict) -> HttpResponse:
    if wants_json(request):
        return JsonResponse(body)
    return _back(request, messages.SUCCESS, body.get("message", ""))


def _form_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A refusal of a form post is its flash message and the way back; a JSON
    request's goes on to ginsite/errors.py."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ChatError as error:
            if wants_json(request):
                raise
            return _back(request, messages.ERROR, error.message)

    return wrapped


def _target(request: SignedInRequest, data: dict) -> User:
    """The player named by ``message`` (its author) or ``username``."""
    if data.get("message") not in (None, ""):
        try:
            message_id = int(data["message"])
        except (TypeError, ValueError):
            raise ChatError("no_such_message", _("That message does not exist.")) from None
        message = message_get(message_id=message_id)
        if message is None or not chat_can_read(
            user=request.user, match_id=message.match_id, tournament_id=message.tournament_id
        ):
            raise ChatError("no_such_message", _("That message does not exist."))
        return message.author
    user = player_by_username(username=str(data.get("username", "")))
    if user is None:
        raise ChatError("no_such_player", _("There is no such player."))
    return user


@sign_in_required
@require_POST
@_form_refusals
def report(request: SignedInRequest, message_id: int) -> HttpResponse:
    data = _payload(request)
    chat_report(
        reporter=request.user,
        message_id=message_id,
        reason=str(data.get("reason", "")),
        comment=str(data.get("comment", "")),
    )
    return _reply(request, {"ok": True, "message": "Thank you: a moderator will look at it."})


@sign_in_required
@require_POST
@_form_refusals
def block(request: SignedInRequest) -> HttpResponse:
    target = _target(request, _payload(request))
    user_block(blocker=request.user, blocked=target)
    return _reply(
        request,
        {
            "ok": True,
            "author": target.display_name,
            "message": f"You will no longer see {target.display_name}'s messages "
            "or be paired with them.",
        },
    )


@sign_in_required
@require_POST
@_form_refusals
def unblock(request: SignedInRequest) -> HttpResponse:
    target = _target(request, _payload(request))
    user_unblock(blocker=request.user, blocked=target)
    return _reply(request, {"ok": True, "message": f"{target.display_name} is unblocked."})
