"""Template tags of tournaments: ``{% tournament_results user %}`` on the profile page
(tournaments/_results.html)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from games.tournaments import selectors

if TYPE_CHECKING:
    from accounts.models import User

register = template.Library()


@register.inclusion_tag("tournaments/_results.html")
def tournament_results(user: User) -> dict[str, Any]:
    return {"entries": selectors.player_results(user=user)}
