"""Player pages: a public profile per player, the account settings page (display
preferences, email and password links, blocked players, moderation notices,
account deletion) and the chat etiquette page. Thin: selectors and services do
the work."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games.chat.selectors import blocked_between, blocked_users
from ginsite.http import SignedInRequest
from ginsite.i18n import supported

from . import selectors, services
from .models import Profile


class PreferencesForm(forms.Form):
    card_style = forms.ChoiceField(choices=Profile.CardStyle.choices, label="Card style")
    sound_on = forms.BooleanField(required=False, label="Sound effects")
    four_colour_deck = forms.BooleanField(
        required=False, label="Four-colour deck (clubs green, diamonds blue)"
    )


class DeleteAccountForm(forms.Form):
    confirm = forms.CharField(
        label="Type your username to confirm",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username

    def clean_confirm(self) -> str:
        if self.cleaned_data["confirm"].strip() != self.username:
            raise forms.ValidationError("That is not your username: nothing was deleted.")
        return self.cleaned_data["confirm"]


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.user_by_username(username=username)
    if player is None:
        raise Http404("No such player.")
    viewer = request.user
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "stats": selectors.player_stats(user=player),
            "recent": selectors.recent_matches(user=player),
            "is_me": viewer.is_authenticated and viewer.pk == player.pk,
            "can_block": viewer.is_authenticated and not viewer.is_guest and viewer.pk != player.pk,
            "blocked": viewer.is_authenticated and blocked_between(viewer, player),
        },
    )


def _settings_page(
    request: SignedInRequest,
    *,
    preferences: PreferencesForm | None = None,
    delete_form: DeleteAccountForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    prefs = selectors.profile_get(user=user)
    return render(
        request,
        "accounts/settings.html",
        {
            "preferences": preferences
            or PreferencesForm(
                initial={
                    "card_style": prefs.card_style,
                    "sound_on": prefs.sound_on,
                    "four_colour_deck": prefs.four_colour_deck,
                }
            ),
            "delete_form": delete_form or DeleteAccountForm(username=user.username),
            "blocked": blocked_users(user=user),
            "mute": selectors.active_mute(user=user),
            "warnings": selectors.recent_warnings(user=user),
        },
        status=status,
    )


@login_required
def account_settings(request: SignedInRequest) -> HttpResponse:
    if request.method != "POST":
        return _settings_page(request)
    form = PreferencesForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, preferences=form, status=400)
    services.profile_update(user=request.user, **form.cleaned_data)
    messages.success(request, "Your preferences are saved.")
    return redirect("accounts:settings")


@login_required
@require_POST
def account_delete(request: SignedInRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST, username=request.user.username)
    if not form.is_valid():
        return _settings_page(request, delete_form=form, status=400)
    try:
        services.account_delete(user=request.user)
    except services.AccountError as error:
        form.add_error(None, str(error))
        return _settings_page(request, delete_form=form, status=400)
    logout(request)
    messages.info(request, "Your account is deleted. Your past matches stay as “deleted player”.")
    return redirect("/")


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """The footer's chooser: the page comes back in the chosen language, at the same
    address. Saved on the account when signed in (guests too), and in a cookie for
    everyone (a visitor's only record of it)."""
    language = supported(request.POST.get("language", "")) or settings.LANGUAGE_CODE
    if request.user.is_authenticated:
        services.user_language_set(user=request.user, language=language)  # type: ignore[arg-type]
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language,
        max_age=settings.LANGUAGE_COOKIE_AGE, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=request.is_secure(),
    )
    return response


def etiquette(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/etiquette.html")
