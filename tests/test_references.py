"""The repository stands on its own: no file cites a document it does not contain.

The rules are ``docs/rules.md``; notes kept outside the project (its planning
documents, the stack notes of the machines it was built on) are never cited: what
such a note said is written where it is needed. Every "docs/rules.md section N"
names a section that exists.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Built from parts so that this file does not cite them itself.
OUTSIDE_DOCUMENTS = ("RULES" + ".md", "DESIGN" + ".md", "STACK" + "-NOTES", "STACK" + "_NOTES",
                     "../" + "shared")
SKIPPED_DIRS = {".git", ".venv", "node_modules", "staticfiles", "build", "__pycache__"}
TEXT_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".txt", ".toml", ".cfg", ".ini",
                 ".service", ".conf", ".example", ".json", ".yml", ".yaml", ".sh", ""}


def project_files() -> list[Path]:
    """The files of the working tree that git would commit (tracked or new)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode().split("\0")
        paths = [ROOT / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        paths = [
            p for p in ROOT.rglob("*")
            if not SKIPPED_DIRS.intersection(p.relative_to(ROOT).parts)
        ]
    return [p for p in paths if p.is_file() and p.suffix in TEXT_SUFFIXES]


def test_the_files_of_the_tree_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in project_files()}
    assert {"README.md", "docs/rules.md", "games/engine/rules.py", ".ci/run"} <= names


def test_no_file_cites_a_document_outside_the_repository() -> None:
    found = []
    for path in project_files():
        text = path.read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for name in OUTSIDE_DOCUMENTS:
                if name in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert found == [], "cite a file of the repository instead:\n" + "\n".join(found)


def test_every_cited_section_of_the_rules_exists() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    sections = {int(n) for n in re.findall(r"^## (\d+)\.", rules, flags=re.MULTILINE)}
    cited = re.compile(r"docs/rules\.md,? sections? (\d+)(?:\s*[-–]\s*(\d+))?(?:\s+and\s+(\d+))?")
    missing = []
    for path in project_files():
        for match in cited.finditer(path.read_text(errors="replace")):
            first, last, other = match.groups()
            numbers = set(range(int(first), int(last or first) + 1))
            if other:
                numbers.add(int(other))
            if not numbers <= sections:
                missing.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert sections and missing == []
