"""A small reader of gettext catalogs (.po), for the translation tests: entries with
their context, plural and flags, as ``makemessages`` writes them."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: str = ""
    msgstr_plural: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translations(self) -> list[str]:
        if self.msgid_plural is not None:
            return [self.msgstr_plural[n] for n in sorted(self.msgstr_plural)]
        return [self.msgstr]

    @property
    def translated(self) -> bool:
        texts = self.translations
        return bool(texts) and all(texts)


def _unquote(text: str) -> str:
    return ast.literal_eval(text) if text else ""


def read(path: Path) -> list[Entry]:
    """The entries of a .po file (the header, msgid "", left out)."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    target: tuple[str, int | None] | None = None
    obsolete = False

    def finish() -> None:
        nonlocal current
        if current is not None and current.msgid:
            entries.append(current)
        current = None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
        if not line:
            finish()
            flags, target, obsolete = set(), None, False
            continue
        if line.startswith("#,"):
            flags |= {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            assert current is not None and target is not None, f"{path}: {raw!r}"
            name, index = target
            text = _unquote(line)
            if index is None:
                setattr(current, name, getattr(current, name) + text)
            else:
                current.msgstr_plural[index] += text
            continue
        if keyword in ("msgctxt", "msgid") and current is not None and (
            keyword == "msgctxt" or current.msgstr or current.msgstr_plural or current.msgid
        ) and not (keyword == "msgid" and current.msgid == "" and current.msgctxt is not None):
            finish()
        if current is None:
            current = Entry(msgid="", flags=flags, obsolete=obsolete)
        if keyword == "msgctxt":
            current.msgctxt = _unquote(rest)
            target = ("msgctxt", None)
        elif keyword == "msgid":
            current.msgid = _unquote(rest)
            target = ("msgid", None)
        elif keyword == "msgid_plural":
            current.msgid_plural = _unquote(rest)
            target = ("msgid_plural", None)
        elif keyword == "msgstr":
            current.msgstr = _unquote(rest)
            target = ("msgstr", None)
        elif keyword.startswith("msgstr["):
            index = int(keyword[7:-1])
            current.msgstr_plural[index] = _unquote(rest)
            target = ("msgstr", index)
    finish()
    return entries
