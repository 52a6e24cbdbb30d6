"""Celery tasks of the tournaments app: thin wrappers that pass ids to one service.

``acks_late`` with the settings' ``task_reject_on_worker_lost``: a worker killed
mid-task leaves the message to another; every service here locks the tournament and
checks its state first, so a redelivered task pairs nobody twice and starts no round
twice. ``now`` (ISO 8601, optional) lets the simulator run them on simulated time.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from . import services


def _when(now: str | None) -> datetime | None:
    return datetime.fromisoformat(now) if now else None


@shared_task(name="tournaments.tick", ignore_result=True)
def tick(now: str | None = None) -> dict:
    """Beat, every 2 s: start, pair, end, decide deadlines, publish. Not acks_late: a
    lost tick is replaced by the next one."""
    return services.tournaments_tick(now=_when(now))


@shared_task(name="tournaments.progress", acks_late=True, ignore_result=True)
def progress(tournament_id: int, now: str | None = None) -> str:
    """After a result or a join: pair the waiting players / the next round now."""
    return services.tournament_progress(tournament_id=tournament_id, now=_when(now))


@shared_task(name="tournaments.schedules", acks_late=True, ignore_result=True)
def schedules(now: str | None = None) -> int:
    return services.schedules_create_due(now=_when(now))


#: The simulator drives progress itself on simulated time.
ENQUEUE_PROGRESS = True


def enqueue_progress(tournament_id: int) -> None:
    """After commit of a result or a join: the ``progress`` task (in-process in the
    embedded mode, where Celery runs tasks eagerly)."""
    if ENQUEUE_PROGRESS:
        progress.delay(tournament_id)
