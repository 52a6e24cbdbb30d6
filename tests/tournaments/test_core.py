"""The pure rules of tournaments: arena points and streaks, arena and Swiss pairing,
Swiss standings with Buchholz and Sonneborn-Berger, recurring dates."""

import ast
import itertools
import random
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from games.tournaments.core import pairing, recurrence, scoring
from games.tournaments.core.pairing import NoPairing, SwissPlayer, Waiting, arena_pairs, swiss_pairs
from games.tournaments.core.scoring import Game, arena_score, swiss_standings

CORE = Path(pairing.__file__).parent


def test_core_imports_only_the_standard_library():
    outside = []
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            outside += [n for n in names if n.split(".")[0] not in sys.stdlib_module_names]
    assert outside == []


# --- arena points ----------------------------------------------------------------------

def test_arena_win_two_loss_zero():
    assert arena_score([True]).points == 2
    assert arena_score([False]).points == 0
    assert arena_score([True, False, True]).points == 4


def test_arena_streak_doubles_after_two_wins_until_a_loss():
    # 2 + 2 + 4 + 4, loss 0, then 2 + 2 + 4 again.
    score = arena_score([True, True, True, True, False, True, True, True])
    assert score.points == 2 + 2 + 4 + 4 + 0 + 2 + 2 + 4
    assert score.streak == 3 and score.on_fire
    assert (score.wins, score.losses) == (7, 1)


def test_the_flame_shows_from_two_wins_in_a_row():
    assert not arena_score([True]).on_fire
    assert arena_score([True, True]).on_fire
    assert not arena_score([True, True, False]).on_fire


# --- arena pairing -----------------------------------------------------------------------

def _pool(rng: random.Random, n: int) -> list[Waiting]:
    ids = list(range(n))
    rng.shuffle(ids)
    last = {}
    for a, b in zip(ids[::2], ids[1::2], strict=False):
        if rng.random() < 0.7:
            last[a], last[b] = b, a
    return [
        Waiting(player=i, score=rng.choice([0, 2, 4, 6, 8]), rating=rng.uniform(1200, 1800),
                last_opponent=last.get(i), since=rng.random())
        for i in range(n)
    ]


@pytest.mark.parametrize("seed", range(40))
def test_arena_pass_pairs_each_waiting_player_at_most_once_without_rematches(seed):
    rng = random.Random(seed)
    pool = _pool(rng, rng.randint(3, 60))
    pairs = arena_pairs(pool)
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen))
    assert len(pairs) == len(pool) // 2
    last = {w.player: w.last_opponent for w in pool}
    assert not any(last[a] == b for a, b in pairs)


def test_arena_pairs_neighbours_by_score_then_rating():
    pool = [
        Waiting("low", 0, 1900, None, 1), Waiting("top", 8, 1500, None, 2),
        Waiting("mid-high", 4, 1700, None, 3), Waiting("mid-low", 4, 1300, None, 4),
    ]
    assert arena_pairs(pool) == [("top", "mid-high"), ("mid-low", "low")]


def test_arena_avoids_an_immediate_rematch_when_someone_else_waits():
    pool = [Waiting("a", 4, 1500, "b", 1), Waiting("b", 4, 1490, "a", 2),
            Waiting("c", 0, 1400, None, 3), Waiting("d", 0, 1300, None, 4)]
    pairs = arena_pairs(pool)
    assert ("a", "b") not in pairs and len(pairs) == 2


def test_arena_rematch_allowed_when_nobody_else_waits():
    pool = [Waiting("a", 2, 1500, "b", 1), Waiting("b", 0, 1500, "a", 2)]
    assert arena_pairs(pool) == [("a", "b")]


def test_arena_odd_pool_leaves_the_latest_arrival_waiting():
    pool = [Waiting("a", 0, 1500, None, 1), Waiting("b", 0, 1500, None, 2),
            Waiting("late", 0, 1500, None, 9)]
    assert arena_pairs(pool) == [("a", "b")]


def _arena_of_three(matches: int) -> list[tuple[int, int]]:
    """Three players in an arena, every pass pairing from the pool as the service does:
    the two players of a match finish together and wait again from that moment; the
    first seat wins. Returns the pairs in the order they played."""
    since = {1: 0.0, 2: 0.0, 3: 0.0}
    last: dict[int, int | None] = {1: None, 2: None, 3: None}
    score = {p: scoring.ArenaScore(0, 0, 0, 0) for p in since}
    played = []
    for clock in range(1, matches + 1):
        pool = [Waiting(p, score[p].points, 1500, last[p], since[p]) for p in since]
        ((a, b),) = arena_pairs(pool)
        played.append((a, b))
        score[a], _ = scoring.arena_add(score[a], True)
        score[b], _ = scoring.arena_add(score[b], False)
        since[a] = since[b] = float(clock)
        last[a], last[b] = b, a
    return played


def test_three_arena_players_take_turns_the_longest_waiting_first():
    played = _arena_of_three(10)
    counts = {p: sum(p in pair for pair in played) for p in (1, 2, 3)}
    assert sorted(counts.values()) == [6, 7, 7], played
    met = {frozenset(pair) for pair in played}
    assert len(met) == 3  # everyone met everyone
    for before, after in itertools.pairwise(played):
        assert set(before) != set(after), played  # never the same match twice in a row
    # The one who sat out a match always plays the next one.
    for before, after in itertools.pairwise(played):
        (out,) = {1, 2, 3} - set(before)
        assert out in after, played


def test_an_odd_pool_pairs_the_longest_waiting_without_a_rematch():
    # "b" has waited since 1; "a" and "c" just finished their match against each other:
    # one of those two waits, and "b" is not paired with "a", whom it just played.
    pool = [Waiting("a", 6, 1500, "c", 5), Waiting("b", 2, 1500, "a", 1),
            Waiting("c", 0, 1500, "a", 5)]
    assert [set(pair) for pair in arena_pairs(pool)] == [{"b", "c"}]
    # With five: the three who waited longest are all paired.
    pool = [Waiting("a", 6, 1500, "c", 5), Waiting("b", 2, 1500, "a", 1),
            Waiting("c", 0, 1500, "a", 5), Waiting("d", 4, 1500, None, 2),
            Waiting("e", 4, 1500, None, 3)]
    paired = {p for pair in arena_pairs(pool) for p in pair}
    assert {"b", "d", "e"} <= paired and len(paired) == 4


def test_arena_standings_break_equal_points_by_fewer_losses_then_rating():
    rows = scoring.arena_standings([
        scoring.Row(player="two-one", points=4, wins=2, losses=1, rating=1900),
        scoring.Row(player="two-zero", points=4, wins=2, losses=0, rating=1400),
        scoring.Row(player="leader", points=8, wins=3, losses=2, rating=1200),
        scoring.Row(player="twin", points=4, wins=2, losses=1, rating=1500),
    ])
    assert [r.player for r in rows] == ["leader", "two-zero", "two-one", "twin"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert [r.tiebreaks for r in rows] == [[2], [0], [1], [1]]  # the losses, fewer first


# --- Swiss pairing ----------------------------------------------------------------------

def _play_swiss(seed: int, n: int, rounds: int) -> tuple[list[tuple], list[Game]]:
    """A whole Swiss with random results; returns every pairing and game."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(n)]
    ratings = {p: rng.uniform(1000, 2000) for p in names}
    games: list[Game] = []
    paired = []
    for _ in range(rounds):
        rows = {r.player: r for r in swiss_standings(names, games, ratings)}
        opponents = {p: set() for p in names}
        byes = set()
        for g in games:
            if g.black is None:
                byes.add(g.white)
            else:
                opponents[g.white].add(g.black)
                opponents[g.black].add(g.white)
        try:
            pairs, bye = swiss_pairs([
                SwissPlayer(p, rows[p].points, ratings[p], frozenset(opponents[p]), p in byes)
                for p in names
            ])
        except NoPairing:
            break
        for a, b in pairs:
            paired.append((a, b))
            games.append(Game(a, b, rng.choice([a, b])))
        if bye is not None:
            paired.append((bye, None))
            games.append(Game(bye, None, bye))
    return paired, games


@pytest.mark.parametrize("seed", range(60))
def test_swiss_never_repeats_a_pairing_and_gives_at_most_one_bye(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 24)
    rounds = rng.randint(1, max(1, min(n - 1, 7)))
    paired, games = _play_swiss(seed, n, rounds)
    meetings = [frozenset(p) for p in paired if p[1] is not None]
    assert len(meetings) == len(set(meetings))
    byes = [a for a, b in paired if b is None]
    assert len(byes) == len(set(byes))
    per_round = n // 2 + n % 2
    assert len(paired) % per_round == 0  # every round pairs everyone (one bye if odd)
    rows = swiss_standings([f"p{i}" for i in range(n)], games)
    assert sum(r.points for r in rows) == len(games)  # one point per game or bye


def test_swiss_round_robin_of_six_completes_five_rounds():
    paired, _ = _play_swiss(3, 6, 5)
    assert len(paired) == 15  # everyone met everyone once


def test_swiss_pairs_equal_scores_first():
    players = [SwissPlayer("w1", 1, 1500, frozenset({"l1"})),
               SwissPlayer("w2", 1, 1400, frozenset({"l2"})),
               SwissPlayer("l1", 0, 1600, frozenset({"w1"})),
               SwissPlayer("l2", 0, 1300, frozenset({"w2"}))]
    pairs, bye = swiss_pairs(players)
    assert pairs == [("w1", "w2"), ("l1", "l2")] and bye is None


def test_swiss_bye_goes_to_the_lowest_player_without_one():
    players = [SwissPlayer("a", 2, 1500, frozenset()), SwissPlayer("b", 1, 1500, frozenset()),
               SwissPlayer("c", 0, 1500, frozenset(), had_bye=True)]
    pairs, bye = swiss_pairs(players)
    assert bye == "b" and pairs == [("a", "c")]


def test_swiss_raises_when_only_repeats_remain():
    players = [SwissPlayer("a", 1, 1500, frozenset({"b"})), SwissPlayer("b", 0, 1500,
                                                                        frozenset({"a"}))]
    with pytest.raises(NoPairing):
        swiss_pairs(players)


# --- Swiss standings ----------------------------------------------------------------------

def test_swiss_standings_with_buchholz_and_sonneborn_berger():
    games = [Game("a", "b", "a"), Game("c", "d", "c"),  # round 1
             Game("a", "c", "a"), Game("b", "d", "b"),  # round 2
             Game("a", "d", "d"), Game("c", "b", "b")]  # round 3
    rows = swiss_standings(["a", "b", "c", "d"], games)
    got = {r.player: (r.points, r.tiebreaks) for r in rows}
    # points: a 2, b 2, c 1, d 1
    assert got["a"] == (2, [2 + 1 + 1, 2 + 1])   # met b, c, d; beat b, c
    assert got["b"] == (2, [2 + 1 + 1, 1 + 1])   # met a, d, c; beat d, c
    assert got["d"] == (1, [1 + 2 + 2, 2])       # met c, b, a; beat a
    assert got["c"] == (1, [1 + 2 + 2, 1])       # met d, a, b; beat d
    assert [r.player for r in rows] == ["a", "b", "d", "c"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_a_bye_scores_a_win_and_adds_no_buchholz():
    rows = swiss_standings(["a", "b", "c"], [Game("a", "b", "b"), Game("c", None, "c")])
    got = {r.player: r for r in rows}
    assert (got["c"].points, got["c"].byes, got["c"].tiebreaks) == (1, 1, [0, 0])
    assert got["a"].tiebreaks == [1, 0]


# --- recurring dates --------------------------------------------------------------------

def test_weekly_sunday_at_six_pm():
    rule = recurrence.Recurrence("weekly", hour=18, weekday=6)
    got = recurrence.occurrences(rule, datetime(2026, 3, 1, 19, tzinfo=UTC),
                                 datetime(2026, 3, 16, tzinfo=UTC))
    assert got == [datetime(2026, 3, 8, 18, tzinfo=UTC), datetime(2026, 3, 15, 18, tzinfo=UTC)]


def test_monthly_first_saturday():
    rule = recurrence.Recurrence("monthly", hour=17, weekday=5, nth=1)
    got = recurrence.occurrences(rule, datetime(2026, 1, 1, tzinfo=UTC),
                                 datetime(2026, 4, 1, tzinfo=UTC))
    assert got == [datetime(2026, 1, 3, 17, tzinfo=UTC), datetime(2026, 2, 7, 17, tzinfo=UTC),
                   datetime(2026, 3, 7, 17, tzinfo=UTC)]


def test_a_bad_rule_is_refused():
    with pytest.raises(ValueError, match="weekday"):
        recurrence.Recurrence("weekly", hour=18, weekday=7)


def test_scoring_constants_match_the_issue():
    assert (scoring.ARENA_WIN, scoring.ARENA_LOSS, scoring.SWISS_BYE) == (2, 0, scoring.SWISS_WIN)
