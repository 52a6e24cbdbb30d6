"""``{% incoming_challenges %}``: the open challenges to the signed-in player, with
Accept and Decline buttons (a bot may challenge a person; the lobby shows it)."""

from typing import Any

from django import template

from games.api.selectors import challenges_to

register = template.Library()


@register.inclusion_tag("api/_incoming_challenges.html", takes_context=True)
def incoming_challenges(context: dict[str, Any]) -> dict[str, Any]:
    user = context.get("user")
    if user is None or not user.is_authenticated or user.is_guest:
        return {"challenges": []}
    challenges = challenges_to(user=user)
    return {"challenges": challenges, "csrf_token": context.get("csrf_token")}
