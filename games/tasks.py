"""Celery tasks of the games app: thin wrappers that pass ids to one service.

``acks_late`` (with the settings' ``task_reject_on_worker_lost``): a worker that
dies mid-task leaves the message to another worker; the services check the match
version, so a redelivered or late task moves at most once.
"""

from celery import shared_task

from games import services
from games.services import correspondence


@shared_task(name="games.bot_turn_play", acks_late=True, ignore_result=True)
def bot_turn_play(match_id: int, expected_version: int) -> None:
    services.bot_turn_play(match_id=match_id, expected_version=expected_version)


@shared_task(name="games.clock_expire", acks_late=True, ignore_result=True)
def clock_expire(match_id: int, expected_version: int) -> None:
    services.clock_expire(match_id=match_id, expected_version=expected_version)


@shared_task(name="games.clock_sweep", acks_late=True, ignore_result=True)
def clock_sweep() -> None:
    services.clock_sweep()


@shared_task(name="games.clock_tick", ignore_result=True)
def clock_tick() -> None:
    """Every second (beat): the matches whose clock is due. Not acks_late: a lost tick
    is replaced by the next one."""
    services.clock_tick()


@shared_task(name="games.invites_expire", acks_late=True, ignore_result=True)
def invites_expire() -> int:
    return services.invites_expire()


@shared_task(name="games.correspondence_clock", acks_late=True, ignore_result=True)
def correspondence_clock() -> None:
    """Every five minutes (beat): the correspondence matches whose turn ran out
    (games/services/correspondence.py)."""
    correspondence.correspondence_clock_run()
