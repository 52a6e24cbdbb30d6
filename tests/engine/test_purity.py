"""games.engine is pure: standard library only, importable without Django."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE_DIR = Path(games.engine.__file__).parent


def test_engine_modules_import_only_the_standard_library():
    outside = []
    modules = sorted(ENGINE_DIR.rglob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                if name.split(".")[0] not in sys.stdlib_module_names:
                    outside.append(f"{path.name}: {name}")
    assert outside == []


def test_import_works_without_django_configured():
    env = {key: value for key, value in os.environ.items()
           if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL")}
    code = (
        "import sys, games.engine as e\n"
        "assert 'django' not in sys.modules, 'django was imported'\n"
        "print(e.deadwood(['AS', '2S', '3S', 'KD']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ENGINE_DIR.parents[1],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "10"
