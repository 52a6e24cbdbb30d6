"""The Content Security Policy (ginsite/settings.py, ginsite/csp.py, docs/operations.md)
is on every response, error pages included, and names the page's own sockets; and no
template holds what it forbids (an inline script, an inline style, an event handler
attribute), which the browser test (tests/browser/test_csp.py) cannot reach on the
pages its server shows only with DEBUG off (the site's 404, 500 and 503 pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.test_references import SKIPPED_DIRS

ROOT = Path(__file__).resolve().parent.parent

EXPECTED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "font-src": "'self'",
    "connect-src": "'self' ws://testserver wss://testserver",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy_of(response: object) -> dict[str, str]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/play/offline/", "/sw.js",
                                  "/manifest.webmanifest", "/no-such-page/"])
def test_every_response_carries_the_policy(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (200, 404)
    assert policy_of(response) == EXPECTED


@pytest.mark.django_db
def test_the_sockets_are_those_of_the_host_asked(client: Client) -> None:
    response = client.get("/", HTTP_HOST="localhost:8000")
    assert policy_of(response)["connect-src"] == "'self' ws://localhost:8000 wss://localhost:8000"


@pytest.mark.django_db
def test_a_host_not_allowed_gets_the_policy_without_sockets(client: Client) -> None:
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert policy_of(response)["connect-src"] == "'self'"


def test_the_policy_has_no_unsafe_source() -> None:
    sources = " ".join(
        " ".join(values) for values in settings.CONTENT_SECURITY_POLICY["DIRECTIVES"].values()
    )
    assert "unsafe" not in sources
    assert "*" not in sources


FORBIDDEN = {
    "inline script": re.compile(
        r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:json|ld\+json)\")[^>]*>", re.I
    ),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "event handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


def _sources(dirs: list[Path], pattern: str) -> list[Path]:
    """The site's own files only: not what the tools make beside them (collected static
    files, bench/topology.py's build/ run directory) or install (tests/test_references.py's
    SKIPPED_DIRS)."""
    return sorted(
        path for d in dirs for path in d.rglob(pattern)
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
    )


def templates() -> list[Path]:
    return _sources([ROOT / "templates", *ROOT.glob("*/templates"), *ROOT.glob("*/*/templates")],
                    "*.html")


def test_no_template_holds_what_the_policy_forbids() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text[:match.start()].count(chr(10)) + 1}: {what}"
        for path in templates()
        for text in [path.read_text()]
        for what, pattern in FORBIDDEN.items()
        for match in pattern.finditer(text)
    ]
    assert len(templates()) > 40
    assert found == []


#: What the browser code may not write into the page: a style attribute (the policy's
#: style-src refuses it; a script may still set ``element.style.x``, which it allows).
SCRIPT_FORBIDDEN = {
    "style attribute in markup": re.compile(r"""<[^>]*\sstyle\s*=""", re.I),
    "style attribute set": re.compile(r"""setAttribute\(\s*["']style["']"""),
    "style in an element's attributes": re.compile(r"""[{,]\s*["']?style["']?\s*:\s*["'`]"""),
    "style text": re.compile(r"\.style\.cssText\s*="),
}


def scripts() -> list[Path]:
    return _sources([*ROOT.glob("*/static"), *ROOT.glob("*/*/static")], "*.js")


def test_no_browser_script_writes_a_style_attribute() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text[:match.start()].count(chr(10)) + 1}: {what}"
        for path in scripts()
        for text in [path.read_text()]
        for what, pattern in SCRIPT_FORBIDDEN.items()
        for match in pattern.finditer(text)
    ]
    assert len(scripts()) > 30
    assert found == []


def test_no_browser_test_waits_with_playwrights_own_eval() -> None:
    """Playwright's ``wait_for_function`` evaluates its expression with ``eval`` from the
    page as soon as it has to poll, which the policy forbids: a wait whose condition is
    false at first (a slow server, a loaded machine) fails with an EvalError, as the
    course's last-match test did waiting for the CSRF cookie in a full run beside two
    busy processes. The browser tests wait with ``wait_until`` (tests/browser/conftest.py)
    instead."""
    calls = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests" / "browser").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\.wait_for_function\(", line)
    ]
    assert calls == []
