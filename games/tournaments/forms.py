"""The form a registered player fills in to create a tournament (limits are checked
again by games.tournaments.services.tournament_create)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone

from . import services
from .models import TARGET_CHOICES, TURN_CHOICES, VARIANT_CHOICES, Format


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80)
    format = forms.ChoiceField(choices=Format.choices, initial=Format.ARENA)
    starts_in = forms.IntegerField(min_value=1, max_value=60 * 24 * 14, initial=10,
                                   label="Starts in (minutes)")
    duration_minutes = forms.TypedChoiceField(
        choices=[(m, f"{m} minutes") for m in services.ARENA_MINUTES], coerce=int, initial=60,
        label="Arena length")
    rounds = forms.IntegerField(min_value=1, max_value=services.PLAYER_MAX_ROUNDS, initial=5,
                                label="Swiss rounds")
    round_minutes = forms.IntegerField(min_value=5, max_value=120, initial=30,
                                       label="Swiss round deadline (minutes)")
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial="default")
    target_score = forms.TypedChoiceField(choices=TARGET_CHOICES[:2], coerce=int, initial=50,
                                          label="Match to")
    turn_seconds = forms.TypedChoiceField(choices=TURN_CHOICES, coerce=int, initial=30,
                                          label="Turn clock")
    max_players = forms.IntegerField(min_value=2, max_value=services.PLAYER_MAX_PLAYERS,
                                     initial=32)
    public = forms.BooleanField(required=False, initial=True,
                                label="Public (otherwise: invite link only)")

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["starts_at"] = timezone.now() + timedelta(minutes=data.pop("starts_in"))
        return data
