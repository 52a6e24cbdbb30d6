"""Players see each computer level's measured rating where they choose it: the home
page's "Play the computer" form, the offline table's set-up, and the bot API docs."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.bots import LEVELS
from games.bots.ratings import RATINGS, level_label

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def radio_labels(page: str, name: str) -> dict[str, str]:
    """value -> visible label text of the radio inputs called ``name``."""
    found = {}
    for match in re.finditer(
        rf'<input type="radio" name="{name}" value="(\w+)"[^>]*>\s*<span>([^<]*)</span>', page
    ):
        found[match[1]] = html.unescape(match[2])
    return found


def test_every_level_has_a_rating_anchored_at_easy_and_a_label() -> None:
    assert set(RATINGS) == set(LEVELS)
    assert RATINGS["easy"] == 1500
    assert level_label("expert") == f"Expert ≈ {RATINGS['expert']}"


def test_home_page_shows_each_levels_rating_in_the_computer_form() -> None:
    page = Client().get("/").content.decode()
    assert radio_labels(page, "computer-level") == {
        level: f"{level.capitalize()} ≈ {RATINGS[level]:,}" for level in LEVELS
    }
    assert "measured against the easy computer" in page


def test_offline_table_shows_the_ratings_of_its_two_levels_in_the_readers_language() -> None:
    page = Client().get(reverse("games:offline")).content.decode()
    assert radio_labels(page, "level") == {
        "easy": f"Easy ≈ {RATINGS['easy']:,}",
        "medium": f"Medium ≈ {RATINGS['medium']:,}",
    }
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("games:offline")).content.decode()
    assert radio_labels(german, "level") == {
        "easy": f"Leicht ≈ {RATINGS['easy']:,}".replace(",", "."),
        "medium": f"Mittel ≈ {RATINGS['medium']:,}".replace(",", "."),
    }


def test_bot_api_docs_give_the_ratings_of_the_levels_a_challenge_names() -> None:
    docs = (ROOT / "docs" / "bot-api.md").read_text()
    for level in LEVELS:
        assert f"| `{level}` | {RATINGS[level]} |" in docs
