"""Template tags of tournaments: ``{% tournament_results user %}`` on the profile page
(tournaments/_results.html)."""

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_results.html")
def tournament_results(user: object) -> dict:
    return {"entries": selectors.player_results(user=user)}
