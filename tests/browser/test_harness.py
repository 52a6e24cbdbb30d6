"""The browser tests' own harness: a Chromium that stops answering while a test's
contexts are closed costs that teardown ``Chromium.CLOSE_SECONDS``, not the run
(it once hung 900 s in ``context.close()`` until pytest-timeout ended the run)."""

from __future__ import annotations

import subprocess

import pytest

from tests.browser.conftest import DESKTOP, Chromium


def test_a_chromium_that_stops_answering_is_killed_and_launched_again(
    chromium: Chromium, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chromium, "CLOSE_SECONDS", 2.0)
    hung = chromium.get()
    context = hung.new_context(viewport=DESKTOP)
    context.new_page().set_content("<p>before</p>")
    subprocess.run(["pkill", "-STOP", "-f", "--", chromium.pattern], check=True)

    with pytest.warns(UserWarning, match="Chromium was killed"):
        chromium.close([context])

    assert not hung.is_connected()
    page = chromium.get().new_page()
    page.set_content("<p id=after>after</p>")
    assert page.locator("#after").inner_text() == "after"
    page.close()
