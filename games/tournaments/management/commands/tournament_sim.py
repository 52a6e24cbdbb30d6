"""``python manage.py tournament_sim --format swiss|arena --players N [--rounds R |
--minutes M] [--level L] [--seed S] [--target T] [--json OUT] [--into-site-database]``:
one complete tournament with computer-controlled entrants (games/tournaments/simulate.py),
and a readable summary of it: the players' final standings, the matches played and
whether every pairing and score follows the format's rules.

Where it writes: by default into a throwaway database (a fresh one created beside the
configured one, migrated, and dropped at the end; on SQLite a temporary file), with
the events it would publish kept in the process and its background tasks run in it,
so the site, its players and its workers never see the simulated users, matches or
tournament. ``--into-site-database`` writes them into the site's own database (the
command says so before it starts): registered users named ``sim<seed>-<tag>-<n>`` and
a public, rated tournament, as a staff schedule would create it.

``--json OUT`` also writes the JSON summary to OUT ("-": standard output; the
readable summary then goes to standard error):

``{"format", "players": [name, ...], "pairings": [{"round", "seat0", "seat1",
"match", "winner"}], "standings": [{"rank", "player", "points", "wins", "losses",
"byes", "tiebreaks"}]}`` (``seat1`` null: a bye; ``round`` null in an arena).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test.utils import override_settings

from games.tournaments.simulate import check_summary, simulate
from ginsite import runtime

#: Standings rows printed in the readable summary (the JSON has them all).
SHOWN_ROWS = 20


class Command(BaseCommand):
    help = ("Run one complete simulated tournament (computer-controlled players) and print "
            "its final standings. By default everything is written into a throwaway "
            "database that is dropped afterwards; --into-site-database writes the "
            "simulated users and tournament into the site's database instead.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=["swiss", "arena"],
                            help="the tournament's format: a Swiss of fixed rounds or a "
                                 "timed arena")
        parser.add_argument("--players", type=int, required=True, metavar="N",
                            help="how many computer-controlled players enter (at least 2)")
        parser.add_argument("--rounds", type=int, default=None, metavar="R",
                            help="Swiss only: the number of rounds (default 3)")
        parser.add_argument("--minutes", type=int, default=None, metavar="M",
                            help="arena only: its length in simulated minutes (default 30)")
        parser.add_argument("--level", default="easy",
                            help="the computer player that chooses every move (easy, "
                                 "medium, hard or expert; default easy)")
        parser.add_argument("--seed", type=int, default=0,
                            help="fixes the players' ratings and the computer's choices "
                                 "(the deals come from the server's secret generator); "
                                 "default 0")
        parser.add_argument("--target", type=int, default=50, choices=[50, 100],
                            help="the score a match is played to (default 50)")
        parser.add_argument("--json", dest="out", default=None, metavar="OUT",
                            help="also write the JSON summary to the file OUT ('-': "
                                 "standard output, the readable summary then goes to "
                                 "standard error)")
        parser.add_argument("--into-site-database", action="store_true",
                            help="write the simulated users, matches and public rated "
                                 "tournament into the site's own database (and publish "
                                 "its events) instead of a throwaway database")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["format"] == "swiss" and options["minutes"] is not None:
            raise CommandError("--minutes is for an arena; a Swiss has --rounds")
        if options["format"] == "arena" and options["rounds"] is not None:
            raise CommandError("--rounds is for a Swiss; an arena has --minutes")
        if options["players"] < 2:
            raise CommandError("a tournament needs at least 2 players (--players)")
        report = self.stderr if options["out"] == "-" else self.stdout
        site = options["into_site_database"]
        database = _database_name()
        if site:
            report.write(f"Writing {options['players']} simulated users (sim{options['seed']}-…) "
                         f"and a public, rated {options['format']} into the site's database "
                         f"{database}.")
        else:
            report.write(f"Simulating in a throwaway database beside {database}: nothing is "
                         f"written to the site's database.")
        place = contextlib.nullcontext() if site else _throwaway_database()
        try:
            with place, _quiet_moves(options["verbosity"]):
                result = simulate(format=options["format"], players=options["players"],
                                  rounds=options["rounds"], minutes=options["minutes"],
                                  level=options["level"], seed=options["seed"],
                                  target=options["target"])
                # What the matches set going in the background (fair play's checks, the
                # next pairings) runs in this database, as quietly as the rest.
                runtime.scheduler().wait_for_background()
        except ValueError as error:
            raise CommandError(str(error)) from error
        _write_summary(report, result, options, site=site)
        if options["out"] == "-":
            sys.stdout.write(json.dumps(result, indent=1) + "\n")
        elif options["out"]:
            with open(options["out"], "w", encoding="utf-8") as handle:
                handle.write(json.dumps(result, indent=1) + "\n")
            report.write(f"JSON summary written to {options['out']}.")


def _database_name() -> str:
    name = str(connection.settings_dict["NAME"])
    return f"{name} ({connection.vendor})"


@contextlib.contextmanager
def _throwaway_database() -> Iterator[None]:
    """A fresh, migrated database for the run (the configured one's server, or a
    temporary SQLite file), dropped afterwards; events stay in the process (the
    in-memory channel layer) and background tasks run in it (timer threads), so no
    page, worker or bot of the site ever hears of the simulation."""
    with contextlib.ExitStack() as stack:
        if connection.vendor == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="tournament-sim-"))
            name = os.path.join(folder, "sim.sqlite3")
        else:
            name = f"tournament_sim_{os.getpid()}"
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


#: Loggers that write a line per move or per task run (INFO): shown with --verbosity 2.
CHATTY_LOGGERS = ("games.moves", "celery.app.trace")


@contextlib.contextmanager
def _quiet_moves(verbosity: int) -> Iterator[None]:
    """The log lines of every move and task run only with --verbosity 2 or more."""
    loggers = [logging.getLogger(name) for name in CHATTY_LOGGERS]
    levels = [logger.level for logger in loggers]
    if verbosity < 2:
        for logger in loggers:
            logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _write_summary(out: TextIO | Any, result: dict[str, Any], options: dict[str, Any], *,
                   site: bool) -> None:
    pairings = result["pairings"]
    matches = sum(1 for p in pairings if p["seat1"] is not None)
    byes = len(pairings) - matches
    if result["format"] == "swiss":
        played = max((p["round"] or 0 for p in pairings), default=0)
        shape = f"{played} round{'s' if played != 1 else ''}"
        tiebreaks = "Buchholz, S-B"
    else:
        minutes = options["minutes"] or 30
        shape = f"{minutes} simulated minute{'s' if minutes != 1 else ''}"
        tiebreaks = "losses"
    out.write("")
    out.write(f"{result['format'].capitalize()} of {len(result['players'])} players, {shape}: "
              f"{matches} match{'es' if matches != 1 else ''}"
              + (f", {byes} bye{'s' if byes != 1 else ''}" if byes else "")
              + f" (level {options['level']}, seed {options['seed']}, "
              f"matches to {options['target']}).")
    out.write("")
    width = max([6, *(len(row["player"]) for row in result["standings"])])
    out.write(f"{'#':>3}  {'player':<{width}}  {'points':>6}  {'W-L':>5}  {tiebreaks}")
    for row in result["standings"][:SHOWN_ROWS]:
        record = f"{row['wins']}-{row['losses']}"
        ties = ", ".join(f"{t:g}" for t in row["tiebreaks"])
        out.write(f"{row['rank']:>3}  {row['player']:<{width}}  {row['points']:>6g}  "
                  f"{record:>5}  {ties}")
    hidden = len(result["standings"]) - SHOWN_ROWS
    if hidden > 0:
        out.write(f"     … and {hidden} more (--json for every row)")
    out.write("")
    problems = check_summary(result)
    out.write("Pairings and scores follow the format's rules." if not problems
              else "Problems: " + "; ".join(problems))
    out.write("Written into the site's database." if site
              else "The throwaway database was dropped: the site's database is unchanged.")
