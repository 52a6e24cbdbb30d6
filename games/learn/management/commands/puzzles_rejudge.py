"""``manage.py puzzles_rejudge``: ask the knock puzzles in play again whether the hard
computer knocks there too (the generator's check since the knock answers were measured:
docs/benchmarks.md, "Puzzles"), retire those where it waits (``--dry-run``: only
count them), and print the tally. Retired puzzles stay, with their attempts; staff can
put one back in play from the admin."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand

from games.learn import services


class Command(BaseCommand):
    help = "Retire the knock puzzles whose knock the hard computer would not make."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--limit", type=int, default=None, metavar="N",
                            help="ask at most N knock puzzles, oldest first")
        parser.add_argument("--dry-run", action="store_true",
                            help="count the puzzles it would retire, retire none")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.process_time()
        tally: dict[str, Any] = services.puzzles_rejudge(
            limit=options["limit"], dry_run=options["dry_run"]
        )
        tally["cpu_seconds"] = round(time.process_time() - started, 1)
        self.stdout.write(json.dumps(tally))
