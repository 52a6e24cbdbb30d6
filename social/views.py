"""Pages of the social side: the friends list (who is online, playing, their rating, a
challenge from the list), following and unfollowing from a profile, the notifications
(opened: marked read, then on to what it is about), the settings of online status and
e-mails, and the signed one-click unsubscribe of an e-mail. Thin: selectors and
services do the work; a refusal of a form post comes back as a message on the page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.selectors import user_by_username
from ginsite.errors import AppError
from ginsite.http import SignedInRequest

from . import selectors, services
from .forms import SocialSettingsForm, settings_form
from .texts import email_kind_label, notification_text


def _player(username: str) -> object:
    player = user_by_username(username=username)
    if player is None:
        raise Http404(gettext("No such player."))
    return player


@login_required
@require_GET
def friends(request: SignedInRequest) -> HttpResponse:
    return render(request, "social/friends.html", {
        "rows": selectors.friends_list(user=request.user),
        "followers": selectors.followers_not_followed(user=request.user),
    })


@login_required
@require_POST
def follow(request: SignedInRequest, username: str) -> HttpResponse:
    player = _player(username)
    try:
        services.follow_create(user=request.user, followee=player)  # type: ignore[arg-type]
    except AppError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("You follow %(name)s.") % {
            "name": player.display_name})  # type: ignore[attr-defined]
    return redirect(request.POST.get("next") or "social:friends")


@login_required
@require_POST
def unfollow(request: SignedInRequest, username: str) -> HttpResponse:
    player = _player(username)
    services.follow_delete(user=request.user, followee=player)  # type: ignore[arg-type]
    messages.info(request, gettext("You no longer follow %(name)s.") % {
        "name": player.display_name})  # type: ignore[attr-defined]
    return redirect(request.POST.get("next") or "social:friends")


@login_required
@require_GET
def notifications(request: SignedInRequest) -> HttpResponse:
    rows = [
        {"notification": n, "text": notification_text(n.kind, n.params)}
        for n in selectors.notifications_for(user=request.user)
    ]
    return render(request, "social/notifications.html", {
        "rows": rows, "settings_form": settings_form(request.user),
    })


@login_required
@require_GET
def notification_open(request: SignedInRequest, notification_id: int) -> HttpResponse:
    """Opening a notification marks it read and goes on to what it is about."""
    notification = services.notification_open(
        user=request.user, notification_id=notification_id
    )
    return redirect(notification.url)


@login_required
@require_POST
def read_all(request: SignedInRequest) -> HttpResponse:
    services.notifications_read_all(user=request.user)
    return redirect("social:notifications")


@login_required
@require_POST
def social_settings(request: SignedInRequest) -> HttpResponse:
    form = SocialSettingsForm(request.POST)
    form.is_valid()  # booleans: always valid
    try:
        services.settings_update(user=request.user, **form.cleaned_data)
    except AppError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Your notification settings are saved."))
    return redirect(request.POST.get("next") or "social:notifications")


@csrf_exempt  # a mail client's one-click POST (RFC 8058) carries no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The link of every e-mail: one click turns that kind of e-mail off, signed in or
    not (the signature names the player and the kind)."""
    user, kind = services.unsubscribe(token=token)
    return render(request, "social/unsubscribed.html", {
        "what": email_kind_label(kind), "email_user": user,
    })
