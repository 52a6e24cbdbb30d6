"""Real Chromium (Debian's, driven by Playwright's sync API) against a real daphne
server and a real Celery worker (tests/workers.py), on the test database.

Browser tests run last (tests/conftest.py) and allow Django's async-unsafe calls
only inside themselves: once Playwright's sync API has started an event loop in
this thread, later asyncio tests fail, and Django's async-safety check would
refuse the tests' ORM calls (so ``DJANGO_ALLOW_ASYNC_UNSAFE`` is set only while
Playwright runs, never globally). ``TablePlayer`` plays a
table page by clicking like a person: pass on the first turn, draw from the
stock, go gin or knock as soon as the buttons offer it, otherwise discard the
highest deadwood card.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, Playwright, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

T = TypeVar("T")
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
PASSWORD = "felt-table-Knock-42"
TIMEOUT_MS = 15_000  # each page's default (new_page)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """A failed browser test's report carries what the server saw: the tail of daphne's
    log and every other connection to the test database with what it waits on (a
    timeout in the page says only that nothing came)."""
    report = yield
    server = item.funcargs.get("live_asgi_server") if hasattr(item, "funcargs") else None
    if report.failed and call.when == "call" and server is not None:
        report.sections.append(("daphne's log (tail)", server.log()))
        report.sections.append(("database connections", _database_activity()))
    return report


def _database_activity() -> str:
    from django.db import connection

    if connection.vendor != "postgresql":
        return "(not PostgreSQL)"
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, application_name, state, wait_event_type, wait_event,"
                " now() - xact_start, left(query, 200) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return "\n".join(" | ".join(map(str, row)) for row in cursor.fetchall())
    except Exception as error:  # a report must not fail for want of a diagnosis
        return f"(could not read pg_stat_activity: {error})"


class Chromium:
    """The session's Chromium, launched again if a test's teardown had to kill it.

    Closing a context has hung once in a full run (Playwright's ``context.close()``
    waited 900 s for Chromium, after a test that had passed). ``close`` therefore
    gives the contexts ``CLOSE_SECONDS``; past that it kills this Chromium (found by
    the switch ``--gin-test-session=<our pid>``, so another run's is never touched),
    which ends the waiting call, and the next test gets a new one."""

    CLOSE_SECONDS = 30.0

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.marker = f"--gin-test-session={os.getpid()}"
        self.pattern = f"{self.marker}( |$)"  # for pkill -f: not another pid that begins so
        self.current: Browser | None = None
        self.killed = threading.Event()

    def get(self) -> Browser:
        if self.current is None or not self.current.is_connected():
            self.killed.clear()
            self.current = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, self.marker])
        return self.current

    def close(self, contexts: list[BrowserContext]) -> None:
        watchdog = threading.Timer(self.CLOSE_SECONDS, self._kill)
        watchdog.start()
        try:
            for context in contexts:
                try:
                    context.close()
                except Error:
                    if not self.killed.is_set():
                        raise
        finally:
            watchdog.cancel()
        if self.killed.is_set():
            warnings.warn(f"closing a browser context took over {self.CLOSE_SECONDS:.0f} s:"
                          " Chromium was killed and is launched again", stacklevel=2)

    def _kill(self) -> None:
        self.killed.set()
        subprocess.run(["pkill", "-KILL", "-f", "--", self.pattern], check=False)

    def quit(self) -> None:
        if self.current is not None and self.current.is_connected():
            self.current.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    # Playwright's sync API keeps an event loop running in this thread from here on,
    # so Django's async-safety check would refuse the tests' ORM calls and the
    # database flush after each test. Allowed only while Playwright runs, which is
    # the end of the session (browser tests run last).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            launcher = Chromium(playwright)
            try:
                yield launcher
            finally:
                launcher.quit()


@pytest.fixture
def browser(chromium: Chromium) -> Browser:
    return chromium.get()


@pytest.fixture
def site(live_asgi_server: Any, live_celery_worker: Any) -> Any:
    """The running site (daphne + Celery); ``site.url`` is its address."""
    return live_asgi_server


@pytest.fixture
def new_page(chromium: Chromium, browser: Browser) -> Iterator[Any]:
    """``new_page(viewport)``: a page in a fresh context (its own cookies)."""
    contexts = []

    def make(viewport: dict[str, int] | None = None, **options: Any) -> Page:
        """``options``: more of Playwright's context options (has_touch, is_mobile...)."""
        # Reduced motion: the table skips its animations, so clicks need not wait for them.
        context = browser.new_context(
            viewport=viewport or DESKTOP, reduced_motion="reduce", **options
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    chromium.close(contexts)
    wait_for_the_site_to_settle()


@pytest.fixture
def player_page(new_page: Callable[..., Page]) -> Callable[..., Page]:
    """``player_page(base_url, name, viewport, **options)``: a new page signed in as a new
    player ``name`` (tests/factories.py's ``create_user`` with PASSWORD and ``options``)."""

    def make(
        base_url: str, name: str, viewport: dict[str, int] | None = None, **options: Any
    ) -> Page:
        from tests.factories import create_user

        create_user(name, PASSWORD, **options)
        page = new_page(viewport)
        sign_in(page, base_url, name)
        return page

    return make


# A function's source (``x => ...``, ``([a, b]) => ...``, ``async () => ...``,
# ``function ...``), as Playwright tells a function from an expression.
_FUNCTION = re.compile(r"^\s*(async\s+)?(function\b|\(?[\w\s,\[\]{}]*\)?\s*=>)")


def wait_until(
    page: Page, expression: str, *, arg: Any = None, timeout: float | None = None
) -> Any:
    """Playwright's ``page.wait_for_function``, under the site's Content Security Policy:
    wait until ``expression`` (a JavaScript expression, or a function of ``arg``; a
    promise is awaited) is truthy, at most ``timeout`` ms; returns its value.
    Playwright's own evaluates the expression with ``eval`` from a timer of the page,
    which the policy forbids (no 'unsafe-eval'); here it is compiled once, inside
    ``page.evaluate`` (the browser's debugger protocol, which the policy lets evaluate),
    then checked every 50 ms. A navigation meanwhile starts the wait again in the new
    page."""
    check = expression if _FUNCTION.match(expression) else f"() => ({expression})"
    ms = TIMEOUT_MS if timeout is None else timeout
    deadline = time.monotonic() + ms / 1000
    while True:
        left = max(0.0, deadline - time.monotonic()) * 1000
        try:
            return page.evaluate(
                f"""async ([arg, ms]) => {{
                    const check = {check};
                    const deadline = Date.now() + ms;
                    for (;;) {{
                        const value = await check(arg);
                        if (value) return value;
                        if (Date.now() > deadline) throw new Error(`still false after ${{ms}} ms`);
                        await new Promise((next) => setTimeout(next, 50));
                    }}
                }}""",
                [arg, left],
            )
        except Error as error:
            navigated = "context was destroyed" in str(error)
            if not navigated or time.monotonic() > deadline:
                raise AssertionError(f"waiting for {expression!r}: {error}") from error


def off_the_event_loop(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` (services that broadcast after commit) in a thread of its own:
    Playwright's sync API keeps an event loop running in the test's thread, where
    the broadcasts' ``async_to_sync`` refuses to run."""

    def run() -> T:
        from django.db import connections

        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


AXE_DIR = Path(__file__).resolve().parent / "axe"
SERIOUS = ("serious", "critical")


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core, from the npm registry at the version locked in tests/browser/axe
    (installed there with ``npm ci`` on a machine that does not have it yet)."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    # Parallel test workers (pytest-xdist) install it once: one holds the lock and
    # installs, the others wait for it and find it there.
    with open(AXE_DIR / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not script.exists():
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=AXE_DIR, check=True,
            )
    return script.read_text()


def axe_violations(page: Page, axe_source: str) -> list[dict[str, Any]]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # Evaluated, not added as an inline <script>, which the site's policy refuses.
        page.evaluate(axe_source)
    return page.evaluate(
        """async (serious) => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations.filter((v) => serious.includes(v.impact)).map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
            }));
        }""",
        list(SERIOUS),
    )


def wait_for_the_site_to_settle(timeout: float = 10.0) -> None:
    """After the pages closed: wait until the server has handled their disconnects
    (no socket row left) and no other connection to the test database is inside a
    statement or a transaction, twice in a row. The flush after the test truncates
    every table; a disconnect or computer move still writing two of them could
    deadlock with it."""
    from django.db import connection

    from games.models import SeatSocket

    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 2:
        busy = 0
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid()"
                    " AND state IN ('active', 'idle in transaction')"
                )
                busy = cursor.fetchone()[0]
        quiet = quiet + 1 if not busy and not SeatSocket.objects.exists() else 0
        time.sleep(0.1)


def sign_in(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def sign_up(page: Page, base_url: str, username: str) -> None:
    """Fill in the sign-up form for ``username`` (mail ``username@example.com``, the
    suite's password) and return once the site has signed the new account in."""
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def play_as_guest(page: Page) -> None:
    """From the home page, start playing as a guest; returns once the header names the
    guest (the click posts a form, and the page it leads to is what the test reads)."""
    page.click("text=Play as guest, no sign-up")
    page.locator(".site-account__name").wait_for()


def resign(page: Page, *others: Page) -> None:
    """Resign the match at this table (confirming in the dialog); returns once the
    match's end shows at this table and at each of ``others``."""
    page.click("[data-resign]")
    page.click("#resign-dialog button[value=resign]")
    for table in (page, *others):
        table.locator("#showdown [data-match-over]:not([hidden])").wait_for()


def start_from_lobby(
    page: Page, form: str, *, variant: str, target: str = "50", level: str | None = None
) -> None:
    """Fill one of the lobby forms (computer / friend / quick) and submit it."""
    scope = page.locator(f"form[data-form={form}]")
    if level:
        scope.locator(f"label:has(input[value={level}])").click()
    scope.locator(f"label:has(input[name='{form}-variant'][value={variant}])").click()
    scope.locator("summary").click()
    page.select_option(f"#id_{form}-target_score", target)
    scope.locator("button[type=submit]").click()
    page.wait_for_url("**/match/*/")


def friend_match(host: Page, guest: Page, *, variant: str, target: str = "50") -> None:
    """``host`` (on the lobby) invites ``guest`` by link; returns once both sit at the
    table, ``guest``'s page on the host's address."""
    start_from_lobby(host, "friend", variant=variant, target=target)
    link = host.locator("[data-invite-link]")
    link.wait_for()
    guest.goto(link.input_value())
    guest.click("text=Join the match")
    guest.wait_for_url(host.url)


class TablePlayer:
    """Plays a table page by clicking, one decision at a time."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def showdown_open(self) -> bool:
        return self.page.locator("#showdown[open]").count() > 0

    def settle(self) -> None:
        """Wait until no action of ours is still on its way to the server."""
        wait_until(
            self.page, "!document.getElementById('table-app').classList.contains('is-pending')"
        )

    def _click(self, selector: str) -> bool:
        try:
            self.page.click(selector, timeout=2_000)
        except PlaywrightTimeout:
            return False  # the table changed under us (e.g. the hand ended): look again
        self.settle()
        return True

    def act(self, *, end_hand: bool = True) -> str | None:
        """One move if it is ours; returns what was done, "showdown", or None.
        ``end_hand=False``: never gin nor knock, only draw, discard or pass."""
        page = self.page
        if self.showdown_open():
            return "showdown"
        if end_hand and page.locator("[data-act=gin]:visible").count():
            return "gin" if self._click("[data-act=gin]") else None
        if end_hand and page.locator("[data-act=big-gin]:visible").count():
            return "big_gin" if self._click("[data-act=big-gin]") else None
        if end_hand and page.locator("[data-act=knock]:visible").count():
            if self._click("[data-act=knock]"):
                return (
                    "knock"
                    if self._click("[data-my-hand] .card[data-knock=true] >> nth=0")
                    else None
                )
            return None
        if page.locator("[data-act=pass]:visible").count():
            return "pass" if self._click("[data-act=pass]") else None
        if page.locator("[data-stock][data-active=true]").count():
            return "draw" if self._click("[data-stock]") else None
        discardable = page.locator("[data-my-hand] .card[data-drag=card]")
        if discardable.count():
            dead = page.locator(".meld-group--deadwood .card[data-drag=card]")
            target = dead.last if dead.count() else discardable.last
            try:
                card = target.get_attribute("data-card", timeout=1_000)
            except PlaywrightTimeout:
                return None
            return "discard" if self._click(f"[data-my-hand] .card[data-card='{card}']") else None
        return None

    def act_or_next_hand(self, *, end_hand: bool = True) -> str | None:
        """``act``, and should the hand have ended (the computer ended it first), the
        next hand dealt unless the match is over."""
        done = self.act(end_hand=end_hand)
        if done == "showdown" and not self.match_over():
            self.next_hand()
        return done

    def wait_for_my_turn(self, timeout: float = 30.0) -> None:
        """Wait until I am to pass, take or draw; should the computer end a hand first,
        its result dialog is closed and the next hand dealt (while the dialog is open
        it holds the keyboard: a key pressed for the table behind it does nothing)."""
        deadline = time.monotonic() + timeout
        turn = "[data-act=pass]:visible, [data-stock][data-active=true]"
        while self.showdown_open() or not self.page.locator(turn).count():
            assert time.monotonic() < deadline, "never my turn"
            if self.showdown_open():
                self.next_hand()
            time.sleep(0.05)

    def play_until_showdown(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.act() == "showdown":
                return
            time.sleep(0.05)
        raise AssertionError("the hand did not end in time")

    def wait_for_verdict(self) -> str:
        """The fairness verdict of the hand in the showdown dialog."""
        verdict = self.page.locator("#showdown [data-fairness]")
        verdict.wait_for()
        return verdict.get_attribute("data-fairness") or ""

    def match_over(self) -> bool:
        """The result dialog is open on the end of the match (a closed dialog can still
        hold the last match's end: the offline table keeps it until the next result)."""
        return self.page.locator("#showdown[open] [data-match-over]:not([hidden])").count() > 0

    def next_hand(self) -> None:
        self.page.click("#showdown [data-next-hand]")
        wait_until(self.page, "!document.getElementById('showdown').open")

    def hand_cards(self) -> list[str]:
        return self.page.locator("[data-my-hand] .card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )

    def history_length(self) -> int:
        return self.page.locator("[data-log] li:not(.empty)").count()


def record_window_errors(page: Page) -> None:
    """From the next page load on, ``window.__errors`` collects the page's errors."""
    page.add_init_script(
        "window.__errors = []; window.addEventListener('error', (e) => __errors.push(e.message));"
    )


def key_events_on_the_document(page: Page) -> list[str]:
    """Send key events whose target is the document itself (a script's, or an assistive
    tool's) and return the errors the page's key handlers raised (they run in the
    dispatch); ``record_window_errors`` must have been called before the page loaded."""
    page.evaluate(
        """() => {
            for (const key of ["x", "ArrowRight", "Escape"]) {
                document.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true}));
            }
        }"""
    )
    return page.evaluate("window.__errors")


def make_two_moves_each(*pages: Page, timeout: float = 60.0) -> None:
    """Play these tables (never ending the hand) until each player has made two moves:
    a match that ends before that is aborted, not rated (docs/rules.md)."""
    players = [TablePlayer(page) for page in pages]
    made = [0] * len(players)
    deadline = time.monotonic() + timeout
    while min(made) < 2:
        assert time.monotonic() < deadline, f"moves made by each table: {made}"
        for index, player in enumerate(players):
            if player.act(end_hand=False) in ("pass", "draw", "discard"):
                made[index] += 1
        time.sleep(0.05)
