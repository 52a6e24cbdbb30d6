"""Lobby forms: a variant plus the options a player may tweak, turned into an
engine ``RuleSet``; the computer form adds the level."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.bots import LEVELS
from games.bots.ratings import RATINGS
from games.engine import TARGET_SCORES, TURN_SECONDS, RuleSet

LEVEL_NAMES = {
    "easy": pgettext_lazy("computer level", "Easy"),
    "medium": pgettext_lazy("computer level", "Medium"),
    "hard": pgettext_lazy("computer level", "Hard"),
    "expert": pgettext_lazy("computer level", "Expert"),
}


def level_name(level: str) -> str:
    """A computer level's name in the page's language ("Expert")."""
    return str(LEVEL_NAMES.get(level, level.capitalize()))


def level_choice(level: str) -> str:
    """"Expert ≈ 1,700" (games/bots/ratings.py's level_label) in the page's language: its
    name translated, its rating grouped as the language writes thousands."""
    rating = number_format(RATINGS[level], use_l10n=True, force_grouping=True)
    return f"{level_name(level)} ≈ {rating}"


def LEVEL_CHOICES() -> list[tuple[str, str]]:
    """Each level with its measured rating ("Expert ≈ 1,700"), named when read."""
    return [(level, level_choice(level)) for level in LEVELS]


VARIANT_CHOICES = [
    ("default", pgettext_lazy("variant", "Default")),
    ("time_freedom", gettext_lazy("Time Freedom")),
    ("straight", gettext_lazy("Straight Gin")),
    ("oklahoma", gettext_lazy("Oklahoma")),
]
VARIANT_HELP = {
    "default": gettext_lazy("Knock with 10 or less, turn clock."),
    "time_freedom": gettext_lazy("Default rules, no clock: take your time."),
    "straight": gettext_lazy("No knocking: only gin ends a hand."),
    "oklahoma": gettext_lazy("The upcard sets the knock limit."),
}
BONUS_FIELDS = ("gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "line_bonus")

_default = RuleSet.default()


def _target_choices() -> list[tuple[int, str]]:
    return [(t, _("%(points)s points") % {"points": t}) for t in TARGET_SCORES]


def _clock_choices() -> list[tuple[int, str]]:
    return [(s, _("%(seconds)s seconds") % {"seconds": s}) for s in TURN_SECONDS]


def _bonus(label: Any, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=1000, initial=initial)


class RulesForm(forms.Form):
    """The variant and the options of docs/rules.md; ``rules()`` gives the RuleSet."""

    variant = forms.ChoiceField(
        label=gettext_lazy("Variant"),
        choices=VARIANT_CHOICES,
        initial="default",
        # site.js shows the chosen variant's line from data-help under the choices
        # (written in the page's language by __init__).
        widget=forms.RadioSelect,
        help_text=VARIANT_HELP["default"],
    )
    target_score = forms.TypedChoiceField(
        label=gettext_lazy("Play to"),
        choices=_target_choices,
        coerce=int,
        initial=_default.target_score,
    )
    knock_limit = forms.IntegerField(
        label=gettext_lazy("Knock limit"),
        min_value=0,
        max_value=10,
        initial=_default.knock_limit,
        help_text=gettext_lazy("Default and Time Freedom only."),
    )
    turn_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Clock per turn"),
        choices=_clock_choices,
        coerce=int,
        initial=_default.turn_seconds,
        help_text=gettext_lazy("Time Freedom has no clock."),
    )
    gin_bonus = _bonus(gettext_lazy("Gin bonus"), _default.gin_bonus)
    undercut_bonus = _bonus(gettext_lazy("Undercut bonus"), _default.undercut_bonus)
    big_gin_bonus = _bonus(gettext_lazy("Big gin bonus"), _default.big_gin_bonus)
    game_bonus = _bonus(gettext_lazy("Game bonus"), _default.game_bonus)
    line_bonus = _bonus(gettext_lazy("Line bonus (per hand won)"), _default.line_bonus)
    big_gin_allowed = forms.BooleanField(
        label=gettext_lazy("Big gin allowed"), required=False, initial=True
    )
    shutout = forms.BooleanField(
        label=gettext_lazy("Shutout doubles"), required=False, initial=True
    )
    oklahoma_ace_gin_only = forms.BooleanField(
        label=gettext_lazy("Oklahoma: an ace upcard means gin only"), required=False,
        initial=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        help_lines = {key: str(line) for key, line in VARIANT_HELP.items()}
        self.fields["variant"].widget.attrs["data-help"] = json.dumps(help_lines)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self._rules = self._build_rules(data)
        except ValueError as error:
            raise forms.ValidationError(
                _("These rules are not valid: %(error)s.") % {"error": error}
            ) from error
        return data

    @staticmethod
    def _build_rules(data: dict[str, Any]) -> RuleSet:
        variant = data["variant"]
        base = RuleSet.preset(variant)
        changes: dict[str, Any] = {
            "target_score": data["target_score"],
            "game_bonus": data["game_bonus"],
            "line_bonus": data["line_bonus"],
            "undercut_bonus": data["undercut_bonus"],
            "shutout": data["shutout"],
            "big_gin_allowed": data["big_gin_allowed"],
            "turn_seconds": None if variant == "time_freedom" else data["turn_seconds"],
        }
        if not base.straight:
            # Straight Gin pays no gin or big gin bonus and never knocks (docs/rules.md section 8).
            changes["gin_bonus"] = data["gin_bonus"]
            changes["big_gin_bonus"] = data["big_gin_bonus"]
            if not base.oklahoma:
                changes["knock_limit"] = data["knock_limit"]
        if base.oklahoma:
            changes["oklahoma_ace_gin_only"] = data["oklahoma_ace_gin_only"]
        return base.replace(**changes)

    def rules(self) -> RuleSet:
        """The validated RuleSet (call after ``is_valid()``)."""
        return self._rules


class ComputerMatchForm(RulesForm):
    """Play the computer: the level first, then the rules."""

    level = forms.ChoiceField(
        label=gettext_lazy("Level"),
        choices=LEVEL_CHOICES,
        initial="easy",
        widget=forms.RadioSelect,
        help_text=lazy(lambda: _(
            "≈ the level's Elo rating, measured against the easy computer (%(rating)s)."
        ) % {"rating": number_format(RATINGS["easy"], use_l10n=True, force_grouping=True)},
            str)(),
    )

    field_order = ["level", "variant"]


def variant_label(variant: str) -> str:
    """The name people read for a variant ("Time Freedom" for ``time_freedom``)."""
    return str(dict(VARIANT_CHOICES).get(variant, variant.replace("_", " ").capitalize()))


def rules_summary(rules: dict[str, Any], variant: str) -> str:
    """One line describing a match's rules, for lists and headers."""
    parts = [variant_label(variant), _("to %(score)s") % {"score": rules.get("target_score")}]
    seconds = rules.get("turn_seconds")
    parts.append(_("%(seconds)s s clock") % {"seconds": seconds} if seconds else _("no clock"))
    return " · ".join(parts)

