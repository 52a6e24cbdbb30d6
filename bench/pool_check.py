"""What the connection pool's check costs: a connection lent with and without
psycopg_pool's ``check_connection`` (an empty query before lending, which the site's
settings turn on with ``CONN_HEALTH_CHECKS`` so that no move fails on a connection a
restart of PgBouncer or PostgreSQL has killed).

Each lending runs one small query, as a socket's database call does. The two kinds
alternate in rounds in one run, so the machine's load falls on both alike; the
figures are the client process's CPU and the wall time per lending.

    .venv/bin/python -m bench.pool_check [--lendings 5000] [--rounds 5]

``DATABASE_URL`` names the PostgreSQL database (default: the local ``postgres``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from psycopg_pool import ConnectionPool


def lend(pool: ConnectionPool, lendings: int) -> tuple[float, float]:
    """CPU and wall microseconds per lending of ``pool``'s connection."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(lendings):
        with pool.connection() as connection:
            connection.execute("SELECT 1").fetchone()
    return ((time.process_time() - cpu) * 1e6 / lendings,
            (time.perf_counter() - wall) * 1e6 / lendings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lendings", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    pools = {
        "unchecked": ConnectionPool(url, min_size=1, max_size=1, open=True),
        "checked": ConnectionPool(url, min_size=1, max_size=1, open=True,
                                  check=ConnectionPool.check_connection),
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in pools}
    try:
        for pool in pools.values():
            lend(pool, 200)  # warm up
        for _ in range(args.rounds):
            for name, pool in pools.items():
                figures[name].append(lend(pool, args.lendings))
    finally:
        for pool in pools.values():
            pool.close()
    print(f"{args.rounds} rounds of {args.lendings} lendings each, one query a lending")
    print("pool        CPU us/lending (median, range)   wall us/lending (median, range)")
    for name, rows in figures.items():
        cpu = [c for c, _ in rows]
        wall = [w for _, w in rows]
        print(f"{name:10s}  {statistics.median(cpu):6.1f} ({min(cpu):.1f}-{max(cpu):.1f})"
              f"              {statistics.median(wall):6.1f} ({min(wall):.1f}-{max(wall):.1f})")
    pairs = list(zip(figures["checked"], figures["unchecked"], strict=True))
    extra = [checked[0] - unchecked[0] for checked, unchecked in pairs]
    wall_extra = [checked[1] - unchecked[1] for checked, unchecked in pairs]
    print(f"the check adds, round by round: CPU {min(extra):.1f} to {max(extra):.1f} us, "
          f"wall {min(wall_extra):.1f} to {max(wall_extra):.1f} us a lending")


if __name__ == "__main__":
    main()
