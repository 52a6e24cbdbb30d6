"""The embedded mode runs tournaments: the embedded scheduler (ginsite/embedded_beat.py)
runs the ``tournaments.tick`` entry of the beat schedule in-process, which starts a due
tournament and pairs it; and the simulator completes a tournament on the embedded
defaults (SQLite, Celery in-process, no Redis) in a process of its own."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from games.tournaments.models import Pairing, Tournament
from games.tournaments.simulate import check_summary
from ginsite.embedded_beat import EmbeddedBeat
from tests.factories import create_tournament, create_user
from tests.workers import ROOT


@pytest.mark.django_db(transaction=True)  # the scheduler closes connections after a job
def test_the_embedded_scheduler_starts_and_pairs_a_due_arena():
    assert "tournaments-tick" in settings.CELERY_BEAT_SCHEDULE
    now = timezone.now()
    t = create_tournament("arena", [create_user("ann"), create_user("bob")], now=now)
    ran = []

    def run(name, args, kwargs):
        ran.append(name)
        from ginsite.celery import app

        app.tasks[name].apply(args=args, kwargs=kwargs, throw=True)

    tick_only = {"tournaments-tick": settings.CELERY_BEAT_SCHEDULE["tournaments-tick"]}
    EmbeddedBeat(schedule=lambda: tick_only, run=run).tick(now)
    assert ran == ["tournaments.tick"]
    assert Tournament.objects.get(pk=t.pk).status == "live"
    assert Pairing.objects.filter(tournament=t, match__isnull=False).count() == 1


def _embedded_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"SQLITE_PATH": str(tmp_path / "db.sqlite3"),
                "DJANGO_SETTINGS_MODULE": "ginsite.settings", "EMBEDDED_SCHEDULER": "0"})
    return env


def _site_rows(tmp_path: Path) -> tuple[int, int]:
    """The users and tournaments in the site's (embedded) database."""
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        users = db.execute("SELECT count(*) FROM accounts_user").fetchone()[0]
        tournaments = db.execute("SELECT count(*) FROM tournaments_tournament").fetchone()[0]
    return users, tournaments


def test_the_simulator_on_the_embedded_defaults_leaves_the_site_database_alone(
        tmp_path: Path):
    """By default the simulator plays in a throwaway database and prints a readable
    summary (no log line per move); asked explicitly, it writes into the site's
    database and says so first."""
    env = _embedded_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    out = tmp_path / "summary.json"
    run = subprocess.run([sys.executable, "manage.py", "tournament_sim", "--format", "swiss",
                          "--players", "3", "--rounds", "2", "--level", "easy", "--seed", "4",
                          "--json", str(out)], cwd=ROOT, env=env, check=True, timeout=300,
                         capture_output=True, text=True)
    summary = json.loads(out.read_text())
    assert summary["format"] == "swiss" and len(summary["players"]) == 3
    assert check_summary(summary) == []
    assert sum(1 for p in summary["pairings"] if p["seat1"] is None) == 2  # a bye a round
    printed = run.stdout + run.stderr
    assert "nothing is written to the site's database" in printed
    assert "Swiss of 3 players, 2 rounds: 2 matches, 2 byes" in printed
    assert "Pairings and scores follow the format's rules." in printed
    for row in summary["standings"]:
        assert re.search(rf"^\s+{row['rank']}\s+{row['player']}\s", run.stdout, re.M)
    assert "games.moves" not in printed and " INFO " not in printed
    assert len(printed.splitlines()) < 20
    assert _site_rows(tmp_path) == (0, 0)

    run = subprocess.run([sys.executable, "manage.py", "tournament_sim", "--format", "arena",
                          "--players", "2", "--minutes", "2", "--into-site-database"],
                         cwd=ROOT, env=env, check=True, timeout=300, capture_output=True,
                         text=True)
    assert "Writing 2 simulated users" in run.stdout
    assert "public, rated arena into the site's database" in run.stdout
    assert _site_rows(tmp_path) == (2, 1)


def test_the_simulators_help_describes_every_option():
    from games.tournaments.management.commands.tournament_sim import Command

    parser = Command().create_parser("manage.py", "tournament_sim")
    own = [action for action in parser._actions
           if action.dest in {"format", "players", "rounds", "minutes", "level", "seed",
                              "target", "out", "into_site_database"}]
    assert len(own) == 9
    assert all(action.help and len(action.help) > 20 for action in own), [
        action.dest for action in own if not action.help]
    assert "throwaway database" in parser.description
