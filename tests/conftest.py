"""Suite-wide test configuration.

Browser tests (marker ``browser``, under tests/browser) run last: once Playwright's
sync API has started, later asyncio tests fail (STACK-NOTES pitfall 2).
"""

import pytest

pytest_plugins = ["tests.workers"]  # live_celery_worker, live_asgi_server


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def is_browser(item: pytest.Item) -> bool:
        return "tests/browser/" in item.nodeid or item.get_closest_marker("browser") is not None

    items.sort(key=is_browser)  # stable: keeps the order within each group
