"""The home page's part of learning: today's puzzle and the way to the lessons
(``{% load learn %}{% daily_puzzle %}``), so that the core's home view asks nothing
of this app."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext

from games.learn import selectors
from games.learn.core.puzzles import THEME_NAMES

register = template.Library()


@register.inclusion_tag("learn/_daily.html")
def daily_puzzle() -> dict[str, Any]:
    puzzle = selectors.puzzle_daily(day=timezone.now().date())
    if puzzle is None:
        return {"puzzle": None}
    return {
        "puzzle": puzzle,
        "rating": round(puzzle.rating),
        "themes": [gettext(THEME_NAMES[t]) for t in puzzle.themes if t in THEME_NAMES],
    }
