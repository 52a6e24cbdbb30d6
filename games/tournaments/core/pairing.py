"""Who plays whom (pure: standard library only).

Arena (``arena_pairs``): the players waiting in the pool, ordered by score then
rating, are paired with their neighbours in that order; a player is not paired with
the opponent of their last match when anyone else is waiting (only two players
waiting, who just played each other, are paired again). With an odd number waiting,
one of those who arrived last waits for the next pass: those who waited longest are
always paired, and of the last arrivals (the two players of a match that just ended
arrive together) the one who waits is chosen so that nobody meets the opponent they
just played (three players take turns instead of one playing every match).

Swiss (``swiss_pairs``): players ordered by points then rating; the top player is
paired with the next one they have not met, and so on, backtracking when the rest
cannot be paired without a repeat. With an odd number, the lowest-placed player who
has not had a bye gets it (at most one bye each). When no pairing without a repeat
(or without a second bye) exists, ``NoPairing`` is raised: the tournament ends there.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Player = TypeVar("Player", bound=Hashable)
"""A player's id: the entrant's id in the app, any name in a test."""


class NoPairing(Exception):
    """No round can be paired without two players meeting again (or a second bye)."""


@dataclass(frozen=True)
class Waiting(Generic[Player]):
    """A player in the arena's pool."""

    player: Player
    score: float
    rating: float
    last_opponent: Player | None
    since: float  # when they entered the pool (any increasing number)


def _rematch(a: Waiting[Player], b: Waiting[Player]) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player


def arena_pairs(waiting: Sequence[Waiting[Player]]) -> list[tuple[Player, Player]]:
    """Pairs (higher-placed player first) for one pass over the pool."""
    pool = sorted(waiting, key=lambda w: (-w.score, -w.rating, w.since, str(w.player)))
    if len(pool) % 2:
        pool.remove(_sits_out(pool))
    return [(a.player, b.player) for a, b in _pair_pool(pool)]


#: At most this many of the last arrivals are tried as the one who sits out a pass.
SIT_OUT_TRIES = 8


def _sits_out(pool: list[Waiting[Player]]) -> Waiting[Player]:
    """Who of an odd pool waits for the next pass: one of the last arrivals, the first
    whose absence leaves a pairing without an immediate rematch."""
    latest = max(w.since for w in pool)
    candidates = sorted((w for w in pool if w.since == latest),
                        key=lambda w: str(w.player), reverse=True)
    for candidate in candidates[:SIT_OUT_TRIES]:
        rest = [w for w in pool if w is not candidate]
        if not any(_rematch(a, b) for a, b in _pair_pool(rest)):
            return candidate
    return candidates[0]


def _pair_pool(
    pool: list[Waiting[Player]],
) -> list[tuple[Waiting[Player], Waiting[Player]]]:
    """Pairs of an even pool ordered by score: neighbours, avoiding rematches."""
    pairs: list[list[Waiting[Player]]] = []
    rest = pool
    while rest:
        first = rest[0]
        partner = next((i for i in range(1, len(rest)) if not _rematch(first, rest[i])), 1)
        pairs.append([first, rest[partner]])
        rest = rest[1:partner] + rest[partner + 1:]
    # A rematch left at the end (its two were the last ones): swap with another pair.
    for pair in pairs:
        if not _rematch(*pair):
            continue
        for other in reversed(pairs):
            if other is pair:
                continue
            a, b = pair
            c, d = other
            if not _rematch(a, d) and not _rematch(c, b):
                pair[1], other[1] = d, b
                break
            if not _rematch(a, c) and not _rematch(b, d):
                pair[1], other[0] = c, b
                other.sort(key=lambda w: (-w.score, -w.rating))
                break
    return [(p[0], p[1]) for p in pairs]


@dataclass(frozen=True)
class SwissPlayer(Generic[Player]):
    """A player still in the Swiss when a round is paired."""

    player: Player
    points: float
    rating: float
    opponents: frozenset[Player]
    had_bye: bool = False


#: The most partial pairings tried before giving up (NoPairing).
SWISS_SEARCH_BUDGET = 200_000


def swiss_pairs(
    players: Sequence[SwissPlayer[Player]], *, budget: int = SWISS_SEARCH_BUDGET
) -> tuple[list[tuple[Player, Player]], Player | None]:
    """The round's pairs (higher-placed player first) and the player with the bye."""
    order = sorted(players, key=lambda p: (-p.points, -p.rating, str(p.player)))
    tries = [budget]
    if len(order) % 2 == 0:
        pairs = _pair_all(order, tries)
        if pairs is None:
            raise NoPairing("every remaining pairing repeats a match")
        return pairs, None
    for candidate in reversed(order):
        if candidate.had_bye:
            continue
        rest = [p for p in order if p is not candidate]
        pairs = _pair_all(rest, tries)
        if pairs is not None:
            return pairs, candidate.player
        if tries[0] <= 0:
            break
    raise NoPairing("no pairing without a repeat match or a second bye")


def _pair_all(
    order: list[SwissPlayer[Player]], tries: list[int]
) -> list[tuple[Player, Player]] | None:
    """Backtracking: pair the first player with the nearest one they have not met."""
    if not order:
        return []
    first = order[0]
    for index in range(1, len(order)):
        tries[0] -= 1
        if tries[0] <= 0:
            return None
        other = order[index]
        if other.player in first.opponents:
            continue
        rest = _pair_all(order[1:index] + order[index + 1:], tries)
        if rest is not None:
            return [(first.player, other.player), *rest]
    return None
