"""The site's translations (locale/, ginsite/i18n.py): every catalog is complete (no
fuzzy entry, no entry left empty, the same gaps and tags as the English), its
committed .mo is the compiled .po, and nothing a person reads is left out of them.

The scan is strict where text is written for people and leaves out what is not:
in templates, every text node and every ``title``, ``aria-label``, ``placeholder``,
``alt`` and description attribute outside ``{% translate %}``/``{% blocktranslate %}``
(comments, scripts, styles, SVG and CSS class names aside) fails, and so does a
marked text that no catalog holds; in the browser code, a string literal put on
screen (``textContent``, ``title``, ``aria-label``, a toast, a notice, a label) not
wrapped in ``gettext``/``ngettext``/``pgettext`` fails, and every wrapped one must be in
the catalogs. Staff-only pages (the admin's templates) are not scanned: the admin's
chrome is Django's, in the staff member's language, and the site's own labels there (the
moderation queue's and actions') are marked where they are, and must be in the catalogs.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import re
from pathlib import Path

import pytest

from tests.po import Entry, read

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ["es", "pt_BR", "fr", "de", "it"]
DOMAINS = ["django", "djangojs"]
TEMPLATE_DIRS = [ROOT / "templates", *ROOT.glob("*/templates"), *ROOT.glob("games/*/templates")]
SCRIPT_DIRS = [*ROOT.glob("*/static"), *ROOT.glob("games/*/static")]
# Staff's pages, files that are not pages, and allauth's elements (markup built around
# the words allauth's own catalogs give them).
NOT_FOR_PLAYERS = ("admin/", "/admin/", "games/sw.js", "allauth/elements/")
SCRIPTS_WITHOUT_WORDS = {"wire.js", "sha256.js", "random.js", "i18n.js"}

GAP = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
TAG = re.compile(r"</?[a-z]+")


def catalog(language: str, domain: str) -> list[Entry]:
    return read(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_catalog_is_complete_and_keeps_the_gaps_and_tags(language: str, domain: str) -> None:
    entries = catalog(language, domain)
    assert entries, f"{language}/{domain}.po is empty"
    problems = []
    for entry in entries:
        name = f"{language}/{domain}: {entry.msgid!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"{name} is fuzzy")
        if not entry.translated:
            problems.append(f"{name} has no translation")
            continue
        sources = [entry.msgid, entry.msgid_plural or entry.msgid]
        for index, text in enumerate(entry.translations):
            source = sources[min(index, 1)]
            gaps = sorted(set(GAP.findall(text)))
            # A singular may say "one" instead of its count ("%(n)s").
            wanted = sorted(set(GAP.findall(source)))
            if gaps != wanted and not (index == 0 and set(gaps) <= set(wanted)):
                problems.append(f"{name}: gaps {gaps}, the English has {wanted}")
            if sorted(TAG.findall(text)) != sorted(TAG.findall(source)):
                problems.append(f"{name}: tags differ from the English")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_is_the_compiled_po(language: str, domain: str) -> None:
    """The README's run command needs no gettext: the .mo files are committed, and
    each says what its .po says."""
    mo = LOCALE / language / "LC_MESSAGES" / f"{domain}.mo"
    with mo.open("rb") as handle:
        compiled = stdlib_gettext.GNUTranslations(handle)
    stale = []
    for entry in catalog(language, domain):
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            got = compiled._catalog.get(key)  # type: ignore[attr-defined]
            if got != entry.msgstr:
                stale.append(entry.msgid)
        elif compiled._catalog.get((key, 0)) != entry.msgstr_plural.get(0):  # type: ignore[attr-defined]
            stale.append(entry.msgid)
    assert not stale, f"{mo} is not the compiled {mo.with_suffix('.po').name}: {stale[:5]}"


# --- templates ---------------------------------------------------------------------

TOKEN = re.compile(
    r"(?P<comment>\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\})"
    r"|(?P<html_comment><!--.*?-->)"
    r"|(?P<short_comment>\{#.*?#\})"
    r"|(?P<block>\{%.*?%\})"
    r"|(?P<var>\{\{.*?\}\})"
    r"|(?P<raw><(?P<raw_name>script|style|svg)\b.*?</(?P=raw_name)>)"
    r"|(?P<tag></?[a-zA-Z!][^<>]*?>)"
    r"|(?P<text>[^<{]+|[<{])",
    re.S,
)
ATTRIBUTE = re.compile(r'\b(title|aria-label|placeholder|alt|content)\s*=\s*"([^"]*)"')
CSS_CLASSES = re.compile(r"[a-z0-9_-]+(?: [a-z0-9_-]+)*")
MARKED = re.compile(
    r"""\{%\s*(?:translate|trans)\s+(?P<q>["'])(?P<text>.*?)(?P=q)(?:\s+context\s+(?P<cq>["'])(?P<context>.*?)(?P=cq))?"""
)


def words_for_people(text: str) -> bool:
    """Text a person reads: letters forming a word, not a CSS class list nor a symbol."""
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text).strip()
    if not text or not re.search(r"[a-z]{2}|[A-Z][a-z]", text):
        return False
    return not (CSS_CLASSES.fullmatch(text) and re.search(r"[a-z0-9][-_]", text))


def unmarked_in_template(source: str) -> list[str]:
    found = []
    inside = 0
    for match in TOKEN.finditer(source):
        kind, token = match.lastgroup, match.group(0)
        if kind == "block":
            tag = token[2:-2].strip()
            if tag.startswith(("blocktranslate", "blocktrans ")) or tag == "blocktrans":
                inside += 1
            elif tag.startswith(("endblocktranslate", "endblocktrans")):
                inside -= 1
            continue
        if inside:
            continue
        if kind == "text" and words_for_people(token):
            found.append(" ".join(token.split()))
        elif kind == "tag":
            for attribute in ATTRIBUTE.finditer(token):
                name, value = attribute.groups()
                if name == "content" and 'name="description"' not in token:
                    continue
                if "{% translate" in value or "{% blocktranslate" in value:
                    continue
                if words_for_people(value):
                    found.append(f'{name}="{value}"')
    return found


def templates() -> list[Path]:
    found = []
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html"):
            relative = path.relative_to(folder).as_posix()
            if not any(part in f"/{relative}" for part in NOT_FOR_PLAYERS):
                found.append(path)
    return sorted(set(found))


def test_every_word_of_the_templates_is_marked_for_translation() -> None:
    unmarked = {
        str(path.relative_to(ROOT)): texts
        for path in templates()
        if (texts := unmarked_in_template(path.read_text()))
    }
    assert not unmarked, "text not marked for translation:\n" + "\n".join(
        f"{path}: {texts[:6]}" for path, texts in unmarked.items()
    )


def staff_templates() -> list[Path]:
    """The site's own pages of the admin: not held to the scan (staff read English
    where nothing is marked), but what they mark is translated like the rest."""
    return sorted({path for folder in TEMPLATE_DIRS for path in folder.rglob("*.html")
                   if "admin/" in path.relative_to(folder).as_posix()})


def test_every_marked_template_text_is_in_the_catalogs() -> None:
    known = {(e.msgctxt, e.msgid) for e in catalog("es", "django")}
    missing = []
    for path in templates() + staff_templates():
        for match in MARKED.finditer(path.read_text()):
            key = (match.group("context"), match.group("text"))
            # A "%" in a template's text is "%%" in the catalog (python-format).
            escaped = (key[0], key[1].replace("%", "%%"))
            if key not in known and escaped not in known:
                missing.append(f"{path.relative_to(ROOT)}: {key[1]!r}")
    assert not missing, "run makemessages (docs/operations.md, Translations):\n" + "\n".join(
        missing
    )


# --- browser code ------------------------------------------------------------------

# A string literal put where people read it: textContent / title / a label's value, an
# aria-label or title attribute, a toast or a notice.
SHOWN = re.compile(
    r"""(?:textContent\s*[+]?=\s*|\.title\s*=\s*|\blabel:\s*|setAttribute\(\s*"(?:aria-label|title|placeholder|alt)",\s*|\b(?:toast|showNotice|notice|confirm|alert)\(\s*)(?P<q>["'`])(?P<text>(?:(?!(?P=q)).)*)(?P=q)"""
)
GETTEXT = re.compile(r'\bgettext\(\s*"([^"]*)"')
NGETTEXT = re.compile(r'\bngettext\(\s*"([^"]*)"\s*,\s*"([^"]*)"')
PGETTEXT = re.compile(r'\bpgettext\(\s*"([^"]*)"\s*,\s*"([^"]*)"')


def scripts() -> list[Path]:
    found = []
    for folder in SCRIPT_DIRS:
        for path in folder.rglob("*.js"):
            if path.name not in SCRIPTS_WITHOUT_WORDS and "node_modules" not in path.parts:
                found.append(path)
    return sorted(found)


def test_every_string_the_browser_code_shows_is_marked_for_translation() -> None:
    unmarked = []
    for path in scripts():
        for line in path.read_text().splitlines():
            if line.lstrip().startswith(("//", "*", "/*")):
                continue
            for match in SHOWN.finditer(line):
                if words_for_people(re.sub(r"\$\{.*?\}", " ", match.group("text"))):
                    unmarked.append(f"{path.relative_to(ROOT)}: {line.strip()[:120]}")
    assert not unmarked, "strings shown but not marked for translation:\n" + "\n".join(unmarked)


def test_every_marked_string_of_the_browser_code_is_in_the_catalogs() -> None:
    known = {(e.msgctxt, e.msgid) for e in catalog("es", "djangojs")}
    missing = []
    for path in scripts():
        source = path.read_text()
        keys = [(None, m.group(1)) for m in GETTEXT.finditer(source)]
        keys += [(None, m.group(1)) for m in NGETTEXT.finditer(source)]
        keys += [(m.group(1), m.group(2)) for m in PGETTEXT.finditer(source)]
        missing += [f"{path.relative_to(ROOT)}: {text!r}" for key in keys
                    if key not in known for text in [key[1]]]
    assert not missing, "run makemessages -d djangojs (docs/operations.md):\n" + "\n".join(
        missing
    )
