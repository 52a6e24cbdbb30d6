"""The pages people load most, at a fixed rate through a running topology's nginx,
measured with wrk (Debian's ``wrk``: ``apt-get install -y wrk``).

    from bench.pages_load import prepare_pages, load_pages
    pages = prepare_pages()                        # Django set up for the topology
    figures = load_pages(url, pages, rate=200, seconds=30)

``prepare_pages`` writes what the pages show into the topology's database (through its
PgBouncer, as the site's processes do): a match of two people played to its end
through the services (its replay, its winner's profile, the boards), a scheduled arena
with ``TOURNAMENT_ENTRANTS`` entrants (its page), and a signed-in player with a match
against the computer in play (the lobby: the home page signed in, with its
matches). The pages, an equal share of the rate each: the home page as a visitor sees
it, the lobby, this week's board, the profile, the replay of the match's first hand and
the tournament page; the HTML of each, not its static files (nginx serves those
from disk, with a year's cache).

``load_pages`` runs one wrk process per page, all at once, each one thread at its share
of ``rate`` (``pages_rate.lua`` sends each request at its slot of a fixed schedule:
wrk is closed-loop, the script makes the offered rate fixed; latency is from the
moment a request is written), with ``CONNECTIONS`` connections so that a slow answer
does not hold the next slot back. Per page: the rate achieved, p50/p95/p99/max, the
answers other than 200 and wrk's socket errors; and wrk's own CPU time (the load
generator's). ``page_costs`` loads each page alone first, at a low rate, for the CPU
one request of it costs (the ASGI processes', the database's): what the whole rate asks
of the machine.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LUA = Path(__file__).resolve().parent / "pages_rate.lua"
CONNECTIONS = 8  # per page: a slot is missed only when all eight wait for answers
TOURNAMENT_ENTRANTS = 200
TIMEOUT_SECONDS = 5


@dataclass
class Page:
    name: str
    path: str
    cookie: str = ""


@dataclass
class PageFigures:
    name: str
    path: str
    offered: float  # requests per second asked of wrk
    achieved: float
    requests: int
    p50: float  # ms
    p95: float
    p99: float
    max: float
    not_200: int
    socket_errors: int


def prepare_pages() -> list[Page]:
    """The data the pages show, made now; the pages (Django must be set up)."""
    import random
    import uuid
    from datetime import timedelta

    from django.utils import timezone

    from bench.live_load import signed_in_session
    from bench.tournaments import make_players
    from games.tournaments import services as tournaments
    from games.tournaments.models import Entrant
    from tests.factories import create_match, create_user
    from tests.games.helpers import play_out

    tag = uuid.uuid4().hex[:6]
    winner, loser = create_user(f"pages-{tag}-a"), create_user(f"pages-{tag}-b")
    played = play_out(create_match(winner, loser, variant="time_freedom"), random.Random(7))
    if played.winner_seat == 1:
        winner, loser = loser, winner
    visitor = create_user(f"pages-{tag}-lobby")
    create_match(visitor, "easy", variant="time_freedom")
    arena = tournaments.tournament_create(
        user=None, staff=True, name=f"Pages {tag}", format="arena",
        starts_at=timezone.now() + timedelta(hours=1), max_players=TOURNAMENT_ENTRANTS)
    Entrant.objects.bulk_create([
        Entrant(tournament=arena, user=user, rating=1500 + (index % 400))
        for index, user in enumerate(make_players(f"pg{tag}x", TOURNAMENT_ENTRANTS))])
    return [
        Page("home (visitor)", "/"),
        Page("lobby (signed in)", "/", f"sessionid={signed_in_session(visitor)}"),
        Page("board (this week)", "/leaderboards/"),
        Page("profile", f"/players/{winner.username}/"),
        Page("replay", f"/match/{played.pk}/hand/1/replay/"),
        Page("tournament", f"/tournaments/{arena.pk}/"),
    ]


def check_pages(url: str, pages: list[Page]) -> None:
    """Each page answers 200 through nginx once before the measurement (a wrong path
    would otherwise be measured as a fast 404)."""
    import urllib.request

    for page in pages:
        request = urllib.request.Request(url + page.path,
                                         headers={"Cookie": page.cookie} if page.cookie else {})
        with urllib.request.urlopen(request, timeout=30) as answer:
            if answer.status != 200:
                raise RuntimeError(f"{page.name} {page.path}: {answer.status}")


def load_pages(url: str, pages: list[Page], *, rate: float, seconds: float,
               connections: int = CONNECTIONS) -> tuple[list[PageFigures], float]:
    """Every page at once, ``rate`` requests per second in all, for ``seconds``; the
    figures of each page and the CPU seconds wrk used."""
    if shutil.which("wrk") is None:
        raise RuntimeError("wrk is not installed: apt-get install -y wrk")
    share = rate / len(pages)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    running = []
    for page in pages:
        argv = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s",
                f"--timeout={TIMEOUT_SECONDS}s", "-s", str(LUA), url + page.path, "--",
                f"{share:g}", page.cookie]
        running.append(subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True))
    figures = []
    for page, process in zip(pages, running, strict=True):
        output, _ = process.communicate(timeout=seconds + 60)
        line = next((line for line in output.splitlines() if line.startswith("RESULT ")), None)
        if line is None:
            raise RuntimeError(f"wrk gave no result for {page.name}:\n{output}")
        found: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
        figures.append(PageFigures(
            name=page.name, path=page.path, offered=share,
            achieved=found["requests"] / (found["duration_us"] / 1e6),
            requests=found["requests"], p50=found["p50_us"] / 1000,
            p95=found["p95_us"] / 1000, p99=found["p99_us"] / 1000,
            max=found["max_us"] / 1000, not_200=found["not_200"],
            socket_errors=sum(found[k] for k in ("connect", "read", "write", "timeout")),
        ))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return figures, cpu


@dataclass
class PageCost:
    """CPU time per request of one page, loaded alone (ms): the ASGI processes', and the
    whole PostgreSQL server's and PgBouncer's."""

    name: str
    requests: int
    p50: float
    asgi: float
    database: float


def page_costs(url: str, pages: list[Page], *, asgi: list[int], database: list[int],
               rate: float = 10.0, seconds: float = 5.0) -> list[PageCost]:
    """Each page alone, one after the other, at ``rate`` for ``seconds``: the CPU one
    request costs (the processes' time over the run, divided by its requests; their
    background work, a few ms a second, counts too), so that the capacity of the whole
    rate can be reckoned: ``rate`` x cost = CPU seconds a second."""
    from bench.stats import tree_cpu_seconds

    costs = []
    for page in pages:
        before = ([tree_cpu_seconds(pid) for pid in asgi],
                  [tree_cpu_seconds(pid) for pid in database])
        [figures], _cpu = load_pages(url, [page], rate=rate, seconds=seconds, connections=2)
        after = ([tree_cpu_seconds(pid) for pid in asgi],
                 [tree_cpu_seconds(pid) for pid in database])
        count = figures.requests or 1
        costs.append(PageCost(
            name=page.name, requests=figures.requests, p50=figures.p50,
            asgi=(sum(after[0]) - sum(before[0])) * 1000 / count,
            database=(sum(after[1]) - sum(before[1])) * 1000 / count,
        ))
    return costs


def print_costs(costs: list[PageCost], rate: float) -> None:
    print("\neach page alone (no players): CPU per request, ms")
    print(f"{'page':<20} {'requests':>8} {'p50 ms':>7} {'ASGI':>7} {'database':>8}")
    for c in costs:
        print(f"{c.name:<20} {c.requests:>8} {c.p50:>7.1f} {c.asgi:>7.1f} {c.database:>8.1f}")
    mean = sum(c.asgi + c.database for c in costs) / max(len(costs), 1)
    print(f"{rate:g} requests/s of these pages in equal shares: about {rate * mean / 1000:.1f} "
          "s of CPU a second (ASGI and database)")


def print_pages(figures: list[PageFigures], cpu: float, seconds: float) -> None:
    total = sum(f.achieved for f in figures)
    print(f"\npages through nginx, {sum(f.offered for f in figures):g} requests/s offered, "
          f"{total:.1f} achieved; wrk used {cpu:.1f} s of CPU in {seconds:g} s "
          f"({cpu / seconds:.0%} of a core)")
    print(f"{'page':<20} {'req/s':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'not 200':>7} {'socket':>6}  path")
    for f in figures:
        print(f"{f.name:<20} {f.achieved:>6.1f} {f.p50:>7.1f} {f.p95:>7.1f} {f.p99:>7.1f} "
              f"{f.max:>7.1f} {f.not_200:>7} {f.socket_errors:>6}  {f.path}")
