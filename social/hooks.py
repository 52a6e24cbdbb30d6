"""What the social side does when others tell it something (games/events.py, subscribed
after commit in social/apps.py): a challenge offered tells the challenged player; a
moderator's warning or mute tells the player; in a correspondence match, the player
whose turn it is now is told (as the match starts, and each time the turn passes)."""

from __future__ import annotations

from django.urls import reverse

from games.events import (
    ChallengeOffered,
    FairPlayDecided,
    MatchStarted,
    MovePlayed,
    PlayerModerated,
)

from . import selectors, services


def on_challenge_offered(event: ChallengeOffered) -> None:
    users = selectors.users_by_id(user_ids=[event.challenger_id, event.dest_id])
    challenger, dest = users.get(event.challenger_id), users.get(event.dest_id)
    if challenger is None or dest is None:
        return
    services.notification_create(
        user=dest, kind="challenge", params={"name": challenger.display_name},
        url=reverse("api:challenge_page", args=[event.challenge_id]),
    )


def on_player_moderated(event: PlayerModerated) -> None:
    user = selectors.users_by_id(user_ids=[event.user_id]).get(event.user_id)
    if user is None:
        return
    services.notification_create(
        user=user, kind="moderation", params={"action": event.action, "reason": event.reason},
        url=reverse("accounts:settings"),
    )


def on_fair_play_decided(event: FairPlayDecided) -> None:
    user = selectors.users_by_id(user_ids=[event.user_id]).get(event.user_id)
    if user is None:
        return
    services.notification_create(
        user=user, kind="moderation",
        params={"action": f"fairplay_{event.decision}", "reason": event.reason},
        url=reverse("accounts:settings"),
    )


def _your_turn(match_id: int, to_move_user_id: int | None) -> None:
    seats = list(selectors.seats_of(match_id=match_id))
    player = next((s.user for s in seats if s.user_id == to_move_user_id), None)
    opponent = next((s.user for s in seats if s.user_id != to_move_user_id), None)
    if player is None:
        return
    services.notification_create(
        user=player, kind="turn",
        params={"name": opponent.display_name if opponent else "", "match_id": match_id},
        url=reverse("games:table", args=[match_id]),
    )


def on_move_played(event: MovePlayed) -> None:
    """A correspondence match's turn passed to a person: "your turn"."""
    if event.days_per_move and event.to_move is not None and event.to_move != event.by_seat:
        _your_turn(event.match_id, event.to_move_user_id)


def on_match_started(event: MatchStarted) -> None:
    """A correspondence match started: "your turn" to the player who begins."""
    if event.to_move is None or event.kind != "friend":
        return
    if selectors.is_correspondence(match_id=event.match_id):
        _your_turn(event.match_id, event.user_ids[event.to_move])
