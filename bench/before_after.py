"""Before and after, side by side in one run: ``bench.live_load`` of an older commit and
of this checkout, one after the other, on the same machine, with the same arguments.

    .venv/bin/python -m bench.before_after --steps 100,200,400 --rounds 2
    .venv/bin/python -m bench.before_after --before 996325a --steps 400 --step-seconds 40

The older commit (default: 996325a, the last before the live-play redesign) is checked
out once into ``build/before-<commit>`` (a git worktree) and runs from there with this
virtualenv, on its own database (created afresh for each of its runs, as the current
``bench.live_load`` does for its own). ``--rounds`` alternates the two (before, after,
before, after, ...) so that a change in the machine's other load touches both. Each
run's table is printed as it comes, then the two tables of every round.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "996325a"


def worktree(commit: str) -> Path:
    """A checkout of ``commit`` under build/ (made once)."""
    path = ROOT / "build" / f"before-{commit}"
    if not path.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(path), commit], cwd=ROOT,
                       check=True, capture_output=True)
    return path


def run(tree: Path, database: str, args: list[str]) -> str:
    """One ``bench.live_load`` run in ``tree``; its report (what follows the stack line)."""
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc",
                    f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"],
                   check=True, capture_output=True)
    done = subprocess.run(
        [sys.executable, "-m", "bench.live_load", "--database", database, *args],
        cwd=tree, capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench.live_load failed in {tree}:\n{done.stdout}\n{done.stderr}")
    report = done.stdout[done.stdout.index("\nlive load"):].strip()
    print(f"--- {tree.name if tree != ROOT else 'this checkout'}\n{report}\n", flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the older commit")
    parser.add_argument("--rounds", type=int, default=1, help="before/after pairs")
    parser.add_argument("--steps", default="100,200,400")
    parser.add_argument("--step-seconds", default="30")
    args = parser.parse_args()
    common = ["--steps", args.steps, "--step-seconds", args.step_seconds]
    before = worktree(args.before)
    rounds = []
    for _ in range(args.rounds):
        rounds.append((run(before, "gin_liveload_before", common),
                       run(ROOT, "gin_liveload", common)))
    for number, (old, new) in enumerate(rounds, 1):
        print(f"=== round {number}: before ({args.before})\n{old}\n"
              f"=== round {number}: after (this checkout)\n{new}\n")


if __name__ == "__main__":
    main()
