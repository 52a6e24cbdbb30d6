"""Player pages: a public profile per player, the account settings page (email and
password links, blocked players, moderation notices, account deletion), the table
settings page (for everyone: accounts/display.py) and the chat etiquette page.
Thin: selectors and services do the work."""

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.chat.selectors import blocked_between, blocked_users
from ginsite.http import SignedInRequest
from ginsite.i18n import supported

from . import display, selectors, services
from .models import Profile


class TableSettingsForm(forms.ModelForm):
    """The table settings (accounts/display.py), for an account or a browser."""

    class Meta:
        model = Profile
        fields = list(display.FIELDS)
        labels = {
            "card_size": gettext_lazy("Card size"),
            "card_style": gettext_lazy("Card faces"),
            "four_colour_deck": gettext_lazy("Four-colour deck (clubs green, diamonds blue)"),
            "card_back": gettext_lazy("Card backs"),
            "theme": gettext_lazy("Table colours"),
            "motion": gettext_lazy("Animations"),
            "sound_on": gettext_lazy("Sound effects"),
            "volume": gettext_lazy("Volume"),
            "hand_sort": gettext_lazy("Sort my hand"),
            "left_handed": gettext_lazy(
                "Left-handed layout (buttons, piles and panel on the left)"
            ),
            "confirm_discard": gettext_lazy("Confirm before discarding (press a card twice)"),
        }
        widgets = {
            "card_size": forms.RadioSelect, "theme": forms.RadioSelect,
            "hand_sort": forms.RadioSelect,
            "volume": forms.NumberInput(attrs={"type": "range", "min": 0, "max": 100, "step": 5}),
        }


class DeleteAccountForm(forms.Form):
    confirm = forms.CharField(
        label=gettext_lazy("Type your username to confirm"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username

    def clean_confirm(self) -> str:
        if self.cleaned_data["confirm"].strip() != self.username:
            raise forms.ValidationError(_("That is not your username: nothing was deleted."))
        return self.cleaned_data["confirm"]


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = selectors.user_by_username(username=username)
    if player is None:
        raise Http404(_("No such player."))
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
    delete_form: DeleteAccountForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    return render(
        request,
        "accounts/settings.html",
        {
            "delete_form": delete_form or DeleteAccountForm(username=user.username),
            "blocked": blocked_users(user=user),
            "mute": selectors.active_mute(user=user),
            "warnings": selectors.recent_warnings(user=user),
        },
        status=status,
    )


@login_required
@require_GET
def account_settings(request: SignedInRequest) -> HttpResponse:
    return _settings_page(request)


def table_settings(request: HttpRequest) -> HttpResponse:
    """The table settings, for everyone. A registered player's are saved on the account;
    a visitor's or a guest's are kept by their browser (prefs.js saves the form there
    instead of sending it; a guest's form sent without scripts is saved on the guest's
    row, which signing up keeps)."""
    user = request.user
    status = 200
    if request.method == "POST":
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = TableSettingsForm(request.POST)
        if form.is_valid():
            services.profile_update(user=user, **form.cleaned_data)
            messages.success(request, _("Your table settings are saved."))
            return redirect("accounts:table_settings")
        status = 400
    else:
        profile = selectors.profile_get(user=user) if user.is_authenticated else Profile()
        form = TableSettingsForm(initial={name: getattr(profile, name) for name in display.FIELDS})
    return render(
        request, "accounts/table_settings.html",
        {"form": form, "on_account": user.is_authenticated and not user.is_guest},
        status=status,
    )


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
    messages.info(
        request, _("Your account is deleted. Your past matches stay as “deleted player”.")
    )
    return redirect("/")


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    """The footer's chooser: the page comes back in the chosen language, at the same
    address. Saved on the account when signed in (guests too), and in a cookie for
    everyone (a visitor's only record of it)."""
    language = supported(request.POST.get("language", "")) or settings.LANGUAGE_CODE
    if request.user.is_authenticated:
        services.user_language_set(user=request.user, language=language)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = redirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language,
        max_age=settings.LANGUAGE_COOKIE_AGE, samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def etiquette(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/etiquette.html")
