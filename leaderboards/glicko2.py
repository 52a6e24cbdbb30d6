"""Glicko-2 rating math (Mark Glickman, "Example of the Glicko-2 system", 2022 revision).

Pure and standard library only: the models and services decide when a rating period
ends (here: after every rated match) and store the numbers this module returns.

>>> p = Glicko2Rating(rating=1500, deviation=200, volatility=0.06)
>>> new = rate(p, [GameResult(Glicko2Rating(1400, 30, 0.06), 1.0),
...                GameResult(Glicko2Rating(1550, 100, 0.06), 0.0),
...                GameResult(Glicko2Rating(1700, 300, 0.06), 0.0)])
>>> round(new.rating, 2), round(new.deviation, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)

The paper prints 1464.06 because it converts its rounded mu' = -0.2069 back to the
Glicko-1 scale; on the Glicko-2 scale the figures agree to the paper's 4 decimals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-1 scale of a new player.
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: System constant constraining the change of volatility (Glickman suggests 0.3 to 1.2).
DEFAULT_TAU = 0.5
#: Glicko-2 scale factor 173.7178 = 400 / ln(10).
SCALE = 400.0 / math.log(10.0)
CONVERGENCE_TOLERANCE = 0.000001


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A rating on the Glicko-1 scale (rating, deviation) with its volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not (self.deviation > 0 and self.volatility > 0):
            raise ValueError("deviation and volatility must be positive")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of the rating period: the opponent's pre-period rating and the score
    (1 for a win, 0.5 for a draw, 0 for a loss)."""

    opponent: Glicko2Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError("score must be between 0 and 1")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm solving f(x) = 0 for x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE_TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    player: Glicko2Rating, results: Sequence[GameResult], *, tau: float = DEFAULT_TAU
) -> Glicko2Rating:
    """The player's rating after a rating period with ``results`` (steps 1 to 8).

    With no games the rating and volatility stay and only the deviation grows.
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko2Rating(player.rating, phi_star * SCALE, sigma)

    v_inverse = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = result.opponent.deviation / SCALE
        g_j = _g(phi_j)
        e_j = _expected(mu, mu_j, phi_j)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (result.score - e_j)
    v = 1.0 / v_inverse
    delta = v * improvement

    sigma_new = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko2Rating(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma_new)
