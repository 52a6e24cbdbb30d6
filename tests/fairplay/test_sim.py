"""``manage.py fairplay_sim`` end to end on a small population, in a process of its own on
the embedded defaults (SQLite, Celery in-process): the accounts play through the real
services in a throwaway database, the detection runs after each round, the farming pair
is named by a case, and the JSON has what docs/benchmarks.md reads. The full
population is a benchmark (docs/benchmarks.md, "Fair play"), not a test."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.workers import ROOT


def _embedded_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"SQLITE_PATH": str(tmp_path / "db.sqlite3"),
                "DJANGO_SETTINGS_MODULE": "ginsite.settings", "EMBEDDED_SCHEDULER": "0",
                "LOG_LEVEL": "WARNING"})
    return env


def test_a_small_simulation_runs_end_to_end_and_leaves_the_site_database_alone(
        tmp_path: Path):
    env = _embedded_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    out = tmp_path / "fairplay.json"
    run = subprocess.run(
        [sys.executable, "manage.py", "fairplay_sim", "--honest", "4", "--assisted", "1",
         "--farmers", "1", "--matches", "3", "--seed", "5", "--share", "0.2",
         "--expert-budget", "2000", "--analysis-share", "0.2",
         "--analysis-worlds", "8", "--json", str(out)],
        cwd=ROOT, env=env, check=True, timeout=600, capture_output=True, text=True,
    )
    result = json.loads(out.read_text())
    assert result["honest"]["accounts"] == 4 and result["assisted"]["accounts"] == 1
    assert result["farmers"] == {"pairs": 1, "flagged": 1, "median_matches_to_flag": 3,
                                 "matches_to_flag": [3]}
    assert 0 <= result["honest"]["flagged"] <= 4
    assert {"flagged", "median_matches_to_flag"} <= set(result["assisted"])
    assert result["seconds"] > 0 and result["cost"]["detection_runs"] == 3
    rows = result["accounts"]["honest"] + result["accounts"]["assisted"]
    for row in rows:
        assert row["matches"] in (2, 3)  # one sits out a round when the count is odd
    assert any(row.get("decisions") for row in rows)  # judged decisions summarised
    printed = run.stdout + run.stderr
    assert "nothing is written to the site's database" in printed
    assert "Farming pairs flagged: 1 of 1 (100.0%), median after 3 matches." in printed
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM accounts_user").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM fairplay_case").fetchone()[0] == 0


def test_the_simulators_help_describes_every_option():
    from games.fairplay.management.commands.fairplay_sim import Command

    parser = Command().create_parser("manage.py", "fairplay_sim")
    own = [action for action in parser._actions
           if action.dest in {"honest", "assisted", "farmers", "matches", "seed", "share",
                              "analysis_worlds", "analysis_share", "expert_budget", "out",
                              "into_site_database"}]
    assert len(own) == 11
    assert all(action.help and len(action.help) > 20 for action in own)
    assert "throwaway database" in parser.description
