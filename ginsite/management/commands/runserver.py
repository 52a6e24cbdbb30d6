"""``manage.py runserver``: daphne's development server (HTTP and WebSockets), which
also says where the site is: the address and port it was started on, and the admin
account that ``setup_dev`` created.

It extends daphne's command where Django's runserver has no documented hook: daphne's
``inner_run`` (which starts the server), and the attributes Django's ``handle`` sets
before it (``addr``, ``port``, ``_raw_ipv6``) with the class's ``protocol``;
tests/test_internals.py fails on an upgrade that removes them (Django and daphne are
pinned exactly in pyproject.toml)."""

from __future__ import annotations

from typing import Any

from daphne.management.commands.runserver import Command as DaphneRunserver

from accounts.management.commands.setup_dev import PASSWORD_FILE


class Command(DaphneRunserver):
    def inner_run(self, *args: Any, **options: Any) -> None:
        host = f"[{self.addr}]" if self._raw_ipv6 else self.addr
        base = f"{self.protocol}://{host}:{self.port}"
        line = f"Site ready at {base}/ - admin at {base}/admin/"
        if PASSWORD_FILE.exists():
            password = PASSWORD_FILE.read_text().strip()
            line += f" as 'admin' with password {password} (saved in {PASSWORD_FILE.name})"
        self.stdout.write(line + ".")
        super().inner_run(*args, **options)
