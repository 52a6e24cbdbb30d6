"""Level ratings fitted from arena results (bench/botratings.py), anchored at easy."""

from __future__ import annotations

import math

import pytest

from bench import botratings


def test_one_result_gives_the_elo_difference_of_its_win_rate() -> None:
    # 300 of 400 won, half a win added on each side: 300.5 / 401.
    ratings = botratings.fit([("medium", "easy", 300, 400)])
    p = 300.5 / 401
    assert ratings["easy"] == (1500.0, 0.0)
    assert round(ratings["medium"][0], 3) == round(
        1500 + botratings.SCALE * math.log(p / (1 - p)), 3
    )
    assert 0 < ratings["medium"][1] < 100


def test_head_to_head_results_order_the_levels_between_their_results_vs_easy() -> None:
    results = [
        ("medium", "easy", 270, 400),
        ("hard", "easy", 290, 400),
        ("hard", "medium", 230, 400),
        ("expert", "easy", 160, 200),
        ("expert", "hard", 120, 200),
    ]
    r = {level: value for level, (value, _) in botratings.fit(results).items()}
    assert r["easy"] < r["medium"] < r["hard"] < r["expert"]


def test_written_module_holds_the_ratings_and_the_command() -> None:
    results = [
        ("medium", "easy", 276, 400),
        ("hard", "easy", 140, 200),
        ("expert", "easy", 70, 100),
    ]
    text = botratings.module_text(results, botratings.fit(results))
    namespace: dict = {}
    exec(compile(text, "ratings.py", "exec"), namespace)
    assert namespace["RATINGS"]["easy"] == 1500
    assert namespace["level_label"]("hard") == f"Hard ≈ {namespace['RATINGS']['hard']}"
    assert "--result medium:easy:276:400" in text


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("medium:easy:3", "A:B:WINS:MATCHES"),
        ("medium:novice:3:4", "unknown level"),
        ("medium:medium:3:4", "two different levels"),
        ("medium:easy:5:4", "0 <= WINS <= MATCHES"),
        ("medium:easy:x:4", "whole numbers"),
    ],
)
def test_malformed_results_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        botratings.parse_result(text)


def test_levels_not_linked_to_easy_are_refused() -> None:
    with pytest.raises(ValueError, match="linked to easy"):
        botratings.fit([("hard", "medium", 3, 4)])
