"""Celery tasks of fair play: the periodic detection (beat's ``fairplay-detect``; the
embedded scheduler runs it in the README's run mode) and the check of one pair after
its rated match. Each calls one service; both may run twice (a flag strengthens the
open case instead of opening another)."""

from celery import shared_task

from . import services


@shared_task(name="fairplay.detect", acks_late=True, ignore_result=True)
def detect() -> None:
    services.detection_run()


@shared_task(name="fairplay.pair_check", acks_late=True, ignore_result=True)
def pair_check(user_ids: list[int]) -> None:
    services.pair_check(user_ids=user_ids)
