"""The form a registered player fills in to create a tournament (limits are checked
again by games.tournaments.services.tournament_create)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import services
from .models import TARGET_CHOICES, TURN_CHOICES, VARIANT_CHOICES, Format


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Name"))
    format = forms.ChoiceField(choices=Format.choices, initial=Format.ARENA, label=_("Format"))
    starts_in = forms.IntegerField(min_value=1, max_value=60 * 24 * 14, initial=10,
                                   label=_("Starts in (minutes)"))
    duration_minutes = forms.TypedChoiceField(
        choices=lambda: [(m, gettext("%(minutes)s minutes") % {"minutes": m})
                         for m in services.ARENA_MINUTES],
        coerce=int, initial=60, label=_("Arena length"))
    rounds = forms.IntegerField(min_value=1, max_value=services.PLAYER_MAX_ROUNDS, initial=5,
                                label=_("Swiss rounds"))
    round_minutes = forms.IntegerField(min_value=5, max_value=120, initial=30,
                                       label=_("Swiss round deadline (minutes)"))
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial="default", label=_("Variant"))
    target_score = forms.TypedChoiceField(choices=TARGET_CHOICES[:2], coerce=int, initial=50,
                                          label=_("Match to"))
    turn_seconds = forms.TypedChoiceField(choices=TURN_CHOICES, coerce=int, initial=30,
                                          label=_("Turn clock"))
    max_players = forms.IntegerField(min_value=2, max_value=services.PLAYER_MAX_PLAYERS,
                                     initial=32, label=_("Most players"))
    public = forms.BooleanField(required=False, initial=True,
                                label=_("Public (otherwise: invite link only)"))

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["starts_at"] = timezone.now() + timedelta(minutes=data.pop("starts_in"))
        return data
