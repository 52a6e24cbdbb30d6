"""The deployment files (docs/deploy/) as ``bench.topology`` reads them: the nginx file
rendered for one machine by its markers, and the commands of the systemd units. The
fault run (tests/reliability/test_topology_faults.py) starts what these give."""

from __future__ import annotations

from pathlib import Path

from bench.topology import DEPLOY, VENV_BIN, deploy_env, render_site, unit_command, unit_nice


def test_the_nginx_file_renders_for_one_machine_by_its_markers() -> None:
    site = render_site([41001, 41002, 41003], "127.0.0.1:41000", Path("/run/gin/static"))
    upstream = site[site.index("upstream gin_asgi"):site.index("}")]
    assert [line.split()[1] for line in upstream.splitlines() if "server " in line] == [
        "127.0.0.1:41001", "127.0.0.1:41002", "127.0.0.1:41003"]
    assert "listen 127.0.0.1:41000;" in site
    assert "alias /run/gin/static/;" in site
    for production_only in ("ssl", "443", "letsencrypt", "return 301", "8001", "/srv/gin"):
        assert production_only not in site, production_only
    # The rest is the repository's file as it is: the sockets' upgrade and timeouts.
    original = (DEPLOY / "nginx.conf").read_text()
    for line in ("proxy_set_header Upgrade $http_upgrade;", "proxy_read_timeout 1h;",
                 "least_conn;", "gzip_static on;", "proxy_set_header Host $http_host;"):
        assert line in original and line in site, line


def test_the_units_commands_run_from_the_virtualenv() -> None:
    asgi = unit_command("gin-asgi@.service", "41001")
    assert asgi[0] == str(VENV_BIN / "daphne")
    assert asgi[1:] == ["-b", "127.0.0.1", "-p", "41001", "ginsite.asgi:application"]
    analysis = unit_command("gin-analysis-worker.service")
    assert analysis[0] == str(VENV_BIN / "celery")
    assert analysis[analysis.index("-Q") + 1] == "analysis"
    # systemd turns %% into %; Celery then expands %h (a %H made the worker exit).
    assert analysis[analysis.index("--hostname") + 1] == "analysis@%h"
    assert unit_nice("gin-analysis-worker.service") == 10
    assert unit_command("gin-beat.service")[1:4] == ["-A", "ginsite", "beat"]
    assert "-Q" not in unit_command("gin-worker.service")


def test_the_example_environment_is_read_without_its_comments() -> None:
    env = deploy_env()
    assert env["DEBUG"] == "0" and env["TRUSTED_PROXY_COUNT"] == "1"
    assert not any(key.startswith("#") for key in env)
