"""Cost of presence that expires unless renewed (games/services/presence.py): the
renewal each open player socket makes every 25 s, and the clock sweep's expiry of
sockets lost with a dead server process.

    createdb -h 127.0.0.1 -U postgres gin_presence_bench   # once
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gin_presence_bench \\
    REDIS_URL=redis://127.0.0.1:6379/11 .venv/bin/python -m bench.presence --sockets 5000

Prints the latency percentiles and SQL statements of one renewal, the time of a sweep
that finds nothing stale (a scan of every open socket), and of one that expires
``--stale`` sockets (each seat locked, marked disconnected, the table told through the
Redis channel layer). The database is migrated if needed; the rows created are deleted
at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from datetime import timedelta

from bench.live_play import percentiles, timed

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=5000, help="open player sockets")
    parser.add_argument("--stale", type=int, default=200, help="sockets of a dead process")
    parser.add_argument("--renewals", type=int, default=1000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from games import services
    from games.engine import RuleSet
    from games.models import Match, Seat, SeatSocket

    call_command("migrate", verbosity=0)
    now = timezone.now()
    # Finished matches: the sweep's presence work is the same, and no clock task is
    # planned for them (the benchmark measures presence alone).
    matches = Match.objects.bulk_create(
        Match(kind=Match.Kind.FRIEND, rules=RuleSet.default().to_dict(),
              status=Match.Status.FINISHED)
        for _ in range((args.sockets + 1) // 2)
    )
    try:
        seats = Seat.objects.bulk_create(
            Seat(match=match, index=index, connected=True)
            for match in matches for index in (0, 1)
        )[: args.sockets]
        table_of = {f"bench.{seat.pk}!{seat.pk}": seat.match_id for seat in seats}
        channels = list(table_of)
        SeatSocket.objects.bulk_create(
            SeatSocket(seat=seat, channel_name=channel, last_seen=now)
            for seat, channel in zip(seats, channels, strict=True)
        )
        rng = random.Random(1)

        renew_ms: list[float] = []
        renew_q: set[int] = set()
        renew_cpu: list[float] = []
        for _ in range(args.renewals):
            ms, queries, _db = timed(
                services.seat_socket_renew, renew_cpu, match=None, user=None,
                channel_name=rng.choice(channels), now=timezone.now(),
            )
            renew_ms.append(ms)
            renew_q.add(queries)

        later = timezone.now() + timedelta(seconds=80)
        SeatSocket.objects.filter(channel_name__in=channels).update(last_seen=later)
        start = time.perf_counter()
        assert services.seat_sockets_expire(now=later) == 0
        clean_ms = (time.perf_counter() - start) * 1000

        stale = rng.sample(channels, args.stale)
        tables = len({table_of[channel] for channel in stale})
        SeatSocket.objects.filter(channel_name__in=stale).update(last_seen=now)
        start = time.perf_counter()
        assert services.seat_sockets_expire(now=later) == args.stale
        stale_ms = (time.perf_counter() - start) * 1000
        assert Seat.objects.filter(match__in=matches, connected=False).count() >= args.stale

        print(f"presence with {args.sockets} open player sockets (PostgreSQL, Redis layer)")
        print(f"  renewal            {percentiles(renew_ms)}  queries {sorted(renew_q)}")
        print(f"  sweep, none stale  {clean_ms:8.1f} ms")
        print(f"  sweep, {args.stale} stale  {stale_ms:8.1f} ms  ({stale_ms / args.stale:.2f} ms "
              f"per seat; {tables} tables told, each a presence broadcast and a clock plan)")
    finally:
        Match.objects.filter(pk__in=[m.pk for m in matches]).delete()


if __name__ == "__main__":
    main()
