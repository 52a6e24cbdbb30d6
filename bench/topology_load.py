"""Every load figure of the production topology in one command (issue 35): the live load,
the pages under it, an arena's start and the faults under load, each through nginx, and
a summary of each target with what was measured and whether it holds.

    .venv/bin/python -m bench.topology_load            # the full run (about 9 minutes)
    .venv/bin/python -m bench.topology_load --quick    # the same at small sizes (5 minutes)
    .venv/bin/python -m bench.topology_load --phases faults --fault-players 60

Needs Debian's nginx, pgbouncer, postgresql, redis-server (``bench.topology``) and wrk
(``apt-get install -y wrk``, for the pages). Measure with the machine otherwise idle:
the load generator runs on the same cores and is part of what is measured; the load
average is printed before each phase.

Three phases, each on a topology of its own (``bench.topology up`` in a fresh
``<dir>/<phase>``, brought down at the phase's end even when it fails, its logs left
in ``<dir>/<phase>/logs``): a phase starts from an empty database, with nothing left
running from the one before (the live load's thousand abandoned matches would keep
their clocks and the worker busy). Each runs in a process of its own with the
topology's environment (``<dir>/<phase>/env``), and prints its own tables as it goes:

1. ``load``: ``bench.live_load``'s players (``target_outcome``, as ``--target`` runs it:
   a move per match about every 2 s, ``--clients`` processes) at 400 then 1,000 players,
   each step measured for ``--step-seconds`` after ``--settle-seconds``; then a third
   step with the same 1,000 players during which ``bench.pages_load`` loads the pages
   people load most (home, lobby, a board, a profile, a replay, a tournament page) at
   ``--page-rate`` requests per second in all (wrk, a fixed rate: ``bench/pages_rate.lua``).
   Per step: p50/p95/p99 of a move's round trip, the relay to the opponent p99, the
   errors by kind (lost relays, missing replies, refusals), and CPU per accepted move from
   /proc per process over the measured window: the four ASGI processes; the worker and
   beat; the analysis worker (on machines of its own in production: the server figure
   leaves it out and it is shown apart); nginx; PgBouncer; the Redis servers; the whole
   PostgreSQL server; and the client processes, also as their share of a core each (a
   client process near a whole core would be measuring itself).
2. ``arena``: ``bench.arena_start``: ``--arena-players`` on the tournament page through
   nginx when the arena starts; from its start to each player's ``match_ready`` and to
   their table's first ``state``.
3. ``faults``: ``bench.topology_faults`` (the suite's fault run, larger):
   ``--fault-players`` play through nginx (people against people, ``--fault-computer``
   of them against the computer), a move per match about every 2 s; the five faults
   once each; per fault the longest wait for the table to move on (beside the same wait
   with no fault), sockets lost, moves refused; every match's Move log against what
   its players sent and saw.

The figures are also written to ``<dir>/results.json``. Exit status 1 when a phase
failed to run (a target missed is a measurement, not a failure).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.topology import PYTHON, ROOT, Topology, process_env

DEFAULT_DIR = ROOT / "build" / "topology-load"
PHASES = ("load", "arena", "faults")
TARGET_P99_MS = 100.0
TARGET_CPU_MS = 3.0
TARGET_PAGE_P99_MS = 100.0
TARGET_ARENA_S = 3.0
PHASE_TIMEOUT = 40 * 60

FULL = {"steps": [400, 1000], "step_seconds": 30.0, "settle_seconds": 20.0,
        "page_rate": 200.0, "page_cost_seconds": 5.0, "arena_players": 1000,
        "fault_players": 200, "fault_computer": 20}
QUICK = {"steps": [20, 40], "step_seconds": 20.0, "settle_seconds": 10.0,
         "page_rate": 20.0, "page_cost_seconds": 3.0, "arena_players": 40,
         "fault_players": 20, "fault_computer": 4}


# --- the phases, each in its own process (Django set up for its topology) -------------


def phase_load(directory: Path, config: dict[str, Any]) -> dict[str, Any]:
    from bench.live_load import report, step_figures, target_outcome
    from bench.pages_load import (
        check_pages,
        load_pages,
        page_costs,
        prepare_pages,
        print_costs,
        print_pages,
    )

    topology = Topology.find(directory)
    url = topology.url
    began = time.monotonic()
    pages = prepare_pages()
    check_pages(url, pages)
    print(f"the pages' data made in {time.monotonic() - began:.1f} s", flush=True)
    names = topology.layout.services
    costs = page_costs(
        url, pages, seconds=config["page_cost_seconds"],
        asgi=[pid for n in names if n.startswith("asgi-") and (pid := topology.pid(n))],
        database=[pid for n in ("postgres", "pgbouncer") if (pid := topology.pid(n))])
    print_costs(costs, config["page_rate"])
    small, big = config["steps"]
    steps = [small, big, big]  # the third: the same players while the pages load
    args = argparse.Namespace(
        target=url, topology_dir=str(directory), steps=",".join(map(str, steps)),
        step_seconds=config["step_seconds"], settle_seconds=config["settle_seconds"],
        interval=2.0, clients=config["clients"], rules="default", asgi=0,
    )
    windows: list[tuple[float, float]] = []
    fixed = threading.Event()

    def on_windows(found: list[tuple[float, float]]) -> None:
        windows.extend(found)
        fixed.set()

    outcome: dict[str, Any] = {}

    def play() -> None:
        try:
            outcome["outcome"] = target_outcome(args, steps, on_windows=on_windows)
        except BaseException as error:  # told to the main thread
            outcome["error"] = error
            fixed.set()

    players = threading.Thread(target=play, daemon=True)
    players.start()
    fixed.wait()
    if "error" in outcome:
        raise outcome["error"]
    begin, end = windows[2]
    time.sleep(max(0.0, begin - time.time()))
    page_figures, wrk_cpu = load_pages(url, pages, rate=config["page_rate"],
                                       seconds=end - time.time())
    players.join()
    if "error" in outcome:
        raise outcome["error"]
    report(args, steps, outcome["outcome"])
    print_pages(page_figures, wrk_cpu, end - begin)
    figures = step_figures(args, steps, outcome["outcome"])
    return {"steps": [asdict(f) for f in figures], "clients": config["clients"],
            "pages": [asdict(f) for f in page_figures], "wrk_cpu": wrk_cpu,
            "page_seconds": end - begin, "page_costs": [asdict(c) for c in costs]}


def phase_arena(directory: Path, config: dict[str, Any]) -> dict[str, Any]:
    from bench.arena_start import print_arena, run_arena_start

    figures = run_arena_start(Topology.find(directory).url, players=config["arena_players"],
                              clients=config["clients"])
    print_arena(figures)
    return asdict(figures)


def phase_faults(directory: Path, config: dict[str, Any]) -> dict[str, Any]:
    from bench.topology_faults import (
        check_logs,
        players_for,
        print_outcomes,
        run_faults,
        setup_matches,
    )

    topology = Topology.find(directory)
    computer = config["fault_computer"]
    people = (config["fault_players"] - computer) // 2
    began = time.monotonic()
    tables = setup_matches(topology, people=people, computer=computer)
    players = players_for(tables, topology.url, pace=2.0)
    print(f"{len(players)} players through nginx: {people} matches of two people, "
          f"{computer} against the computer (made in {time.monotonic() - began:.1f} s); "
          "a move per match about every 2 s", flush=True)
    run = asyncio.run(run_faults(topology, players, baseline=True,
                                 log=lambda line: print(line, flush=True)))
    print()
    print_outcomes(run)
    checked = check_logs(topology, players)
    print(f"Move logs: {checked.matches} matches, {checked.accepted} acknowledged moves "
          f"checked; {len(checked.problems)} problems")
    for problem in checked.problems[:20]:
        print(f"  {problem}")
    return {"players": len(players), "people_matches": people, "computer_matches": computer,
            "outcomes": [asdict(o) for o in run.outcomes], "log": asdict(checked)}


RUNNERS = {"load": phase_load, "arena": phase_arena, "faults": phase_faults}


def run_phase_here(phase: str, directory: Path, config: dict[str, Any]) -> None:
    """The ``_phase`` entry point: this process is the phase's load generator. Told to
    stop (SIGTERM), it exits as from an error, stopping its client processes."""
    sys.stdout.reconfigure(line_buffering=True)
    signal.signal(signal.SIGTERM, stopped)
    env = dict(line.split("=", 1) for line in
               (directory / "env").read_text().splitlines() if "=" in line)
    os.environ.update(env)
    os.environ["LOG_LEVEL"] = "WARNING"  # this process's own moves (the pages' match) unlogged
    import django

    django.setup()
    result = RUNNERS[phase](directory, config)
    (directory / "result.json").write_text(json.dumps(result, indent=1))


# --- the run ----------------------------------------------------------------------------


def stopped(_signum: int, _frame: object) -> None:
    raise SystemExit("stopped (SIGTERM): bringing the topology down")



def run_phase(phase: str, base: Path, config: dict[str, Any]) -> dict[str, Any]:
    """Bring a topology up for ``phase``, run it in a process of its own, bring the
    topology down whatever happened; the phase's figures, or ``{"error": ...}``."""
    directory = base / phase
    load = os.getloadavg()
    print(f"\n=== {phase}: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"before the topology starts", flush=True)
    started = time.monotonic()
    try:
        topology = Topology.up(directory, log=lambda line: print(line, flush=True))
    except BaseException as error:
        return {"error": f"the topology did not start: {error}"}
    child = subprocess.Popen(
        [PYTHON, "-m", "bench.topology_load", "_phase", phase, str(directory),
         json.dumps(config)],
        cwd=ROOT, env=process_env(topology_env(directory)))
    try:
        returncode = child.wait(timeout=PHASE_TIMEOUT)
        if returncode:
            return {"error": f"the {phase} phase exited with {returncode} (above)"}
        result = json.loads((directory / "result.json").read_text())
    except subprocess.TimeoutExpired:
        return {"error": f"the {phase} phase took over {PHASE_TIMEOUT} s"}
    finally:
        if child.poll() is None:  # stopped, or too long: let it stop its own clients
            child.terminate()
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        topology.down(log=lambda line: print(line, flush=True))
    result["seconds"] = time.monotonic() - started
    result["load_before"] = load[0]
    print(f"=== {phase}: {result['seconds']:.0f} s with the topology's start and stop",
          flush=True)
    return result


def topology_env(directory: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in
                (directory / "env").read_text().splitlines() if "=" in line)


# --- the summary ------------------------------------------------------------------------


def held(ok: bool | None) -> str:
    return "-" if ok is None else ("yes" if ok else "NO")


def ms(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:,.1f} ms"


def summary_rows(results: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    load = results.get("load")
    if load is not None and "error" not in load:
        small, big, paged = load["steps"]
        for step, name in ((small, f"{small['players']:,} players"),
                           (big, f"{big['players']:,} players")):
            errors = sum(step["errors"].values())
            at_target = step is big
            rows.append((f"live load, {name}: p99 round trip" + (" <= 100 ms" if at_target
                                                                  else ""),
                         f"{ms(step['p99'])} (p50 {ms(step['p50'])}, relay p99 "
                         f"{ms(step['relay_p99'])}; {step['moves_per_second']:.0f} moves/s, "
                         f"{step['sockets']} sockets)",
                         held(step["p99"] <= TARGET_P99_MS if at_target else None)))
            rows.append((f"live load, {name}: no error" if at_target else
                         f"live load, {name}: errors",
                         f"{errors} {step['errors'] or ''}".strip(),
                         held(errors == 0 if at_target else None)))
            cpu = step["cpu_per_move"]
            parts = ", ".join(f"{n} {v:.2f}" for n, v in cpu.items())
            server = step["server_per_move"]
            rows.append((f"server CPU per accepted move <= 3 ms, {name}",
                         f"{server:.2f} ms without the analysis worker "
                         f"({server + cpu.get('analysis', 0.0):.2f} with it); by part: {parts}",
                         held(server <= TARGET_CPU_MS)))
            rows.append((f"load generator, {name}",
                         f"{load['clients']} client processes, "
                         f"{step['client_core_share']:.0%} of a core each; load average "
                         f"{step['load']:.2f}, steal {step['steal']:.1%}", "-"))
        rate = sum(p["achieved"] for p in load["pages"])
        offered = sum(p["offered"] for p in load["pages"])
        for page in load["pages"]:
            rows.append((f"page p99 <= 100 ms at {offered:g} req/s with "
                         f"{paged['players']:,} playing: {page['name']}",
                         f"{ms(page['p99'])} (p50 {ms(page['p50'])}, "
                         f"{page['achieved']:.1f} req/s, {page['not_200']} not 200, "
                         f"{page['socket_errors']} socket errors)",
                         held(page["p99"] <= TARGET_PAGE_P99_MS and not page["not_200"]
                              and not page["socket_errors"])))
        rows.append(("pages: rate achieved (wrk at a fixed rate)",
                     f"{rate:.1f} of {offered:g} req/s; wrk used "
                     f"{load['wrk_cpu'] / load['page_seconds']:.0%} of a core", "-"))
        costs = load["page_costs"]
        each = ", ".join(f"{c['name'].split(' ')[0]} {c['asgi'] + c['database']:.1f}"
                         for c in costs)
        mean = sum(c["asgi"] + c["database"] for c in costs) / max(len(costs), 1)
        rows.append(("pages alone: CPU per request (ASGI + database), ms",
                     f"{each}; {offered:g} req/s of them ask about "
                     f"{offered * mean / 1000:.1f} cores", "-"))
        rows.append((f"moves while the pages load, {paged['players']:,} players",
                     f"p99 {ms(paged['p99'])}, errors {sum(paged['errors'].values())}, "
                     f"server CPU {paged['server_per_move']:.2f} ms a move "
                     f"(pages included)", "-"))
    elif load is not None:
        rows.append(("live load and pages", load["error"], "NO"))
    arena = results.get("arena")
    if arena is not None and "error" not in arena:
        from bench.stats import percentile

        missed = arena["missed_state"]
        rows.append((f"arena of {arena['players']:,}: first table reaches both players "
                     "<= 3 s (p99)",
                     f"p99 {percentile(arena['state'], 99):.2f} s, max "
                     f"{max(arena['state'], default=float('nan')):.2f} s; {missed} players "
                     f"without a table within 30 s", held(
                         missed == 0 and percentile(arena["state"], 99) <= TARGET_ARENA_S)))
        rows.append(("arena: match_ready from the start",
                     f"p50 {percentile(arena['ready'], 50):.2f} s, p99 "
                     f"{percentile(arena['ready'], 99):.2f} s; {arena['matches']} matches; "
                     f"errors {arena['errors'] or 0}", "-"))
    elif arena is not None:
        rows.append(("arena start", arena["error"], "NO"))
    faults = results.get("faults")
    if faults is not None and "error" not in faults:
        calm = next((o["wait"] for o in faults["outcomes"] if not o["service"]), None)
        for o in faults["outcomes"]:
            wait = "did not move on" if o["wait"] is None else f"longest wait {o['wait']:.2f} s"
            if o["service"] and calm is not None:
                wait += f" (with no fault {calm:.2f} s)"
            name = o["name"]
            rows.append((f"{faults['players']} players, {name}: every match goes on",
                         f"{wait}; {o['drops']} sockets lost, {o['refusals']} refused"
                         + ("" if o["refused_once_back"] is None else
                            f", {o['refused_once_back']} refused once it answered again"),
                         "-" if not o["service"] else held(o["stalled"] is None)))
        log = faults["log"]
        rows.append(("faults: no acknowledged move lost or applied twice",
                     f"{log['accepted']} acknowledged moves in {log['matches']} matches "
                     f"checked against the Move log; {len(log['problems'])} problems",
                     held(not log["problems"])))
    elif faults is not None:
        rows.append(("faults under load", faults["error"], "NO"))
    return rows


def print_summary(results: dict[str, dict[str, Any]]) -> None:
    rows = summary_rows(results)
    width = max(len(r[0]) for r in rows) if rows else 10
    print("\n=== summary: target | measured | holds")
    for target, measured, holds in rows:
        print(f"{target:<{width}}  {holds:>4}  {measured}")
    timing = ", ".join(f"{phase} {r['seconds']:.0f} s" for phase, r in results.items()
                       if "seconds" in r)
    if timing:
        print(f"phases (with the topology's start and stop): {timing}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_phase":
        run_phase_here(sys.argv[2], Path(sys.argv[3]), json.loads(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="small sizes for a trial: " + ", ".join(
                            f"{k} {v}" for k, v in QUICK.items()))
    parser.add_argument("--phases", default=",".join(PHASES),
                        help="which phases, in this order (load, arena, faults)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                        help="where the topologies run (one directory per phase)")
    parser.add_argument("--clients", type=int, default=2,
                        help="client processes of the live load and of the arena")
    parser.add_argument("--steps", help="the two live-load steps, players (400,1000)")
    for name in ("step_seconds", "settle_seconds", "page_rate", "page_cost_seconds"):
        parser.add_argument("--" + name.replace("_", "-"), type=float)
    for name in ("arena_players", "fault_players", "fault_computer"):
        parser.add_argument("--" + name.replace("_", "-"), type=int)
    args = parser.parse_args()
    config: dict[str, Any] = dict(QUICK if args.quick else FULL)
    for key in config:
        value = getattr(args, key, None)
        if value is not None:
            config[key] = [int(s) for s in value.split(",")] if key == "steps" else value
    config["clients"] = args.clients
    phases = [p for p in args.phases.split(",") if p]
    if any(p not in PHASES for p in phases):
        parser.error(f"--phases: some of {', '.join(PHASES)}")
    steps = config["steps"]
    if len(steps) != 2 or any(s % 2 or s <= 0 for s in steps) or steps[0] > steps[1]:
        parser.error("--steps: two increasing even numbers of players")
    if "load" in phases and shutil.which("wrk") is None:
        parser.error("the pages need wrk: apt-get install -y wrk")

    signal.signal(signal.SIGTERM, stopped)
    sys.stdout.reconfigure(line_buffering=True)
    base = args.dir.resolve()
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    print(f"bench.topology_load: {', '.join(phases)}; "
          + ", ".join(f"{k} {v}" for k, v in config.items()))
    results: dict[str, dict[str, Any]] = {}
    for phase in phases:
        results[phase] = run_phase(phase, base, config)
        (base / "results.json").write_text(json.dumps({"config": config, **results}, indent=1))
    print_summary(results)
    print(f"figures in {base / 'results.json'}; each phase's logs in {base}/<phase>/logs")
    sys.exit(1 if any("error" in r for r in results.values()) else 0)


if __name__ == "__main__":
    main()
