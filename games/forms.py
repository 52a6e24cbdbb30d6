"""Lobby forms: a variant plus the options a player may tweak, turned into an
engine ``RuleSet``; the computer form adds the level."""

from __future__ import annotations

import json
from typing import Any

from django import forms

from games.bots import LEVELS
from games.bots.ratings import level_label
from games.engine import TARGET_SCORES, TURN_SECONDS, RuleSet

LEVEL_CHOICES = [(level, level_label(level)) for level in LEVELS]
"""Each level with its measured rating ("Expert ≈ 1700", ``games/bots/ratings.py``)."""
VARIANT_CHOICES = [
    ("default", "Default"),
    ("time_freedom", "Time Freedom"),
    ("straight", "Straight Gin"),
    ("oklahoma", "Oklahoma"),
]
VARIANT_HELP = {
    "default": "Knock with 10 or less, turn clock.",
    "time_freedom": "Default rules, no clock: take your time.",
    "straight": "No knocking: only gin ends a hand.",
    "oklahoma": "The upcard sets the knock limit.",
}
BONUS_FIELDS = ("gin_bonus", "undercut_bonus", "big_gin_bonus", "game_bonus", "line_bonus")

_default = RuleSet.default()


def _bonus(label: str, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=1000, initial=initial)


class RulesForm(forms.Form):
    """The variant and the options of docs/rules.md; ``rules()`` gives the RuleSet."""

    variant = forms.ChoiceField(
        choices=VARIANT_CHOICES,
        initial="default",
        # site.js shows the chosen variant's line from data-help under the choices.
        widget=forms.RadioSelect(attrs={"data-help": json.dumps(VARIANT_HELP)}),
        help_text=VARIANT_HELP["default"],
    )
    target_score = forms.TypedChoiceField(
        label="Play to",
        choices=[(t, f"{t} points") for t in TARGET_SCORES],
        coerce=int,
        initial=_default.target_score,
    )
    knock_limit = forms.IntegerField(
        label="Knock limit",
        min_value=0,
        max_value=10,
        initial=_default.knock_limit,
        help_text="Default and Time Freedom only.",
    )
    turn_seconds = forms.TypedChoiceField(
        label="Clock per turn",
        choices=[(s, f"{s} seconds") for s in TURN_SECONDS],
        coerce=int,
        initial=_default.turn_seconds,
        help_text="Time Freedom has no clock.",
    )
    gin_bonus = _bonus("Gin bonus", _default.gin_bonus)
    undercut_bonus = _bonus("Undercut bonus", _default.undercut_bonus)
    big_gin_bonus = _bonus("Big gin bonus", _default.big_gin_bonus)
    game_bonus = _bonus("Game bonus", _default.game_bonus)
    line_bonus = _bonus("Line bonus (per hand won)", _default.line_bonus)
    big_gin_allowed = forms.BooleanField(label="Big gin allowed", required=False, initial=True)
    shutout = forms.BooleanField(label="Shutout doubles", required=False, initial=True)
    oklahoma_ace_gin_only = forms.BooleanField(
        label="Oklahoma: an ace upcard means gin only", required=False, initial=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self._rules = self._build_rules(data)
        except ValueError as error:
            raise forms.ValidationError(f"These rules are not valid: {error}.") from error
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
        choices=LEVEL_CHOICES,
        initial="easy",
        widget=forms.RadioSelect,
        help_text="≈ the level's Elo rating, measured against the easy computer (1500).",
    )

    field_order = ["level", "variant"]


def variant_label(variant: str) -> str:
    """The name people read for a variant ("Time Freedom" for ``time_freedom``)."""
    return dict(VARIANT_CHOICES).get(variant, variant.replace("_", " ").capitalize())


def rules_summary(rules: dict[str, Any], variant: str) -> str:
    """One line describing a match's rules, for lists and headers."""
    parts = [variant_label(variant), f"to {rules.get('target_score')}"]
    seconds = rules.get("turn_seconds")
    parts.append(f"{seconds} s clock" if seconds else "no clock")
    return " · ".join(parts)
