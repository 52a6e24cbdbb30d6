"""Suite-wide test configuration.

Browser tests (marker ``browser``, under tests/browser) run last: once Playwright's
sync API has started, later asyncio tests fail with "Cannot run the event loop while
another loop is running". Under pytest-xdist (``-n``, ``--dist loadfile
--no-loadscope-reorder``) each worker receives its modules in collection order, so in
every worker the browser tests still come last.
Rate-limit counters (the lobby's and allauth's, in the shared cache) start from zero
in every test: all test clients share one address. Every test gets a fresh channel
layer, and database connections opened in threads close after use.
"""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers
from django.db import connections
from django.utils import timezone, translation

pytest_plugins = ["tests.workers"]  # live_celery_worker, live_asgi_server


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def is_browser(item: pytest.Item) -> bool:
        return "tests/browser/" in item.nodeid or item.get_closest_marker("browser") is not None

    items.sort(key=is_browser)  # stable: keeps the order within each group


def clear_rate_limits() -> None:
    """Delete the rate-limit counters only: with Redis the cache shares a database with
    the channel layer and the Celery broker, whose keys must stay."""
    from django.conf import settings
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()
        return
    import redis

    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        for pattern in (f"{prefix}:*:ratelimit:*", f"{prefix}:*:allauth:rl:*"):
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)
    finally:
        client.close()


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    clear_rate_limits()
    yield


@pytest.fixture(autouse=True)
def _english_and_utc_after_each_test() -> Iterator[None]:
    """A page request through the test client activates its person's language and time
    zone (ginsite/i18n.py) in the test's own thread, where Django leaves them: a test
    that reads a page in German would have the next test's services answer in German.
    Under the ASGI server each request has its own context; here each test does."""
    yield
    translation.deactivate()
    timezone.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _no_persistent_connections_in_threads() -> Iterator[None]:
    """Consumers reach the database from asgiref's worker threads; with the
    settings' CONN_MAX_AGE those connections outlive the tests and keep the test
    database from being dropped. Connections opened from here on close after use."""
    settings_dict = connections.settings["default"]
    saved = settings_dict.get("CONN_MAX_AGE", 0)
    settings_dict["CONN_MAX_AGE"] = 0
    yield
    settings_dict["CONN_MAX_AGE"] = saved


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each async test runs on its own event loop; a Redis channel layer object
    keeps per-loop state (its locks are bound to the loop that first used them),
    so every test gets a new one."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Content types keep their ids for the whole session (``_content_types_keep_their_ids``),
    from a first flush on, before any live server or worker starts and caches them.

    Before the test database is dropped: close the connections of the match
    sockets' database threads (games/db_threads.py). Work a socket started as its
    test's event loop closed may finish after the test, when the database is blocked
    and the call cannot close its connection; that connection would keep the test
    database from being dropped. Each thread takes one barrier task, so each closes
    its own connections after all its earlier work."""
    from django.core.management import call_command

    with pytest.MonkeyPatch.context() as patch:
        _content_types_keep_their_ids(patch)
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)
        yield
    from games import db_threads

    db_threads.close_connections()


def _content_types_keep_their_ids(patch: pytest.MonkeyPatch) -> None:
    """The flush that ends each transactional test empties every table, then makes the
    content types and permissions again (post_migrate). The live server and worker
    processes cache content types by id for the session (the admin's log of a change
    names one): made again with new ids, the next admin save there would fail on a
    foreign key. So their sequences start again at 1 before they are made, in the same
    order every time, as production's ids never change."""
    from django.core.management.color import no_style
    from django.core.management.commands import flush

    make_again = flush.emit_post_migrate_signal

    def emit(verbosity: int, interactive: bool, database: str, **kwargs: Any) -> None:
        connection = connections[database]
        tables = [{"table": "django_content_type", "column": "id"},
                  {"table": "auth_permission", "column": "id"}]
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_by_name_sql(no_style(), tables):
                cursor.execute(sql)
        make_again(verbosity, interactive, database, **kwargs)

    patch.setattr(flush, "emit_post_migrate_signal", emit)


@pytest.fixture(autouse=True)
def _quiet_database_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test ends with a flush that truncates every table. Work the test
    started elsewhere (a live server handling a closed socket, a worker's task, a
    consumer's database thread) may still be writing two of those tables: the flush
    would deadlock with it. Before the flush, wait until no other connection to the
    test database is inside a statement or a transaction, twice in a row (at most 10 s).
    Set up after the database fixture, so torn down before its flush."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    wait_for_a_quiet_database()


def wait_for_a_quiet_database(timeout: float = 10.0) -> None:
    """Until no other connection to this database is busy, twice in a row."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 2:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
            )
            busy = cursor.fetchone()[0]
        quiet = 0 if busy else quiet + 1
        time.sleep(0.05)


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """tests/factories.py's ``create_user``, with the database."""
    from tests.factories import create_user

    return create_user


@pytest.fixture
def moderator(db: None) -> Any:
    """A moderator (tests/factories.py)."""
    from tests.factories import create_moderator

    return create_moderator()


def _player_named(name: str) -> Any:
    @pytest.fixture(name=name)
    def player(db: None) -> Any:
        from tests.factories import create_user

        return create_user(name)

    return player


#: Registered players named after their fixture (tests/factories.py's ``create_user``).
alice, ann, bob, carol = (_player_named(n) for n in ("alice", "ann", "bob", "carol"))
