"""Celery tasks of the social side: the e-mail of one notification, off the request path
(social/services.py ``email_send``: it may run twice, the hourly limit sends one), and
beat's ``social-tournament-reminders`` (every minute: the entrants of a tournament
starting within five minutes told once; on the hour, the notifications read more than
90 days ago deleted)."""

from celery import shared_task
from django.utils import timezone

from . import services


@shared_task(name="social.email_send", acks_late=True, ignore_result=True)
def email_send(notification_id: int) -> None:
    services.email_send(notification_id=notification_id)


@shared_task(name="social.tournament_reminders", acks_late=True, ignore_result=True)
def tournament_reminders() -> None:
    services.tournament_reminders_send()
    now = timezone.now()
    if now.minute == 0:  # once an hour: the old read notifications and e-mail records
        services.notifications_prune(now=now)
