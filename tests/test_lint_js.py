"""ESLint over the browser code (every app's ``static/**/*.js``), with the small
config of tests/lint/eslint.config.mjs, at the versions locked in
tests/lint/package-lock.json (installed there with ``npm ci`` when missing)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_DIR = ROOT / "tests" / "lint"
ESLINT = LINT_DIR / "node_modules" / ".bin" / "eslint"
CONFIG = LINT_DIR / "eslint.config.mjs"


@pytest.fixture(scope="module")
def eslint() -> Path:
    if not ESLINT.exists():
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


def test_the_browser_code_passes_eslint(eslint: Path) -> None:
    result = run(eslint, "**/static/**/*.js")
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_fails_on_a_mistake(eslint: Path) -> None:
    probe = "import { sortMeld } from './cards.js';\nexport const x = undefinedName + 1;\n"
    result = run(eslint, "--stdin", "--stdin-filename", "games/static/games/probe.js", stdin=probe)
    assert result.returncode == 1
    assert "'sortMeld' is defined but never used" in result.stdout
    assert "'undefinedName' is not defined" in result.stdout
