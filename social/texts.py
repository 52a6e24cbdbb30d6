"""What a notification says, in the reader's language: a notification keeps values
only (``kind``, ``params``), and its sentence is written when it is shown (a page, a
socket frame in the language of the page that opened it, an e-mail in the site's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


def notification_text(kind: str, params: dict[str, Any]) -> str:
    name = str(params.get("name", ""))
    if kind == "challenge":
        return gettext("%(name)s challenges you to a match.") % {"name": name}
    if kind == "friend":
        return gettext("%(name)s followed you back: you are friends now.") % {"name": name}
    if kind == "follow":
        return gettext("%(name)s follows you.") % {"name": name}
    if kind == "tournament":
        return gettext("%(name)s starts in five minutes.") % {"name": name}
    if kind == "turn":
        return gettext("Your move against %(name)s.") % {"name": name}
    if kind == "moderation":
        if params.get("action") == "fairplay_remove":
            return gettext(
                "A moderator removed you from the leaderboards after a fair-play review. "
                "Reason: %(reason)s"
            ) % {"reason": params.get("reason", "")}
        if params.get("action") == "mute":
            return gettext("A moderator muted you in chat. Reason: %(reason)s") % {
                "reason": params.get("reason", "")
            }
        return gettext("A moderator warned you. Reason: %(reason)s") % {
            "reason": params.get("reason", "")
        }
    return gettext("Something happened on the site.")


def email_kind_label(kind: str) -> str:
    return {
        "challenge": gettext("challenges"),
        "turn": gettext("your turn in a correspondence match"),
        "tournament": gettext("tournaments starting"),
    }.get(kind, kind)
