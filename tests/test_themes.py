"""Every table theme keeps text and cards readable: the contrast of each pair of a
text colour and the background it is drawn on, computed from the stylesheets
themselves (site.css and table.css for the green felt, prefs.css for the others, in
both deck colourings), is 4.5:1 or more (WCAG 2's AA for normal text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accounts.models import Profile

STATIC = Path(__file__).resolve().parents[1] / "games" / "static" / "games"
MINIMUM = 4.5

# (text, background): what is drawn on what.
PAIRS = [
    *[("--text", bg) for bg in ("--bg", "--bg-2", "--panel", "--panel-2", "--felt-1", "--felt-2")],
    *[("--muted", bg) for bg in ("--bg", "--bg-2", "--panel", "--panel-2")],
    *[("--felt-muted", bg) for bg in ("--felt-1", "--felt-2")],
    *[("--accent-2", bg) for bg in ("--bg", "--panel", "--panel-2")],  # links
    ("--accent-ink", "--accent"),  # the main buttons
    ("--accent-ink", "--meld"),  # a meld's tag, a knockable deadwood
    ("--urgent-ink", "--urgent"),  # a clock about to run out
    *[(f"--suit-{s}", "--card-face") for s in "SHDC"],  # the cards' indices and pips
    *[(f"--suit-text-{s}", bg) for s in "SHDC" for bg in ("--bg", "--panel", "--panel-2")],
]


def top_level_blocks(css: str) -> list[tuple[str, str]]:
    """(selector, body) of each rule outside any @media, comments removed."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    blocks, depth, start, selector_start = [], 0, 0, 0
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                selector, start = css[selector_start:i].strip(), i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if not selector.startswith("@"):
                    blocks.append((selector, css[start:i]))
                selector_start = i + 1
    return blocks


def declarations(body: str) -> dict[str, str]:
    return {
        name.strip(): value.strip()
        for name, value in re.findall(r"(--[\w-]+)\s*:\s*([^;]+);?", body)
    }


def variables(selectors: list[str]) -> dict[str, str]:
    """The custom properties set on <html> by rules of exactly these selectors, in the
    order the sheets are loaded (site.css, table.css, prefs.css)."""
    found: dict[str, str] = {}
    for sheet in ("site.css", "table.css", "prefs.css"):
        for selector, body in top_level_blocks((STATIC / sheet).read_text()):
            for one in (s.strip() for s in selector.split(",")):
                if one in selectors:
                    found.update(declarations(body))
    return found


def resolve(name: str, found: dict[str, str]) -> str:
    value = found[name]
    while value.startswith("var("):
        value = found[re.match(r"var\((--[\w-]+)", value).group(1)]  # type: ignore[union-attr]
    return value


def luminance(colour: str) -> float:
    hex_digits = colour.lstrip("#")
    if len(hex_digits) == 3:
        hex_digits = "".join(c * 2 for c in hex_digits)
    assert re.fullmatch(r"[0-9a-fA-F]{6}", hex_digits), f"not a plain colour: {colour}"

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(hex_digits[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def theme_selectors(theme: str, suits: str) -> list[str]:
    selectors = [":root"]
    if suits == "two":
        selectors.append('html[data-suits="two"]')
    if theme != "green":
        selectors.append(f'html[data-theme="{theme}"]')
        if suits == "two":
            selectors.append(f'html[data-theme="{theme}"][data-suits="two"]')
    return selectors


@pytest.mark.parametrize("suits", ["four", "two"])
@pytest.mark.parametrize("theme", Profile.Theme.values)
def test_every_theme_keeps_text_and_cards_at_4_5_to_1(theme: str, suits: str) -> None:
    found = variables(theme_selectors(theme, suits))
    weak = []
    for text, background in PAIRS:
        ratio = contrast(resolve(text, found), resolve(background, found))
        if ratio < MINIMUM:
            weak.append(f"{text} {resolve(text, found)} on {background} "
                        f"{resolve(background, found)}: {ratio:.2f}")
    assert weak == [], f"{theme}, {suits}-colour deck"


def test_the_check_sees_a_weak_pair() -> None:
    assert contrast("#777777", "#ffffff") < MINIMUM < contrast("#767676", "#000000")
    found = declarations("--a: #1a7a4c; --b: var(--a); --c: #d9eadf;")
    assert contrast(resolve("--c", found), resolve("--b", found)) < MINIMUM
    # The high-contrast theme does change the colours it is judged by.
    assert resolve("--bg", variables(theme_selectors("contrast", "four"))) == "#000"
