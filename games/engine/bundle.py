"""The single-file verifier (``verify_gin.py``, docs/export.md), built from the engine.

``single_file_verifier(site_key=..., site=...)`` is the text of one Python file, standard
library only, that checks an export exactly as ``python -m games.engine.verify`` does:
it carries the source of games/engine/verify.py and of every engine module it imports
(found by reading their imports, so a new import is carried along), word for word, and
loads them as a package of its own when it runs. Nothing is copied by hand, so the
two verifiers cannot drift apart. The site serves it with its public key written in
(``GET /export/verify_gin.py``); ``python -m games.engine.bundle [SITE_KEY] >
verify_gin.py`` writes one too.

>>> "def verify_export(" in single_file_verifier(site_key=None, site="")
True
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRY = "verify"
PACKAGE = "gin_verify_engine"  # the bundled modules' package name when the file runs

_TEMPLATE = '''#!/usr/bin/env python3
"""verify_gin.py: check a gin rummy match export (gin-match/2) of {site_name}.

    python3 verify_gin.py match-17.json              # signed with {site_name}'s key?
    python3 verify_gin.py match-17.json --key HEX    # signed with another key?

Standard library only (Python 3.11 or newer): nothing to install. It replays every
hand of the export through the site's own rules engine and checks the site's Ed25519
signature over every field (docs/export.md). Prints one line per hand, then the
signature's and the match's; exit status 0 when everything checks, 1 at the first
disagreement (printed as FAILED ...), 2 when the file is not an export.

Generated from the site's engine, games/engine ({modules}): the sources below are
those modules, word for word.
"""

import importlib.abc
import importlib.util
import sys

SITE = {site!r}
SITE_KEY = {site_key!r}  # the site's public key ({site}/export/key.json)

_PACKAGE = {package!r}
_SOURCES = {{
{sources}}}


class _Engine(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the modules of _SOURCES as the package _PACKAGE."""

    def find_spec(self, name, path=None, target=None):
        if name == _PACKAGE or name.removeprefix(_PACKAGE + ".") in _SOURCES:
            return importlib.util.spec_from_loader(name, self, is_package=name == _PACKAGE)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == _PACKAGE:
            return
        short = module.__name__.removeprefix(_PACKAGE + ".")
        exec(compile(_SOURCES[short], "verify_gin.py:" + short + ".py", "exec"), module.__dict__)


sys.meta_path.insert(0, _Engine())
verify = importlib.import_module(_PACKAGE + ".verify")
verify_export = verify.verify_export  # for importing this file: verify_export(document, key=...)

if __name__ == "__main__":
    sys.exit(verify.main(program="python3 verify_gin.py", site_key=SITE_KEY))
'''


def _relative_imports(name: str) -> set[str]:
    """The engine modules ``name`` imports (``from .x import``, ``from . import x``)."""
    tree = ast.parse((HERE / f"{name}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


@cache
def modules() -> tuple[str, ...]:
    """The engine modules the verifier needs: ``verify`` and what it imports, in turn."""
    seen: set[str] = set()
    todo = [ENTRY]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_relative_imports(name) - seen)
    return tuple(sorted(seen))


@cache
def _sources() -> str:
    return "".join(
        f"    {name!r}: {(HERE / f'{name}.py').read_text(encoding='utf-8')!r},\n"
        for name in modules()
    )


def single_file_verifier(*, site_key: str | None, site: str) -> str:
    """The text of ``verify_gin.py``: checks signatures against ``site_key`` (64 hex
    digits; None: the key each document names) by default; ``site`` is the site's
    address (``https://host``), for the file's own words."""
    return _TEMPLATE.format(
        site=site,
        site_name=site or "the site",
        site_key=site_key,
        package=PACKAGE,
        modules=", ".join(f"{name}.py" for name in modules()),
        sources=_sources(),
    )


if __name__ == "__main__":
    sys.stdout.write(single_file_verifier(site_key=sys.argv[1] if sys.argv[1:] else None, site=""))
