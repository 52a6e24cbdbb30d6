"""The form of a player's social settings (the notifications page and the account
settings page show it; social/views.py takes it)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from . import selectors


class SocialSettingsForm(forms.Form):
    online_private = forms.BooleanField(
        required=False, label=gettext_lazy("Hide when I am online or playing from my friends")
    )
    email_challenge = forms.BooleanField(
        required=False, label=gettext_lazy("E-mail me challenges while I am away")
    )
    email_turn = forms.BooleanField(
        required=False, label=gettext_lazy("E-mail me when it is my turn in a correspondence match")
    )
    email_tournament = forms.BooleanField(
        required=False, label=gettext_lazy("E-mail me when a tournament I joined starts")
    )


def settings_form(user: Any) -> SocialSettingsForm:
    """The form filled with the player's settings as they are."""
    row = selectors.settings_get(user=user)
    return SocialSettingsForm(initial={
        name: getattr(row, name) for name in SocialSettingsForm.base_fields
    })
