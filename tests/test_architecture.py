"""The layers hold (README "Layout"): import-linter's contracts in pyproject.toml
(``[tool.importlinter]``, with the contract types of tests/architecture/contracts.py)
and one rule import-linter cannot see: views and consumers run no ORM query.

The rules name modules by pattern (every app's ``selectors``, ``services``,
``models``, ``views``, ``consumers``), so a new app is held to them as soon as it is
listed among the root packages, which the first test demands. Apps talk by events
(games/events.py): the publisher imports none of its subscribers, and every app that
subscribes is named in its publisher's contract. The last tests break a rule on purpose
in a copy of the project and see the check fail.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: The edges (HTTP views, sockets, streams): they parse, call selectors and services, reply.
EDGE_FILES = ("views.py", "*_views.py", "consumers.py", "sockets.py", "streams.py")
#: What a module of the edge may not touch: the ORM's managers, shortcuts and the
#: query methods a selector's QuerySet would be refined with.
ORM_NAMES = {
    "objects", "get_object_or_404", "get_list_or_404", "filter", "exclude",
    "select_related", "prefetch_related", "values", "values_list", "order_by",
    "annotate", "aggregate", "select_for_update", "get_or_create", "update_or_create",
    "bulk_create",
}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True, text=True,
        timeout=120,
    )


def one_line(text: str) -> str:
    """lint-imports' report with its lines unwrapped (it wraps them at 80 columns)."""
    return " ".join(text.split())


def orm_uses_at_the_edge(root: Path) -> list[str]:
    """``file:line name`` for each ORM manager or shortcut used in an edge module."""
    found = []
    for app in app_packages(root):
        for pattern in EDGE_FILES:
            for path in sorted((root / app).rglob(pattern)):
                if "engine" in path.parts:  # games/engine/views.py: the engine's own views
                    continue
                tree = ast.parse(path.read_text(), filename=str(path))
                for node in ast.walk(tree):
                    name = (
                        node.attr if isinstance(node, ast.Attribute)
                        else node.id if isinstance(node, ast.Name) and node.id != "filter"
                        else None  # the builtin filter() is no query
                    )
                    if name in ORM_NAMES:
                        found.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    return found


def app_packages(root: Path) -> list[str]:
    """The project's top-level packages: the Django apps (an ``apps.py``) and ginsite
    (its ``settings.py``; the suite's own tests/settings.py does not make tests an app)."""
    return sorted(
        p.parent.name for p in root.glob("*/__init__.py")
        if p.parent.name != "tests"
        and ((p.parent / "apps.py").exists() or (p.parent / "settings.py").exists())
    )


def root_packages(root: Path) -> list[str]:
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["root_packages"]


def test_every_app_is_held_to_the_contracts() -> None:
    missing = set(app_packages(ROOT)) - set(root_packages(ROOT))
    assert not missing, f"add {sorted(missing)} to [tool.importlinter] root_packages"


def test_the_layer_contracts_hold() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_views_and_consumers_run_no_orm_query() -> None:
    assert orm_uses_at_the_edge(ROOT) == []


def publisher_contracts(root: Path) -> dict[str, list[str]]:
    """``publisher -> its subscribers``, from pyproject.toml's ``publisher`` contracts."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return {
        contract["publisher"]: contract["subscribers"]
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["type"] == "publisher"
    }


def test_every_subscriber_is_named_in_the_contract_of_the_events_publisher() -> None:
    from games import events

    contracts = publisher_contracts(ROOT)
    unnamed = []
    for event in events.Event.__subclasses__():
        for subscription in events.subscribers(event):
            module = subscription.handler.__module__
            named = contracts.get(event.publisher, [])
            if not any(module == s or module.startswith(s + ".") for s in named):
                unnamed.append(f"{subscription.name} hears {event.publisher}'s {event.__name__}")
    assert unnamed == [], "add their apps to the publisher contracts of pyproject.toml"
    # A contract for each app that publishes (games, accounts, games.api), none more.
    assert set(contracts) == {event.publisher for event in events.Event.__subclasses__()}


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """The packages, the contract types and pyproject.toml, copied to break freely."""
    ignore = shutil.ignore_patterns("__pycache__", "static", "migrations", "*.html")
    for name in [*root_packages(ROOT), "tests/architecture"]:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=ignore)
    (tmp_path / "tests" / "__init__.py").touch()
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    assert lint_imports(tmp_path).returncode == 0  # the copy passes before it is broken
    return tmp_path


def test_a_new_app_whose_selector_imports_a_service_fails_the_check(project_copy: Path) -> None:
    app = project_copy / "probeapp"
    app.mkdir()
    for name, text in {
        "__init__.py": "",
        "apps.py": "",
        "services.py": "def thing_create() -> None: ...\n",
        "selectors.py": "from probeapp.services import thing_create  # noqa: F401\n",
    }.items():
        (app / name).write_text(text)
    pyproject = project_copy / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace('root_packages = ["', 'root_packages = ["probeapp", "')
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "probeapp.selectors is not allowed to import probeapp.services" in result.stdout


def test_the_engine_importing_django_fails_the_check(project_copy: Path) -> None:
    (project_copy / "games" / "engine" / "probe.py").write_text("import django  # noqa: F401\n")
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "games.engine.probe -> django" in result.stdout


def test_a_view_running_a_query_fails_the_check(project_copy: Path) -> None:
    (project_copy / "leaderboards" / "probe_views.py").write_text(
        "from leaderboards.models import Board\n\n\n"
        "def board(request, pk):\n    return Board.objects.get(pk=pk)\n"
    )
    assert orm_uses_at_the_edge(project_copy) == ["leaderboards/probe_views.py:5 objects"]


def test_a_shipped_module_importing_bench_fails_the_check(project_copy: Path) -> None:
    # bench/ is not installed (pyproject's packages): a management command that imports
    # it works in a checkout and breaks on a server.
    (project_copy / "games" / "management" / "commands" / "probe.py").write_text(
        "from bench import stats  # noqa: F401\n"
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "games.management.commands.probe -> bench" in result.stdout


def test_the_core_of_play_importing_a_subscriber_fails_the_check(project_copy: Path) -> None:
    (project_copy / "games" / "services" / "probe.py").write_text(
        "from games.tournaments import selectors  # noqa: F401\n"
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "games.services.probe -> games.tournaments.selectors" in one_line(result.stdout)


def test_chat_reaching_a_subscriber_through_another_app_fails_the_check(
    project_copy: Path,
) -> None:
    # games.chat is below the subscribers (the core and accounts use it): a chain
    # through accounts counts as much as a direct import.
    (project_copy / "accounts" / "probe.py").write_text(
        "from games.analysis import selectors  # noqa: F401\n"
    )
    (project_copy / "games" / "chat" / "probe.py").write_text(
        "from accounts import probe  # noqa: F401\n"
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    chain = "games.chat.probe -> accounts.probe -> games.analysis.selectors"
    assert chain in one_line(result.stdout)


def test_accounts_importing_the_services_that_hear_its_events_fails_the_check(
    project_copy: Path,
) -> None:
    (project_copy / "accounts" / "probe.py").write_text(
        "from games.services import player_leave_play  # noqa: F401\n"
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "accounts.probe -> games.services" in one_line(result.stdout)


def test_accounts_importing_an_app_above_games_fails_the_check(project_copy: Path) -> None:
    (project_copy / "accounts" / "probe.py").write_text(
        "from leaderboards import selectors  # noqa: F401\n"
    )
    result = lint_imports(project_copy)
    assert result.returncode == 1
    assert "accounts.probe -> leaderboards.selectors" in one_line(result.stdout)
