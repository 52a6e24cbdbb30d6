"""What a new database connection per Celery task cost: the clock tick's query run
with the connection kept between calls, and with it closed after each call (Celery's
default before ``CELERY_DB_REUSE_MAX``, ginsite/celery.py), alternating.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gin_bench_live \\
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python -m bench.connections --calls 300

Prints, per way, the CPU time of the whole PostgreSQL server (postmaster and every
backend, those that exited included: ``bench.stats.tree_cpu_seconds``) and of this
process per call. Other work on the same server counts too: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import time

from bench.live_load import postmaster_pid
from bench.stats import tree_cpu_seconds

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def per_call(calls: int, reconnect: bool, postmaster: int) -> tuple[float, float]:
    """(PostgreSQL ms, this process's ms) of CPU per clock tick's query."""
    from django.db import connection

    from games import services

    server, client = tree_cpu_seconds(postmaster), time.process_time()
    for _ in range(calls):
        services.clock_tick()
        if reconnect:
            connection.close()
    return (
        (tree_cpu_seconds(postmaster) - server) * 1000 / calls,
        (time.process_time() - client) * 1000 / calls,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    postmaster = postmaster_pid()
    print(f"clock tick's query, {args.calls} calls per row: CPU per call (ms)")
    print(f"{'connection':24s} {'PostgreSQL':>10s} {'this process':>13s}")
    for _ in range(args.rounds):
        for reconnect in (True, False):
            server, client = per_call(args.calls, reconnect, postmaster)
            way = "new one per call" if reconnect else "kept"
            print(f"{way:24s} {server:10.2f} {client:13.2f}", flush=True)


if __name__ == "__main__":
    main()
