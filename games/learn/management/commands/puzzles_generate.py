"""``manage.py puzzles_generate``: look for puzzles in finished hands of rated matches
(``--from-matches N``, the newest not yet looked through) and in hands of the
computer's self-play (``--self-play N``), keep the clear and new ones, and print the
tally (games/learn/core/puzzles.py says what is kept)."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand

from games.learn import services


class Command(BaseCommand):
    help = "Generate puzzles from finished rated matches and from self-play."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--from-matches", type=int, default=0, metavar="N",
                            help="finished hands of rated matches to look through")
        parser.add_argument("--self-play", type=int, default=0, metavar="N",
                            help="hands of the computer against itself to play and look through")
        parser.add_argument("--seed", type=int, default=0, help="the first self-play deal's seed")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["from_matches"] and not options["self_play"]:
            options["from_matches"] = 50
        started = time.process_time()
        tally = services.puzzles_generate(
            from_matches=options["from_matches"], self_play=options["self_play"],
            seed=options["seed"],
        )
        tally["cpu_seconds"] = round(time.process_time() - started, 1)
        self.stdout.write(json.dumps(tally))
