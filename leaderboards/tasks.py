"""Celery tasks: the beat-scheduled board refresh and rating sweep, and the per-match
rating update enqueued on commit. Each takes ids only and calls one service."""

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from leaderboards import services


@shared_task(name="leaderboards.refresh_boards")
def refresh_boards() -> int:
    """Recompute the current (and finalise the ended) weekly and monthly boards and the
    computer-opponent boards; returns how many period boards were computed."""
    boards = services.boards_refresh(now=timezone.now())
    services.computer_boards_recompute()
    return len(boards)


@shared_task(
    name="leaderboards.apply_match_rating",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def apply_match_rating(match_id: int) -> bool:
    return services.rating_apply_match(match_id=match_id)


@shared_task(
    name="leaderboards.apply_correspondence_rating",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def apply_correspondence_rating(match_id: int) -> bool:
    return services.correspondence_rating_apply(match_id=match_id)


@shared_task(name="leaderboards.apply_pending_ratings")
def apply_pending_ratings() -> int:
    return services.ratings_apply_pending()
