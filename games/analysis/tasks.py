"""Celery tasks of the analysis, on their own queue ("analysis", see the
settings' CELERY_TASK_ROUTES and docs/operations.md) so that live computer turns
never wait behind an analysis. Each takes ids and calls one service; both are
idempotent (a redelivered task finds the hand analysed, or claimed)."""

from celery import shared_task

from . import services


@shared_task(name="analysis.hand_analyse", acks_late=True, ignore_result=True)
def hand_analyse(hand_id: int) -> None:
    services.hand_analyse(hand_id=hand_id)


@shared_task(name="analysis.sweep", acks_late=True, ignore_result=True)
def sweep() -> None:
    services.analysis_sweep()
