"""What the social app shows on other apps' pages: the follow button of a profile
(templates/accounts/profile.html) and the social settings on the account settings page."""

from __future__ import annotations

from typing import Any

from django import template

from games.chat.selectors import blocked_between
from social import selectors
from social.forms import settings_form

register = template.Library()


@register.inclusion_tag("social/_follow.html", takes_context=True)
def follow_button(context: dict[str, Any], player: Any) -> dict[str, Any]:
    viewer = context["user"]
    show = (
        viewer.is_authenticated and not viewer.is_guest and viewer.pk != player.pk
        and not player.is_guest and not blocked_between(viewer, player)
    )
    following = show and selectors.is_following(follower=viewer, followee=player)
    follows_me = show and selectors.is_following(follower=player, followee=viewer)
    return {
        "show": show, "player": player, "following": following, "follows_me": follows_me,
        "friends": following and follows_me, "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("social/_settings.html", takes_context=True)
def social_settings(context: dict[str, Any]) -> dict[str, Any]:
    return {
        "settings_form": settings_form(context["user"]), "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
    }
