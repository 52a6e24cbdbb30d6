"""bench/stats.py: the benchmarks' one percentile (nearest rank) and spread line."""

import math

from bench.stats import percentile, spread


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 100 … 1, unsorted on purpose
    assert [percentile(values, q) for q in (1, 50, 95, 99, 100)] == [1, 50, 95, 99, 100]
    assert percentile([7.0, 3.0, 5.0], 50) == 5.0  # rank ceil(1.5) = 2
    assert percentile([4.0], 99) == 4.0
    assert math.isnan(percentile([], 50))


def test_spread_prints_the_percentiles_scaled() -> None:
    seconds = [i / 1000 for i in range(1, 101)]
    assert spread(seconds, scale=1000, width=5, digits=1) == (
        "p50  50.0 ms  p95  95.0 ms  p99  99.0 ms"
    )
    assert spread([2.0, 4.0], points=(50,), count=True, mean=True) == (
        "n=   2  p50    2.0 ms  mean    3.0 ms"
    )
