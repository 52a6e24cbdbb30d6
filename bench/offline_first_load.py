"""First load of the offline table in Chromium: bytes and time to the first move.

    .venv/bin/python -m bench.offline_first_load --runs 5

Starts the site (``manage.py runserver`` on the environment's database, DEBUG
settings: static files served uncompressed) unless ``--url`` names a running one, and
opens /play/offline/ in a fresh browser context per run:

* cold (first visit, online, empty caches): bytes of every response the page loaded
  (PerformanceResourceTiming transfer sizes) and the time from navigation start to the
  set-up form, then from "Deal" to the dealt table waiting for the player's first move
  (the player's own choice of settings is not counted);
* what the service worker then downloads into its cache (the precache list, on disk
  and gzip-compressed as whitenoise serves it in production);
* offline start (network off, a match in progress): navigation start to the table
  ready for the player's move, from the service worker's cache.

Prints the median and the worst of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import gzip
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"

TRANSFERRED = """() => {
  const entries = [
    ...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource"),
  ];
  return entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0);
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    port = free_port()
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2)
            return server, url
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the site did not start")


def precache_sizes() -> tuple[int, int]:
    import django

    django.setup()
    from django.contrib.staticfiles import finders

    from games.offline_views import PRECACHE_MODULES, PRECACHE_STATIC

    raw = packed = 0
    for path in PRECACHE_STATIC + PRECACHE_MODULES:
        data = Path(finders.find(path)).read_bytes()
        raw += len(data)
        packed += len(data) if path.endswith(".png") else len(gzip.compress(data, 9))
    return raw, packed


def one_run(browser, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url + "/play/offline/")
    page.wait_for_selector("body[data-ready=true]")
    setup_ms = page.evaluate("performance.now()")
    page.wait_for_load_state("load")
    cold_bytes = page.evaluate(TRANSFERRED)
    start = page.evaluate("performance.now()")
    page.click("form[data-new-match] button[type=submit]")
    page.locator("[data-my-hand] .card").first.wait_for()
    deal_ms = page.evaluate("performance.now()") - start
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    page.reload()
    page.locator("[data-my-hand] .card").first.wait_for()
    offline_ms = page.evaluate("performance.now()")
    context.close()
    return {"bytes": cold_bytes, "setup": setup_ms, "first_move": setup_ms + deal_ms,
            "deal": deal_ms, "offline": offline_ms}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", help="a running site (default: start one)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = None
    url = args.url
    if url is None:
        server, url = start_server()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            runs = [one_run(browser, url) for _ in range(args.runs)]
            browser.close()
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
    raw, packed = precache_sizes()

    def show(key: str, unit: str = "ms") -> str:
        values = [r[key] for r in runs]
        return f"median {statistics.median(values):8.0f} {unit}   worst {max(values):8.0f} {unit}"

    print(f"{args.runs} runs against {url}")
    print(f"cold load, bytes transferred          {show('bytes', 'B')}")
    print(f"cold load, navigation -> set-up form  {show('setup')}")
    print(f"cold load, 'Deal' -> table ready       {show('deal')}")
    print(f"cold load, time to first move         {show('first_move')}")
    print(f"offline start -> table ready          {show('offline')}")
    print(f"service worker precache: {raw:,} B on disk, {packed:,} B gzip-compressed")


if __name__ == "__main__":
    main()
