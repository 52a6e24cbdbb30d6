"""Correspondence play on other pages: the lobby's list of the player's correspondence
matches (those waiting for their move first) and the vacation form of the account
settings page."""

from __future__ import annotations

from typing import Any

from django import template

from games import selectors

register = template.Library()


@register.inclusion_tag("games/_correspondence.html", takes_context=True)
def correspondence_matches(context: dict[str, Any]) -> dict[str, Any]:
    user = context.get("user")
    rows = (
        selectors.correspondence_rows(user=user)
        if user is not None and user.is_authenticated and not user.is_guest else []
    )
    return {"rows": rows}


@register.inclusion_tag("games/_vacation.html", takes_context=True)
def vacation_settings(context: dict[str, Any]) -> dict[str, Any]:
    return {**selectors.vacation_state(user=context["user"]),
            "csrf_token": context.get("csrf_token")}
