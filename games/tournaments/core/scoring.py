"""Points and standings of both tournament formats (pure: standard library only).

Arena: a match win scores 2, a loss 0; after two wins in a row each further win
scores double (4) until a loss ends the streak. A player "on fire" (two or more wins
in a row) is shown with a flame: their next win counts double.

Arena standings order: points, then fewer losses, then rating at entry, then name.

Swiss: a win or a bye scores 1 point, a loss 0. Standings order: points, then
Buchholz (the sum of the points of every opponent met; a bye adds nothing), then
Sonneborn-Berger (the sum of the points of every opponent beaten), then rating, then
name. Both tiebreaks use the opponents' points at the time of the standings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Player = TypeVar("Player", int, str)
"""A player's id: the entrant's id in the app, any name in a test."""

ARENA_WIN = 2
ARENA_LOSS = 0
#: Wins in a row after which every further win scores double.
ARENA_STREAK_FROM = 2
SWISS_WIN = 1
SWISS_BYE = 1


@dataclass(frozen=True)
class ArenaScore:
    """An arena player's points after a run of results, and their current streak."""

    points: int
    streak: int  # wins in a row now (0 after a loss)
    wins: int
    losses: int

    @property
    def on_fire(self) -> bool:
        """Their next win scores double (the flame)."""
        return self.streak >= ARENA_STREAK_FROM


def arena_win_points(streak: int) -> int:
    """Points of a win by a player who has ``streak`` wins in a row before it."""
    return ARENA_WIN * 2 if streak >= ARENA_STREAK_FROM else ARENA_WIN


def arena_add(score: ArenaScore, won: bool) -> tuple[ArenaScore, int]:
    """The score after one more match, and the points that match scored."""
    if won:
        gained = arena_win_points(score.streak)
        return ArenaScore(score.points + gained, score.streak + 1, score.wins + 1,
                          score.losses), gained
    return ArenaScore(score.points + ARENA_LOSS, 0, score.wins, score.losses + 1), ARENA_LOSS


def arena_score(results: Iterable[bool]) -> ArenaScore:
    """The score of a run of results (True: a win), oldest first."""
    score = ArenaScore(0, 0, 0, 0)
    for won in results:
        score, _ = arena_add(score, won)
    return score


@dataclass(frozen=True)
class Game(Generic[Player]):
    """One finished Swiss pairing: ``black`` None is a bye for ``white``; ``winner`` is
    one of the two players (a bye's winner is ``white``)."""

    white: Player
    black: Player | None
    winner: Player | None


@dataclass
class Row(Generic[Player]):
    """A player's line of the standings."""

    player: Player
    points: float = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    tiebreaks: list[float] = field(default_factory=list)
    rank: int = 0
    rating: float = 0.0


def swiss_standings(
    players: Sequence[Player],
    games: Iterable[Game[Player]],
    ratings: dict[Player, float] | None = None,
) -> list[Row[Player]]:
    """Ranked rows (rank 1 first) with ``tiebreaks`` = [Buchholz, Sonneborn-Berger]."""
    ratings = ratings or {}
    rows = {p: Row(player=p, rating=ratings.get(p, 0.0)) for p in players}
    met: dict[Player, list[Player]] = {p: [] for p in players}
    beaten: dict[Player, list[Player]] = {p: [] for p in players}
    for game in games:
        if game.black is None:
            row = rows[game.white]
            row.byes += 1
            row.points += SWISS_BYE
            continue
        if game.winner is None:
            continue  # not played yet
        loser = game.black if game.winner == game.white else game.white
        rows[game.winner].wins += 1
        rows[game.winner].points += SWISS_WIN
        rows[loser].losses += 1
        met[game.white].append(game.black)
        met[game.black].append(game.white)
        beaten[game.winner].append(loser)
    for player, row in rows.items():
        buchholz = sum(rows[o].points for o in met[player])
        sonneborn = sum(rows[o].points for o in beaten[player])
        row.tiebreaks = [buchholz, sonneborn]
    return rank_rows(list(rows.values()))


def arena_standings(rows: list[Row[Player]]) -> list[Row[Player]]:
    """Arena order: points, then fewer losses (the same points from fewer matches: 2–0
    above 2–1), then the higher rating at entry, then name; ``tiebreaks`` = [losses].
    Ranks 1..n."""
    for row in rows:
        row.tiebreaks = [row.losses]
    rows.sort(key=lambda r: (-r.points, r.losses, -r.rating, r.player))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows


def rank_rows(rows: list[Row[Player]]) -> list[Row[Player]]:
    """Order by points, then each tiebreak, then rating (higher first), then name; ranks
    1..n (unique: the order decides)."""
    rows.sort(key=lambda r: (-r.points, *(-t for t in r.tiebreaks), -r.rating, r.player))
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows
