"""A player downloads a match and the site's verifier from the score sheet, as its
links offer them, and runs the verifier on the download in a bare interpreter: ok,
with the site's key; the same download with one bot flag changed is refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import RuleSet
from games.models import Match
from tests.api.drivers import Script, play_match
from tests.browser.conftest import PASSWORD, PHONE, SCREENSHOTS, off_the_event_loop, sign_in
from tests.factories import create_match, create_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_match() -> Match:
    """ann's match against the easy computer (to 50), played to its end."""
    user = create_user("ann", PASSWORD)
    match = create_match(user, "easy", rules=RuleSet.default().replace(target_score=50))
    return play_match(match, random.Random(3), Script())


def run(verifier: Path, export: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(verifier), str(export)],
        cwd=verifier.parent, capture_output=True, text=True, timeout=120,
    )


def test_the_score_sheet_offers_the_export_and_its_verifier_which_checks_it(
    site: Any, new_page: Any, tmp_path: Path
) -> None:
    match = off_the_event_loop(finished_match)
    assert match.status == Match.Status.FINISHED and match.end_reason == "target"
    for name, viewport in (("desktop", {"width": 1280, "height": 800}), ("phone", PHONE)):
        page = new_page(viewport)
        sign_in(page, site.url, "ann")
        page.goto(f"{site.url}/players/ann/")  # the profile's downloads name it too
        assert page.get_by_role("link", name="verify_gin.py").is_visible()
        page.screenshot(path=SCREENSHOTS / f"profile-verifier-{name}.png", full_page=True)
        page.goto(f"{site.url}/match/{match.pk}/sheet/")
        page.screenshot(path=SCREENSHOTS / f"score-sheet-verifier-{name}.png", full_page=True)
        link = page.get_by_role("link", name="its verifier, verify_gin.py")
        assert link.is_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"]
    with page.expect_download() as download:
        page.get_by_role("link", name="download (gin-match/2)").click()
    export = tmp_path / download.value.suggested_filename
    download.value.save_as(export)
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename == "verify_gin.py"
    verifier = tmp_path / "verify_gin.py"
    download.value.save_as(verifier)

    checked = run(verifier, export)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = checked.stdout.splitlines()
    assert len(lines) == match.hands.count() + 2 and lines[0].startswith("hand 1: ok")
    key = json.loads(page.goto(f"{site.url}/export/key.json").text())["key"]
    assert lines[-2] == f"signature: ok (Ed25519, the site's key {key})"
    assert lines[-1].startswith(f"match {match.pk}: ok (")

    document = json.loads(export.read_text())
    ann = next(player for player in document["players"] if player["name"] == "ann")
    ann["bot"] = True  # as if ann were a program
    export.write_text(json.dumps(document))
    refused = run(verifier, export)
    assert refused.returncode == 1
    assert refused.stdout.splitlines()[-1] == (
        "FAILED signature: does not match the document: a field was changed after the site "
        "signed it"
    )
