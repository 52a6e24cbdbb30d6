"""``python manage.py tournament_sim --format swiss|arena --players N [--rounds R |
--minutes M] --level easy --seed S --json OUT``: one complete tournament with
computer-controlled entrants (tournaments/simulate.py), on the configured database
(or the embedded one), with its JSON summary written to OUT ("-": standard output):

``{"format", "players": [name, ...], "pairings": [{"round", "seat0", "seat1",
"match", "winner"}], "standings": [{"rank", "player", "points", "wins", "losses",
"byes", "tiebreaks"}]}`` (``seat1`` null: a bye; ``round`` null in an arena).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.simulate import simulate


class Command(BaseCommand):
    help = "Run one complete simulated tournament and write its JSON summary."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=["swiss", "arena"])
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, default=None, help="Swiss rounds (3)")
        parser.add_argument("--minutes", type=int, default=None, help="arena length (30)")
        parser.add_argument("--level", default="easy")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--target", type=int, default=50, choices=[50, 100])
        parser.add_argument("--json", dest="out", default="-")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["format"] == "swiss" and options["minutes"] is not None:
            raise CommandError("--minutes is for an arena; a Swiss has --rounds")
        if options["format"] == "arena" and options["rounds"] is not None:
            raise CommandError("--rounds is for a Swiss; an arena has --minutes")
        try:
            result = simulate(format=options["format"], players=options["players"],
                              rounds=options["rounds"], minutes=options["minutes"],
                              level=options["level"], seed=options["seed"],
                              target=options["target"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        text = json.dumps(result, indent=1)
        if options["out"] == "-":
            sys.stdout.write(text + "\n")
        else:
            with open(options["out"], "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
