"""``python manage.py fairplay_sim --honest N --assisted N --farmers N --matches M
[--seed S] [--share F] [--analysis-worlds W] [--json OUT] [--into-site-database]``:
a population of honest players, assisted players and farming pairs played through the
real services, the fair-play detection run after each round, and how well it did
(games/fairplay/simulate.py describes the population and the JSON).

Where it writes: by default into a throwaway database (a fresh one created beside the
configured one, migrated, and dropped at the end; on SQLite a temporary file), with the
events kept in the process, so the site, its players, its moderators and its workers
never see the simulated accounts, matches or cases. ``--into-site-database`` writes
them into the site's own database (the command says so before it starts).

The full population at the site's own settings costs hours of CPU (the analysis of
every hand, the expert's every consultation): ``--analysis-share``, ``--analysis-worlds``
and ``--expert-budget`` make a run cheaper (docs/benchmarks.md, "Fair play", says what
each costs and what it changes).

``--json OUT`` writes the summary to OUT ("-": standard output; the readable lines then
go to standard error): at least ``{"honest": {"accounts", "flagged"}, "assisted":
{"accounts", "flagged", "median_matches_to_flag"}, "farmers": {"pairs", "flagged"},
"seconds"}``; a farming pair counts as flagged when a case names both accounts.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import override_settings

from games.fairplay.simulate import simulate

#: Loggers that write a line per move, task or analysed hand (INFO): shown with -v 2.
CHATTY_LOGGERS = ("games.moves", "celery.app.trace", "games.analysis.services",
                  "games.fairplay.services")


class Command(BaseCommand):
    help = ("Simulate honest players, assisted players and farming pairs playing rated "
            "matches through the real services, run the fair-play detection after each "
            "round and report its detection rate, false-positive rate and time to "
            "detection. By default everything is written into a throwaway database that "
            "is dropped afterwards; --into-site-database writes into the site's database.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--honest", type=int, required=True, metavar="N",
                            help="how many honest players (computer levels with human-like "
                                 "noise)")
        parser.add_argument("--assisted", type=int, required=True, metavar="N",
                            help="how many assisted players (honest ones who follow the "
                                 "expert on --share of their decisions)")
        parser.add_argument("--farmers", type=int, required=True, metavar="N",
                            help="how many farming pairs (new accounts, one resigning "
                                 "every match to the other)")
        parser.add_argument("--matches", type=int, required=True, metavar="M",
                            help="rounds: every account plays one rated match a round, "
                                 "and the detection runs after each")
        parser.add_argument("--seed", type=int, default=0,
                            help="fixes the population and every choice of the players "
                                 "(the deals come from the server's secret generator); "
                                 "default 0")
        parser.add_argument("--share", type=float, default=0.5,
                            help="the share of their decisions the assisted players take "
                                 "from the expert (default 0.5)")
        parser.add_argument("--analysis-worlds", type=int, default=None, metavar="W",
                            help="the analysis's most worlds per decision for the run "
                                 "(ANALYSIS_MAX_WORLDS; default: the site's setting)")
        parser.add_argument("--analysis-share", type=float, default=1.0, metavar="F",
                            help="the share of finished hands the run analyses, drawn at "
                                 "random (default 1: every hand, as the site does)")
        parser.add_argument("--expert-budget", type=int, default=None, metavar="B",
                            help="the expert's search budget (simulated turns) when the "
                                 "assisted players consult it (default: the expert's own, "
                                 "40,000); a smaller one is a weaker, cheaper assistant")
        parser.add_argument("--json", dest="out", default=None, metavar="OUT",
                            help="also write the JSON summary to the file OUT ('-': "
                                 "standard output, the readable lines then go to "
                                 "standard error)")
        parser.add_argument("--into-site-database", action="store_true",
                            help="write the simulated accounts, matches and cases into the "
                                 "site's own database instead of a throwaway database")

    def handle(self, *args: Any, **options: Any) -> None:
        report = self.stderr if options["out"] == "-" else self.stdout
        if options["analysis_worlds"] is not None and options["analysis_worlds"] < 8:
            raise CommandError("--analysis-worlds is at least 8 (one batch of worlds)")
        site = options["into_site_database"]
        name = f"{connection.settings_dict['NAME']} ({connection.vendor})"
        if site:
            report.write(f"Writing the simulated accounts, matches and cases into the site's "
                         f"database {name}.")
        else:
            report.write(f"Simulating in a throwaway database beside {name}: nothing is "
                         "written to the site's database.")
        place = contextlib.nullcontext() if site else throwaway_database()
        verbose = options["verbosity"] >= 2
        try:
            with place, _quiet(verbose):
                result = simulate(
                    honest=options["honest"], assisted=options["assisted"],
                    farmers=options["farmers"], matches=options["matches"],
                    seed=options["seed"], share=options["share"],
                    analysis_worlds=options["analysis_worlds"],
                    analysis_share=options["analysis_share"],
                    expert_budget=options["expert_budget"],
                    progress=report.write if options["verbosity"] >= 1 else None,
                )
        except ValueError as error:
            raise CommandError(str(error)) from error
        _write_summary(report, result)
        if options["out"] == "-":
            sys.stdout.write(json.dumps(result, indent=1) + "\n")
        elif options["out"]:
            with open(options["out"], "w", encoding="utf-8") as handle:
                handle.write(json.dumps(result, indent=1) + "\n")
            report.write(f"JSON summary written to {options['out']}.")


@contextlib.contextmanager
def throwaway_database() -> Iterator[None]:
    """A fresh, migrated database for the run (the configured one's server, or a
    temporary SQLite file), dropped afterwards; events stay in the process (the
    in-memory channel layer, Celery tasks run eagerly), as tournament_sim does."""
    with contextlib.ExitStack() as stack:
        if connection.vendor == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="fairplay-sim-"))
            name = os.path.join(folder, "sim.sqlite3")
        else:
            name = f"fairplay_sim_{os.getpid()}"
        connection.settings_dict.setdefault("TEST", {})["NAME"] = name
        stack.enter_context(override_settings(
            CELERY_TASK_ALWAYS_EAGER=True,
            CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
        ))
        original = connection.creation.create_test_db(verbosity=0, autoclobber=True,
                                                      serialize=False)
        try:
            yield
        finally:
            connection.creation.destroy_test_db(original, verbosity=0)


@contextlib.contextmanager
def _quiet(verbose: bool) -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in CHATTY_LOGGERS]
    levels = [logger.level for logger in loggers]
    if not verbose:
        for logger in loggers:
            logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _rate(part: int, whole: int) -> str:
    return f"{part} of {whole}" + (f" ({100 * part / whole:.1f}%)" if whole else "")


def _write_summary(out: Any, result: dict[str, Any]) -> None:
    honest, assisted, farmers = result["honest"], result["assisted"], result["farmers"]
    out.write("")
    out.write(f"Seed {result['seed']}, {result['matches']} rated matches each, assisted "
              f"players following the expert on {100 * result['share']:.0f}% of decisions.")
    out.write(f"Assisted accounts flagged: {_rate(assisted['flagged'], assisted['accounts'])}, "
              f"median after {assisted['median_matches_to_flag']} matches.")
    out.write(f"Farming pairs flagged: {_rate(farmers['flagged'], farmers['pairs'])}, "
              f"median after {farmers['median_matches_to_flag']} matches.")
    out.write(f"Honest accounts flagged: {_rate(honest['flagged'], honest['accounts'])}.")
    cost = result["cost"]
    out.write(f"{cost['hands_analysed']} hands analysed in {cost['analysis_cpu_seconds']} s "
              f"CPU; detection runs: mean {cost['detection_cpu_seconds_mean']} s CPU, "
              f"max {cost['detection_cpu_seconds_max']} s; {result['seconds']} s in all.")
