"""The embedded mode runs tournaments: the embedded scheduler (ginsite/embedded_beat.py)
runs the ``tournaments.tick`` entry of the beat schedule in-process, which starts a due
tournament and pairs it; and the simulator completes a tournament on the embedded
defaults (SQLite, Celery in-process, no Redis) in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from ginsite.embedded_beat import EmbeddedBeat
from tests.factories import create_user
from tests.workers import ROOT
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.simulate import check_summary


@pytest.mark.django_db(transaction=True)  # the scheduler closes connections after a job
def test_the_embedded_scheduler_starts_and_pairs_a_due_arena():
    assert "tournaments-tick" in settings.CELERY_BEAT_SCHEDULE
    now = timezone.now()
    t = services.tournament_create(user=None, staff=True, name="Embedded", format="arena",
                                   starts_at=now)
    for name in ("ann", "bob"):
        services.tournament_join(tournament=t, user=create_user(name), now=now)
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


def test_the_simulator_on_the_embedded_defaults(tmp_path: Path):
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "LOG_LEVEL": "WARNING",
                "DJANGO_SETTINGS_MODULE": "ginsite.settings", "EMBEDDED_SCHEDULER": "0"})
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    out = tmp_path / "summary.json"
    subprocess.run([sys.executable, "manage.py", "tournament_sim", "--format", "swiss",
                    "--players", "3", "--rounds", "2", "--level", "easy", "--seed", "4",
                    "--json", str(out)], cwd=ROOT, env=env, check=True, timeout=300)
    summary = json.loads(out.read_text())
    assert summary["format"] == "swiss" and len(summary["players"]) == 3
    assert check_summary(summary) == []
    assert sum(1 for p in summary["pairings"] if p["seat1"] is None) == 2  # a bye a round
