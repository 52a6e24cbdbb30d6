"""The types hold: mypy with django-stubs over the whole project (pyproject.toml's
``[tool.mypy]``), strict on the pure core (games.engine, games.bots) and on every
app's services, which take typed users (``accounts.models.User``).

A cold run takes about a minute here, a run with mypy's cache (``.mypy_cache``) a few
seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
        timeout=600,
    )


def mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def strict_modules() -> set[str]:
    strict = [o for o in mypy_config()["overrides"] if o.get("disallow_untyped_defs")]
    return {name for override in strict for name in override["module"]}


def test_every_services_module_is_checked_strictly() -> None:
    strict = strict_modules()
    missing = []
    for package in mypy_config()["files"]:
        paths = sorted((ROOT / package).rglob("services.py"))
        paths += sorted(p.parent for p in (ROOT / package).rglob("services/__init__.py"))
        for path in paths:
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if module not in strict and f"{module}.*" not in strict:
                missing.append(module)
    assert not missing, f"add {missing} to the strict override of [tool.mypy]"
    assert {"games.engine.*", "games.bots.*"} <= strict


def test_the_project_type_checks() -> None:
    result = mypy()
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_app_is_type_checked() -> None:
    apps = {p.parent.name for p in ROOT.glob("*/apps.py")} | {"ginsite"}
    assert apps <= set(mypy_config()["files"])


def test_a_wrong_type_fails_the_check(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from games.engine import RuleSet\n"
        "rules: RuleSet = RuleSet.preset('default')\n"
        "target: str = rules.target_score\n"
    )
    result = mypy(str(probe))
    assert result.returncode == 1
    assert 'Incompatible types in assignment (expression has type "int"' in result.stdout
