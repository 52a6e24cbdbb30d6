"""ESLint over the browser code (every app's ``static/**/*.js``), with the small
config of tests/lint/eslint.config.mjs, and TypeScript's checker over the live table's
event and state code (the files that start with ``// @ts-check``, with the frame types
of games/static/games/wire.js: tests/lint/tsconfig.json), at the versions locked in
tests/lint/package-lock.json (installed there with ``npm ci`` when missing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_DIR = ROOT / "tests" / "lint"
ESLINT = LINT_DIR / "node_modules" / ".bin" / "eslint"
TSC = LINT_DIR / "node_modules" / ".bin" / "tsc"
CONFIG = LINT_DIR / "eslint.config.mjs"
#: The browser code the checker reads (tests/lint/tsconfig.json names it from there).
CHECKED = ["games/static/games", "games/tournaments/static/tournaments"]


@pytest.fixture(scope="module")
def eslint() -> Path:
    if not ESLINT.exists() or not TSC.exists():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LINT_DIR, check=True,
            timeout=600,
        )
    return ESLINT


def run(eslint: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(eslint), "-c", str(CONFIG), *args], cwd=ROOT, input=stdin, capture_output=True,
        text=True, timeout=300,
    )


def tsc(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TSC), "--noEmit", "--pretty", "false", "-p", str(project)], cwd=ROOT,
        capture_output=True, text=True, timeout=300,
    )


def test_the_browser_code_passes_eslint(eslint: Path) -> None:
    result = run(eslint, "**/static/**/*.js")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_fails_on_a_mistake(eslint: Path) -> None:
    probe = "import { sortMeld } from './cards.js';\nexport const x = undefinedName + 1;\n"
    result = run(eslint, "--stdin", "--stdin-filename", "games/static/games/probe.js", stdin=probe)
    assert result.returncode == 1
    assert "'sortMeld' is defined but never used" in result.stdout
    assert "'undefinedName' is not defined" in result.stdout


def test_the_table_code_passes_typescripts_checker(eslint: Path) -> None:
    checked = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "games/static/games").rglob("*.js"))
        if path.read_text().startswith("// @ts-check")
    ]
    parts = sorted((ROOT / "games/static/games/table").glob("*.js"))
    table = ["games/static/games/table.js", "games/static/games/events.js"] + [
        part.relative_to(ROOT).as_posix() for part in parts
    ]
    assert set(table) <= set(checked), "the table's event and state code is type-checked"
    result = tsc(LINT_DIR)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checker_fails_on_a_frame_read_wrong(eslint: Path, tmp_path: Path) -> None:
    # A copy of the checked code in which events.js reads a field the event frame's
    # schema does not have (the turn's "seat": it is "player"), and applies the whole
    # frame where one of its events is expected.
    for folder in CHECKED:
        shutil.copytree(ROOT / folder, tmp_path / folder)
    (tmp_path / "tests" / "lint").mkdir(parents=True)
    shutil.copy(LINT_DIR / "tsconfig.json", tmp_path / "tests" / "lint" / "tsconfig.json")
    events = tmp_path / "games/static/games/events.js"
    text = events.read_text()
    broken = text.replace("view.current_player = frame.turn.player;",
                          "view.current_player = frame.turn.seat;")
    broken = broken.replace("applyEvent(view, me, event, frame.you);",
                            "applyEvent(view, me, frame, frame.you);")
    assert broken.count("frame.turn.seat") == 1 and "applyEvent(view, me, frame," in broken
    events.write_text(broken)
    result = tsc(tmp_path / "tests" / "lint")
    assert result.returncode != 0
    errors = [line for line in result.stdout.splitlines() if "error TS" in line]
    assert len(errors) == 2 and all("games/static/games/events.js" in e for e in errors), errors
    assert "'EventFrame' is not assignable to parameter of type 'MoveEvent'" in errors[0]
    assert "Property 'seat' does not exist on type 'Turn'" in errors[1]
