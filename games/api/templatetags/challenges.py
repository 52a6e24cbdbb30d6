"""``{% incoming_challenges %}``: the open challenges to the signed-in player, with
Accept and Decline buttons (a bot may challenge a person; the lobby shows it, and
games/static/games/challenges.js adds and removes them live from the lobby socket)."""

from typing import Any

from django import template

from games.api.selectors import challenges_to

register = template.Library()


@register.inclusion_tag("api/_incoming_challenges.html", takes_context=True)
def incoming_challenges(context: dict[str, Any]) -> dict[str, Any]:
    user = context.get("user")
    if user is None or not user.is_authenticated or user.is_guest or user.is_bot:
        return {"challenges": [], "signed_in": False}
    challenges = challenges_to(user=user)
    return {"challenges": challenges, "signed_in": True, "csrf_token": context.get("csrf_token")}
