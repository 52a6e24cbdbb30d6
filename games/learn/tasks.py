"""Celery task of learning: the periodic job that keeps the puzzle collection growing
(beat's ``learn-puzzles``, on the analysis queue: it is the analysis's kind of work)
from the newest finished hands of rated matches and a few hands of self-play."""

import time

from celery import shared_task
from django.conf import settings

from . import services


@shared_task(name="learn.puzzles_generate", acks_late=True, ignore_result=True)
def puzzles_generate() -> None:
    services.puzzles_generate(
        from_matches=settings.PUZZLES_PER_RUN_FROM_MATCHES,
        self_play=settings.PUZZLES_PER_RUN_SELF_PLAY,
        seed=int(time.time()),
    )
