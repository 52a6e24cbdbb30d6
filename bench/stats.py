"""The benchmarks' one percentile and one way to print a spread of timings.

Percentiles are nearest-rank (the smallest sample with at least q% of the samples at
or below it), as every figure in docs/benchmarks.md since this module reports them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0 < q <= 100, nearest rank) of ``values``; NaN if empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def spread(
    values: Sequence[float],
    *,
    points: Sequence[float] = (50, 95, 99),
    scale: float = 1.0,
    width: int = 6,
    digits: int = 1,
    unit: str = " ms",
    count: bool = False,
    mean: bool = False,
) -> str:
    """``p50 … ms  p95 … ms  p99 … ms`` of ``values`` times ``scale`` (seconds to ms:
    1000); ``count`` puts ``n=`` first, ``mean`` adds the mean."""
    def shown(value: float) -> str:
        return f"{value * scale:{width}.{digits}f}{unit}"

    parts = [f"n={len(values):4d}"] if count else []
    parts += [f"p{q:g} {shown(percentile(values, q))}" for q in points]
    if mean:
        parts.append(f"mean {shown(statistics.fmean(values)) if values else 'nan'}")
    return "  ".join(parts)
