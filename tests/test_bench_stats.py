"""bench/stats.py: the benchmarks' one percentile (nearest rank) and spread line."""

import math

from bench.stats import machine_times, percentile, spread, stolen_share


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


def test_the_share_of_cpu_time_stolen_by_the_hypervisor_between_two_readings() -> None:
    before = machine_times("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    after = machine_times("cpu  160 0 70 900 10 0 5 55 0 0\n")
    assert before == (1000, 35) and after == (1200, 55)
    assert stolen_share(before, after) == 0.1
    assert math.isnan(stolen_share(after, after))
    live = machine_times()  # this machine's own /proc/stat
    assert live.total > 0 and 0 <= live.steal <= live.total
