"""``{% load chat %}{% chat_panel %}`` (lobby), ``{% chat_panel match %}`` (a table) or
``{% chat_panel tournament=t %}`` (a tournament's room): the chat panel partial
(templates/chat/_panel.html) with what the viewer may do."""

from typing import Any

from django import template
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors import active_mute
from games.chat.models import ChatReport
from games.chat.selectors import chat_can_read, seat_of, tournament_chat_writer
from games.models import Match

register = template.Library()

# Sent as written, in the sender's language.
QUICK_PHRASES = [
    gettext_lazy("Hi!"), gettext_lazy("Good luck"), gettext_lazy("Good game"),
    gettext_lazy("Nice gin!"), gettext_lazy("Well played"), gettext_lazy("Thanks"),
    gettext_lazy("Oops"),
]
QUICK_EMOJI = ["👍", "😄", "😮", "😅", "🎉", "🙏"]


@register.inclusion_tag("chat/_panel.html", takes_context=True)
def chat_panel(
    context: template.Context, match: Match | None = None, tournament: Any = None
) -> dict:
    request = context["request"]
    user = request.user
    match_id = match.pk if match is not None else None
    tournament_id = tournament.pk if tournament is not None and match is None else None
    readable = chat_can_read(user=user, match_id=match_id, tournament_id=tournament_id)
    if not user.is_authenticated:
        cannot_write = _("Sign in to chat.")
    elif user.is_guest:
        cannot_write = _("Guests cannot chat: sign up to chat.")
    elif match_id is not None and seat_of(user=user, match_id=match_id) is None:
        cannot_write = _("Only the players chat at this table.")
    elif tournament_id is not None and not tournament_chat_writer(
        user=user, tournament_id=tournament_id
    ):
        cannot_write = _("Join the tournament to chat here.")
    else:
        cannot_write = ""
    mute = active_mute(user=user) if user.is_authenticated and not cannot_write else None
    return {
        "request": request,
        "match_id": match_id,
        "tournament_id": tournament_id,
        "readable": readable,
        "cannot_write": cannot_write,
        "mute": mute,
        "me": user.display_name if user.is_authenticated else "",
        "max_length": settings.CHAT_MAX_LENGTH,
        "quick_phrases": [str(phrase) for phrase in QUICK_PHRASES],
        "quick_emoji": QUICK_EMOJI,
        "reasons": ChatReport.Reason.choices,
        "csrf_token": context.get("csrf_token"),
    }
