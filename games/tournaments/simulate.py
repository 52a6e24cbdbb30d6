"""One complete tournament with computer-controlled entrants, through the real
services and tasks, in-process (``python manage.py tournament_sim``; the tests and
benchmarks use it too).

The entrants are registered accounts created for the run (with random ratings drawn
from the seed); each of their moves is chosen by the computer player of ``level``
from that player's own view and submitted with ``move_submit``, as a browser would.
Time is simulated: the clock starts now and moves ``STEP`` per pass; in each pass
every match in play gets one move, the Swiss round deadlines are checked and the
``tournaments.progress`` task runs (in this process) with the simulated time, so an
arena of 60 minutes takes as long as its moves do. Deals come from the server's
secret generator: a seed fixes the ratings and the computer's choices, not the cards.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from games.analysis import hooks as analysis_hooks
from games.bots import LEVELS, choose_action
from games.engine import HandState
from games.errors import ServiceError
from games.models import Hand, Match, Seat
from games.services import move_submit
from leaderboards.models import Rating

from . import selectors, services, tasks
from .models import Format, Pairing, Tournament

STEP = timedelta(seconds=2)
#: Passes after which a run is stopped as stuck (a bug, never a normal end).
MAX_PASSES = 200_000


def simulate(
    *, format: str, players: int, rounds: int | None = None, minutes: int | None = None,
    level: str = "easy", seed: int = 0, target: int = 50,
) -> dict[str, Any]:
    """Run the tournament to its end and return the JSON summary (docs of the
    command: games/tournaments/management/commands/tournament_sim.py)."""
    if format not in Format.values:
        raise ValueError("format must be swiss or arena")
    if players < 2:
        raise ValueError("a tournament needs at least 2 players")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    rng = random.Random(seed)
    tag = secrets.token_hex(3)
    users = []
    user_model = get_user_model()
    for i in range(players):
        user = user_model.objects.create_user(username=f"sim{seed}-{tag}-{i + 1}", password=None)
        Rating.objects.create(user=user, rating=round(rng.gauss(1500, 200), 1))
        users.append(user)
    clock = timezone.now()
    tournament = services.tournament_create(
        user=None, staff=True, name=f"Simulated {format} (seed {seed})", format=format,
        starts_at=clock, rounds=rounds or 3, duration_minutes=minutes or 30,
        round_minutes=60, max_players=players, target_score=target, turn_seconds=30,
        now=clock,
    )
    for user in users:
        services.tournament_join(tournament=tournament, user=user, now=clock)
    saved, tasks.ENQUEUE_PROGRESS = tasks.ENQUEUE_PROGRESS, False
    # The post-hand analysis of the simulated hands is left to its periodic sweep
    # (analysis.sweep): in the embedded mode its thread would write to SQLite while
    # the simulator does, and it is no part of a tournament.
    analyse, analysis_hooks.hand_finished = analysis_hooks.hand_finished, _no_analysis
    try:
        _run(tournament, clock, rng, level)
    finally:
        tasks.ENQUEUE_PROGRESS = saved
        analysis_hooks.hand_finished = analyse
    return summary(Tournament.objects.get(pk=tournament.pk))


def _no_analysis(hand_id: int) -> None:
    return None


def _run(tournament: Tournament, clock: datetime, rng: random.Random, level: str) -> None:
    progress_due = True
    for passes in range(MAX_PASSES):
        # The progress task after a result (as the match-finish hook would enqueue it)
        # and every minute of simulated time (beat's tick: the arena's end).
        if progress_due or passes % 30 == 0:
            services.swiss_deadline(tournament_id=tournament.pk, now=clock)
            tasks.progress.apply(kwargs={"tournament_id": tournament.pk,
                                         "now": clock.isoformat()})
            status = Tournament.objects.filter(pk=tournament.pk).values_list(
                "status", flat=True)[0]
            if status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                return
        match_ids = list(Pairing.objects.filter(
            tournament=tournament, finished=False, match__status=Match.Status.ACTIVE,
        ).values_list("match_id", flat=True))
        progress_due = False
        for match_id in match_ids:
            progress_due |= play_one_move(match_id, rng, level, clock)
        clock += STEP
    raise RuntimeError("the simulated tournament did not end")


def play_one_move(match_id: int, rng: random.Random, level: str, now: datetime) -> bool:
    """The player to move in ``match_id`` plays the computer's choice of ``level``;
    True if that move ended the match."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE or match.current_seat is None:
        return False
    seat = Seat.objects.select_related("user").get(match=match, index=match.current_seat)
    hand = Hand.objects.filter(match=match).order_by("-number").first()
    # A match in play has a hand dealt, and a tournament seats only people.
    assert hand is not None and seat.user is not None
    state = HandState.from_dict(hand.state)
    action = choose_action(level, state.player_view(seat.index), state.legal_actions(), rng)
    try:
        move_submit(match=match, user=seat.user, action=action,
                    expected_version=match.version, now=now)
    except ServiceError:
        return False
    return not Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).exists()


def summary(tournament: Tournament) -> dict[str, Any]:
    """``{"format", "players", "pairings", "standings"}`` of a tournament (the
    simulator's JSON summary; names are usernames)."""
    entrants = {e.pk: e.user.username for e in tournament.entrants.select_related("user")}
    pairings = [
        {"round": p.round, "seat0": entrants[p.seat0_id],
         "seat1": entrants.get(p.seat1_id) if p.seat1_id else None,
         "match": p.match_id, "winner": entrants.get(p.winner_id) if p.winner_id else None}
        for p in Pairing.objects.filter(tournament=tournament).order_by("pk")
    ]
    standings = [
        {"rank": row.rank, "player": entrants[row.player], "points": row.points,
         "wins": row.wins, "losses": row.losses, "byes": row.byes,
         "tiebreaks": list(row.tiebreaks)}
        for row in selectors.standings_rows(tournament)
    ]
    return {"format": tournament.format, "players": sorted(entrants.values()),
            "pairings": pairings, "standings": standings}


def check_summary(summary: dict[str, Any]) -> list[str]:
    """What breaks the format's rules in a summary (empty: nothing): a Swiss pairing
    repeated, a second bye, a player twice in one round, a match without a winner,
    points, wins, losses or byes that differ from the results (arena points replayed
    with their streaks, in the order the pairings were made)."""
    from .core import scoring

    problems = []
    fmt = summary["format"]
    pairings = summary["pairings"]
    results: dict[str, list[bool]] = {p: [] for p in summary["players"]}
    byes: dict[str, int] = {p: 0 for p in summary["players"]}
    met: set[frozenset] = set()
    per_round: dict[Any, set[str]] = {}
    for p in pairings:
        a, b, winner = p["seat0"], p["seat1"], p["winner"]
        if b is None:
            byes[a] += 1
            if fmt == "arena":
                problems.append(f"a bye in an arena: {p}")
            continue
        if winner not in (a, b):
            problems.append(f"pairing without a winner: {p}")
            continue
        results[a].append(winner == a)
        results[b].append(winner == b)
        if fmt == "swiss":
            if frozenset((a, b)) in met:
                problems.append(f"{a} and {b} paired twice")
            met.add(frozenset((a, b)))
    for p in pairings:
        if fmt == "swiss":
            seen = per_round.setdefault(p["round"], set())
            for name in (p["seat0"], p["seat1"]):
                if name is not None and name in seen:
                    problems.append(f"{name} twice in round {p['round']}")
                seen.add(name)
    for name, count in byes.items():
        if count > 1:
            problems.append(f"{name} had {count} byes")
    for row in summary["standings"]:
        name = row["player"]
        wins, losses = sum(results[name]), len(results[name]) - sum(results[name])
        points = (scoring.arena_score(results[name]).points if fmt == "arena"
                  else wins * scoring.SWISS_WIN + byes[name] * scoring.SWISS_BYE)
        if (row["points"], row["wins"], row["losses"], row["byes"]) != (
                points, wins, losses, byes[name]):
            problems.append(f"{name}: standings {row} but results give points {points}, "
                            f"wins {wins}, losses {losses}, byes {byes[name]}")
    ranks = [row["rank"] for row in summary["standings"]]
    if ranks != list(range(1, len(ranks) + 1)):
        problems.append(f"ranks are not 1..n: {ranks}")
    return problems
