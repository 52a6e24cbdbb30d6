"""Duplicate hands (bench/bothands.py): net points per hand between two levels."""

from __future__ import annotations

import pytest

from bench import bothands


def test_a_level_against_itself_nets_exactly_zero_on_duplicate_deals() -> None:
    # The same deal, the same random generators, the seats exchanged: the same play.
    for index in range(3):
        net, cpu, decisions, won = bothands.play_pair(("easy", "easy", "default", 5, index))
        assert net == 0 and decisions > 0 and cpu >= 0
        assert won[0] == won[1]  # the same hand twice: the same winner's points


def test_the_histogram_of_hand_points_is_equitys_table() -> None:
    line = bothands.points_histogram([2, 3, 4, 25, 26, 30])
    assert line == "HAND_POINTS = ((2, 0.1667), (4, 0.3333), (26, 0.3333), (30, 0.1667))"


def test_summary_is_per_hand_with_a_95_percent_interval() -> None:
    net, half = bothands.summary([10, -2, 6, 2])
    assert net == 2.0  # 16 points over 4 pairs of 2 hands
    assert round(half, 4) == round(1.96 * (80 / 3) ** 0.5 / 2 / 2, 4)


def test_command_prints_the_net_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert bothands.main(["--a", "medium", "--b", "easy", "--pairs", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "net points per hand of medium" in out and "95% CI" in out
    with pytest.raises(SystemExit):
        bothands.main(["--a", "medium", "--b", "easy", "--pairs", "0"])
