"""Production settings pass Django's deployment checklist and are hardened."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "x7#kq!v9m2@p4z8w1n6b3c5d0f-h_j+l=r.t/y:u;e,a<s>g?i{o}QWERTYUIOP",
    "ALLOWED_HOSTS": "gin.example.com",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = {**PRODUCTION_ENV, "SECRET_KEY": ""}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
