"""What the social side does when others tell it something (games/events.py, subscribed
after commit in social/apps.py): a challenge offered tells the challenged player; a
moderator's warning or mute tells the player."""

from __future__ import annotations

from django.urls import reverse

from accounts.models import User
from games.events import ChallengeOffered, PlayerModerated

from . import services


def on_challenge_offered(event: ChallengeOffered) -> None:
    users = {u.pk: u for u in User.objects.filter(pk__in=[event.challenger_id, event.dest_id])}
    challenger, dest = users.get(event.challenger_id), users.get(event.dest_id)
    if challenger is None or dest is None:
        return
    services.notification_create(
        user=dest, kind="challenge", params={"name": challenger.display_name},
        url=reverse("api:challenge_page", args=[event.challenge_id]),
    )


def on_player_moderated(event: PlayerModerated) -> None:
    user = User.objects.filter(pk=event.user_id).first()
    if user is None:
        return
    services.notification_create(
        user=user, kind="moderation", params={"action": event.action, "reason": event.reason},
        url=reverse("accounts:settings"),
    )
