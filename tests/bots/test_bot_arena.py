"""The bot arena (games/bots/arena.py): seat-swapped matches, its figures, and its two
commands (``python -m bench.botarena``, ``python manage.py botarena``), and the
bench's ``--sight``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import CommandError, call_command

from bench import botarena
from games.bots import arena, choose_action
from games.engine import HandState, RuleSet


def test_wilson_interval() -> None:
    low, high = arena.wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_arena_plays_seat_swapped_matches_to_the_target() -> None:
    tally = arena.run("easy", "easy", matches=2, seed=7)
    assert tally.matches == 2
    assert tally.a.matches_won + tally.b.matches_won == 2
    assert tally.hands >= 2 * 1
    assert tally.a.hands_won + tally.b.hands_won + tally.draws == tally.hands
    assert tally.a.times_ms and tally.b.times_ms
    text = arena.report("easy", "easy", tally)
    assert "match win rate of easy" in text and "95% CI" in text
    # The same seed replays the same matches.
    again = arena.run("easy", "easy", matches=2, seed=7)
    assert (again.hands, again.a.points, again.b.points) == (
        tally.hands,
        tally.a.points,
        tally.b.points,
    )


def test_module_command_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert botarena.main(["--a", "easy", "--b", "easy", "--matches", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "matches: 2" in out and "p50 / p95 / p99 / max" in out


def test_management_command_runs_the_same_arena(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("botarena", a="easy", b="easy", matches=2, seed=3, rules="oklahoma")
    out = capsys.readouterr().out
    assert "rules oklahoma" in out and "match win rate of easy" in out
    with pytest.raises(CommandError, match="--matches must be at least 1"):
        call_command("botarena", a="easy", b="easy", matches=0)


def test_duplicate_pairs_share_their_deals_and_independent_matches_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first_deals: list[bytes] = []
    start = arena.MatchState.start

    def recording_start(rules, first_dealer, seed):  # type: ignore[no-untyped-def]
        first_deals.append(seed)
        return start(rules, first_dealer=first_dealer, seed=seed)

    monkeypatch.setattr(arena.MatchState, "start", recording_start)
    duplicate = arena.run("easy", "medium", matches=2, seed=4)
    assert len(first_deals) == 2 and first_deals[0] == first_deals[1]
    assert len(duplicate.units) == 1 and duplicate.units[0][1] == duplicate.hands
    first_deals.clear()
    independent = arena.run("easy", "medium", matches=2, seed=4, independent=True)
    assert len(first_deals) == 2 and first_deals[0] != first_deals[1]
    assert len(independent.units) == 2
    assert sum(h for _, h in independent.units) == independent.hands
    assert sum(p for p, _ in independent.units) == independent.a.points - independent.b.points


def test_net_points_per_hand_and_its_interval() -> None:
    net, half = arena.net_per_hand([(30, 10), (-10, 10), (20, 10), (0, 10)])
    assert net == 1.0
    # Per pair net - 1.0 * hands: 20, -20, 10, -10 -> variance 1000/3 over 4 pairs.
    assert round(half, 4) == round(1.96 * (1000 / 3 / 4) ** 0.5 / 10, 4)
    assert arena.net_per_hand([]) == (0.0, 0.0)


def test_elo_difference_of_a_win_rate() -> None:
    assert arena.elo_difference(0.5) == 0
    assert round(arena.elo_difference(0.76)) == 200
    assert arena.elo_difference(0.24) == -arena.elo_difference(0.76)


def test_tuning_reads_levels_search_variants_and_heuristic_variants() -> None:
    from dataclasses import replace

    from bench.bottune import parse_player
    from games.bots import policy, search

    assert parse_player("hard") == "hard" and parse_player("@expert") == "expert"
    level, config = parse_player("@expert:margin=1/stock_gain=0.5,full_turns=4")
    expert = search.LEVELS["expert"]
    assert (level, config.margin, config.budget) == ("expert", 1.0, expert.budget)
    weights = replace(expert.params.weights, stock_gain=0.5)
    assert config.params == replace(expert.params, weights=weights, full_turns=4)
    # A heuristic variant starts from medium's constants.
    assert parse_player("gin=14") == replace(
        policy.MEDIUM, weights=replace(policy.MEDIUM.weights, gin=14.0)
    )


def test_a_tuning_player_with_sight_is_shown_the_opponents_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bench import bottune

    assert bottune.parse_player("sight:@hard") == bottune.Sight("hard")
    # Elsewhere (bench.botbranches asks decide() with a view alone) it is refused clearly.
    with pytest.raises(ValueError, match="sight"):
        bottune.decide(bottune.Sight("hard"), {}, [], bottune.random.Random(1))
    seen: list[list[str]] = []
    decide = bottune.decide

    def spy(player, view, legal, rng, scores=None):  # type: ignore[no-untyped-def]
        if view["seat"] == 0:
            seen.append(view["opponent_known_cards"])
        return decide(player, view, legal, rng, scores)

    monkeypatch.setattr(bottune, "decide", spy)
    rules = bottune.RuleSet.preset("default")
    medium = bottune.parse_player("")
    bottune.play_hand(rules, (bottune.Sight(medium), medium), b"\x07" * 32, 0)
    assert seen and all(len(known) >= 10 for known in seen)
    # Without sight it knows only what the opponent picked from the pile.
    seen.clear()
    bottune.play_hand(rules, (medium, medium), b"\x07" * 32, 0)
    assert seen and all(len(known) < 10 for known in seen)


def test_sight_shows_side_a_and_only_side_a_its_opponents_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    play_match, player_view = botarena.sight_patches()
    monkeypatch.setattr(arena, "play_match", play_match)
    monkeypatch.setattr(HandState, "player_view", player_view)
    seen: list[tuple[int, list[str], list[str]]] = []

    def spy(level: str, view: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        seen.append((view["seat"], view["opponent_known_cards"], view["hand"]))
        return choose_action(level, view, *args, **kwargs)

    monkeypatch.setattr(arena, "choose_action", spy)
    for swapped, side_a in ((False, 0), (True, 1)):
        seen.clear()
        arena.play_match(("easy", "easy"), RuleSet.default(), 5, 0, swapped=swapped)
        shown = {seat for seat, known, _hand in seen if len(known) >= 10}
        assert shown == {side_a}
